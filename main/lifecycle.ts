/**
 * Quitting: the server is stopped first (asked, then killed within its bound), then
 * the app quits; pages that hold an upload do not stop it (`quitting()` tells the
 * window manager to override their unload veto). A system shutdown or logout on
 * Windows skips `before-quit` and sends `session-end` to the windows instead:
 * `sessionEnds()` stops the server there. Whatever hangs, the app exits after
 * `hardExitMs`.
 */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  exit(code?: number): void;
}

export interface Quitting {
  /** true from the moment a quit began */
  quitting(): boolean;
  /** a window's `session-end` (Windows shutdown or logout) */
  sessionEnds(): void;
}

export const setupQuit = (app: QuitApp, host: { stop(options?: { abortStart?: boolean }): Promise<void> }, options: { hardExitMs?: number } = {}): Quitting => {
  const hardExitMs = options.hardExitMs ?? 15_000;
  let quitting = false;
  let serverStopped = false;
  const stopServer = () => {
    if (quitting) return;
    quitting = true;
    // a last resort: the server host kills its process after 10 s; nothing else may keep Pier alive
    setTimeout(() => app.exit(0), hardExitMs).unref();
    void host.stop({ abortStart: true }).finally(() => {
      serverStopped = true;
      app.quit();
    });
  };
  app.on('before-quit', (event) => {
    if (serverStopped) return;
    event.preventDefault();
    stopServer();
  });
  return { quitting: () => quitting, sessionEnds: stopServer };
};
