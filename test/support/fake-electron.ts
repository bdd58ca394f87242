/**
 * A small fake of the Electron API parts main/ uses (webContents events, windows, IPC),
 * so its modules run under plain Node. It records what was done to it; it does not
 * pretend to render anything.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import type { IpcEventLike, IpcMainLike } from '../../main/ipc.js';
import type { WindowLike } from '../../main/window-manager.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners of any Electron event
type Listener = (...args: any[]) => void;

let nextId = 1;

export class FakeWebContents {
  readonly id = nextId++;
  readonly listeners = new Map<string, Listener[]>();
  openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
  url = '';

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  setWindowOpenHandler(handler: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
  /** Emits a cancellable event as Electron would; true when a listener prevented it. */
  emitNavigation(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    let prevented = false;
    const e = { preventDefault: () => (prevented = true) };
    for (const l of this.listeners.get(event) ?? []) l(e, url);
    return prevented;
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
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
    for (const l of this.handlers.get('ready-to-show') ?? []) l();
    this.handlers.delete('ready-to-show');
  }
  async loadFile(path: string): Promise<void> {
    await this.loadURL(`file://${path}`);
  }
  once(event: 'ready-to-show', listener: () => void): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  on(event: 'closed', listener: () => void): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
    return this;
  }
  show(): void {
    this.shown++;
  }
  focus(): void {
    this.focused++;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  close(): void {
    this.closed = true;
    for (const l of this.handlers.get('closed') ?? []) l();
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
