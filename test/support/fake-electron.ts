/**
 * A fake of the Electron API parts main/ uses (webContents events, windows, the quit
 * sequence, IPC), so its modules run under plain Node. It follows Electron's
 * documented behaviour for what main/ relies on, failures included (superseded and
 * vetoed loads reject, closing and quitting can be cancelled); it records what was
 * done to it and does not pretend to render anything.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BrowserWindowConstructorOptions } from 'electron';
import type { IpcEventLike, IpcMainLike } from '../../main/ipc.js';
import type { WindowLike } from '../../main/window-manager.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners of any Electron event
type Listener = (...args: any[]) => void;

let nextId = 1;

/** A cancellable Electron event. */
export interface FakeEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}
export const fakeEvent = (): FakeEvent => {
  const e = {
    defaultPrevented: false,
    preventDefault: () => {
      e.defaultPrevented = true;
    },
  };
  return e;
};

/** The error `loadURL` rejects with when the navigation did not happen (Electron's shape). */
export const abortError = (url: string): Error =>
  Object.assign(new Error(`ERR_ABORTED (-3) loading '${url}'`), { errno: -3, code: 'ERR_ABORTED', url });

/**
 * A page's contents as Electron documents them for what main/ relies on: a load
 * finishes a little later (not in the same turn); a second `loadURL` before the first
 * finished rejects the first with ERR_ABORTED; a page whose `beforeunload` handler
 * cancels (`preventsUnload`, as the web client does while an upload runs) emits
 * `will-prevent-unload`, and unless a listener calls `preventDefault()` the
 * navigation does not happen and `loadURL` rejects with ERR_ABORTED.
 */
export class FakeWebContents {
  readonly id = nextId++;
  readonly listeners = new Map<string, Listener[]>();
  openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
  url = '';
  /** documents loaded so far: a reload loses the page's state (playback, forms) */
  documents = 0;
  /** the page's beforeunload handler cancels unloading */
  preventsUnload = false;
  private pending: { url: string; reject: (e: Error) => void } | null = null;

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
  /** Emits a cancellable event as Electron would; true when a listener prevented it. */
  emitNavigation(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    const e = fakeEvent();
    this.emit(event, e, url);
    return e.defaultPrevented;
  }
  /** true when the page may be unloaded: no beforeunload veto, or main/ overrode it */
  mayUnload(): boolean {
    if (!this.preventsUnload || this.documents === 0) return true;
    const e = fakeEvent();
    this.emit('will-prevent-unload', e);
    return e.defaultPrevented;
  }
  loadURL(url: string): Promise<void> {
    if (!this.mayUnload()) return Promise.reject(abortError(url));
    this.pending?.reject(abortError(this.pending.url));
    return new Promise<void>((resolve, reject) => {
      const mine = { url, reject };
      this.pending = mine;
      setImmediate(() => {
        if (this.pending !== mine) return;
        this.pending = null;
        this.url = url;
        this.documents++;
        this.preventsUnload = false;
        this.emit('did-navigate', fakeEvent(), url);
        this.emit('did-finish-load');
        resolve();
      });
    });
  }
}

export class FakeBrowserWindow implements WindowLike {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  private readonly handlers = new Map<string, Listener[]>();
  shown = 0;
  focused = 0;
  closed = false;
  minimized = false;

  constructor(readonly options: BrowserWindowConstructorOptions) {
    FakeBrowserWindow.created.push(this);
  }
  private emit(event: string, ...args: unknown[]): void {
    for (const l of this.handlers.get(event) ?? []) l(...args);
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    await this.webContents.loadURL(url);
    this.emit('ready-to-show');
    this.handlers.delete('ready-to-show');
  }
  async loadFile(path: string): Promise<void> {
    await this.loadURL(`file://${path}`);
  }
  once(event: string, listener: Listener): this {
    const once: Listener = (...args) => {
      this.handlers.set(event, (this.handlers.get(event) ?? []).filter((l) => l !== once));
      listener(...args);
    };
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), once]);
    return this;
  }
  on(event: string, listener: Listener): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  show(): void {
    this.shown++;
  }
  focus(): void {
    this.focused++;
    this.emit('focus');
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.closed;
  }
  restore(): void {
    this.minimized = false;
  }
  /** As the user or `close()` closes it: `close` can be cancelled, and so can the page's unload. */
  close(): void {
    if (this.closed) return;
    const e = fakeEvent();
    this.emit('close', e);
    if (e.defaultPrevented || !this.webContents.mayUnload()) return;
    this.destroy();
  }
  /** Closes at once: no `close` event, no beforeunload. */
  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('closed');
  }
}

/**
 * `app` for the quit sequence: `quit()` emits a cancellable `before-quit`, then closes
 * every window, and is cancelled when one of them stays open (a page vetoed its
 * unload); otherwise `will-quit` and `quit` follow.
 */
export class FakeApp {
  private readonly handlers = new Map<string, Listener[]>();
  quitted = false;
  constructor(private readonly windows: () => FakeBrowserWindow[]) {}
  on(event: string, listener: Listener): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.handlers.get(event) ?? []) l(...args);
  }
  quit(): void {
    const e = fakeEvent();
    this.emit('before-quit', e);
    if (e.defaultPrevented) return;
    for (const w of this.windows()) w.close();
    if (this.windows().some((w) => !w.closed)) return;
    this.emit('will-quit', fakeEvent());
    this.quitted = true;
    this.emit('quit');
  }
  exit(): void {
    this.quitted = true;
  }
}

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What `ipcRenderer.invoke` would do from a frame at `url` in webContents `id`. */
  async invoke(channel: string, from: { id: number; url: string; subframe?: boolean }, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    const event: IpcEventLike = { sender: { id: from.id }, senderFrame: { url: from.url, parent: from.subframe ? {} : null } };
    return h(event, ...args);
  }
}

/**
 * A notification the way Electron's behaves for what main/ relies on: shown on screen
 * by the system, but the JavaScript object, and with it its click handler, is
 * collected when nothing references it. `clickAll()` clicks every notification still
 * on screen after a real garbage collection; a collected one's click goes nowhere.
 */
export class FakeNotification {
  private static onScreen: WeakRef<FakeNotification>[] = [];
  static shown = 0;
  private readonly handlers = new Map<string, Listener[]>();
  constructor(readonly options: { title: string; body: string; icon?: string }) {}
  on(event: string, listener: Listener): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  show(): void {
    FakeNotification.shown++;
    FakeNotification.onScreen.push(new WeakRef(this));
  }
  static async clickAll(): Promise<number> {
    await collectGarbage();
    let clicked = 0;
    for (const ref of FakeNotification.onScreen.splice(0)) {
      const n = ref.deref();
      if (!n) continue;
      clicked++;
      for (const l of n.handlers.get('click') ?? []) l();
    }
    return clicked;
  }
}

/** A full garbage collection (as time passing would bring), without a flag on the test process. */
export const collectGarbage = async (): Promise<void> => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // let pending microtasks drop their references first
  await new Promise((r) => setImmediate(r));
  gc();
  gc();
};
