/**
 * IPC: a closed list of channels, each answered only for senders from Pier's own
 * windows (the frame's origin or URL is what the channel expects AND the webContents
 * is one Pier created), each checking its arguments before the handler runs.
 */
import type { DesktopChannel, DesktopChannels, DesktopPagePath } from '../preload/desktop-api.js';
import type { SetupChannel, SetupChannels } from '../preload/setup-api.js';

export type Channel = DesktopChannel | SetupChannel;

/** Every channel, method → channel, checked against the preload's types by the compiler. */
export const DESKTOP_CHANNELS: DesktopChannels = {
  getSettings: 'desktop:settings-get',
  setSettings: 'desktop:settings-set',
  pickFolder: 'desktop:pick-folder',
  pickConfigFile: 'desktop:pick-config-file',
  openFolder: 'desktop:open-folder',
  lanAddresses: 'desktop:lan-addresses',
  qrData: 'desktop:qr-data',
};
export const SETUP_CHANNELS: SetupChannels = {
  defaults: 'setup:defaults',
  pickFolder: 'setup:pick-folder',
  complete: 'setup:complete',
  finish: 'setup:finish',
};
export const ALL_CHANNELS: readonly Channel[] = [...Object.values(DESKTOP_CHANNELS), ...Object.values(SETUP_CHANNELS)];

/** The parts of an IPC invoke event the checks read (Electron's IpcMainInvokeEvent has them). */
export interface IpcEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** Who may call a channel. */
export interface SenderRule {
  /** the webContents ids of the windows allowed to call */
  ids(): ReadonlySet<number>;
  /** true when the calling frame's URL is one this channel accepts */
  url(frameUrl: string): boolean;
  /** a further check of the calling window (by webContents id) */
  sender?(webContentsId: number): boolean;
}

/** Top frames of the allowed windows whose URL the rule accepts; everything else is refused. */
export const isTrustedSender = (event: IpcEventLike, rule: SenderRule): boolean => {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return rule.ids().has(event.sender.id) && rule.url(frame.url) && (rule.sender?.(event.sender.id) ?? true);
};

/** A rule for pages of one origin (the server's, read at each call). */
export const originRule = (ids: () => ReadonlySet<number>, origin: () => string | null): SenderRule => ({
  ids,
  url(frameUrl) {
    const o = origin();
    if (o === null) return false;
    try {
      return new URL(frameUrl).origin === o;
    } catch {
      return false;
    }
  },
});

/** The desktop settings page, the one page of the server `window.desktop` works on. */
export const DESKTOP_PAGE: DesktopPagePath = '/app/desktop';

/**
 * A rule for the desktop settings page of the server's origin (read at each call).
 * The frame's URL is its current one, which follows the web client's in-page
 * navigation, so every other page of the web client is refused even though it runs
 * in the same document. And the document must have been loaded as that page
 * (`documentUrl`: the URL of the window's last full navigation), so a script of
 * another page cannot get there with `history.pushState`. Query and fragment do not
 * matter.
 */
export const desktopPageRule = (
  ids: () => ReadonlySet<number>,
  origin: () => string | null,
  documentUrl: (webContentsId: number) => string | undefined,
): SenderRule => {
  const sameOrigin = originRule(ids, origin);
  const isPage = (url: string | undefined) => {
    if (url === undefined || !sameOrigin.url(url)) return false;
    const path = new URL(url).pathname;
    return path === DESKTOP_PAGE || path === `${DESKTOP_PAGE}/`;
  };
  return {
    ids,
    url: isPage,
    sender: (id) => isPage(documentUrl(id)),
  };
};

/** A rule for one exact local page (the first-start window), ignoring a `#fragment`. */
export const pageRule = (ids: () => ReadonlySet<number>, pageUrl: string): SenderRule => ({
  ids,
  url: (frameUrl) => frameUrl.split('#')[0] === pageUrl,
});

export interface ChannelHandler {
  rule: SenderRule;
  /** returns a message when the arguments are wrong (count and types) */
  check(args: unknown[]): string | null;
  run(...args: unknown[]): unknown;
}

export const noArgs = (args: unknown[]): string | null => (args.length === 0 ? null : 'takes no arguments');
export const oneArg =
  (type: 'string' | 'object') =>
  (args: unknown[]): string | null => {
    if (args.length !== 1) return 'takes one argument';
    const a = args[0];
    const ok = type === 'string' ? typeof a === 'string' : typeof a === 'object' && a !== null && !Array.isArray(a);
    return ok ? null : `takes one ${type}`;
  };

/**
 * Registers `handlers` (exactly the channels of the closed list; anything else is a
 * programming error). A refused sender or wrong arguments reject the invoke without
 * running the handler; `log` hears about refused senders.
 */
export const registerIpc = (
  ipc: IpcMainLike,
  handlers: Partial<Record<Channel, ChannelHandler>>,
  log: (message: string) => void = () => {},
): (() => void) => {
  const channels = Object.keys(handlers) as Channel[];
  for (const channel of channels) {
    if (!ALL_CHANNELS.includes(channel)) throw new Error(`Unknown IPC channel ${channel}`);
    const h = handlers[channel]!;
    ipc.handle(channel, (event, ...args) => {
      if (!isTrustedSender(event, h.rule)) {
        log(`IPC ${channel} refused from ${event.senderFrame?.url ?? 'a gone frame'} (webContents ${event.sender.id})`);
        throw new Error('Not allowed');
      }
      const problem = h.check(args);
      if (problem) throw new Error(`${channel} ${problem}`);
      return h.run(...args);
    });
  }
  return () => channels.forEach((c) => ipc.removeHandler(c));
};
