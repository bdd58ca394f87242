/**
 * The tray menu as data: `buildTrayMenu(state)` is a pure function from what the tray
 * knows to the items it shows, each clickable item carrying a `TrayAction` value.
 * `toMenuTemplate` turns the items into Electron's template, sending clicks to one
 * dispatcher (tray.ts), so everything here is tested under plain Node.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { ServerAddress } from '../preload/desktop-api.js';
import { aliasLink } from './pier-api.js';
import type { HostState } from './server-host.js';

export interface TrayAlias {
  id: string;
  name: string;
  enabled: boolean;
}

export interface TrayState {
  server: HostState;
  /** this computer first, then the LAN addresses (see network.ts) */
  addresses: ServerAddress[];
  /** listening on the LAN (setting) */
  lan: boolean;
  /** the desktop's account is set up, so the tray can share files and manage upload links */
  hasAccount: boolean;
  /** the first start is not finished (its window may have been closed) */
  needsSetup: boolean;
  /** the account's upload links; `null` while unknown (not loaded, or the server failed to answer) */
  aliases: TrayAlias[] | null;
  playerEnabled: boolean;
}

export type TrayAction =
  /** the app window; at `path` when given, else as it is */
  | { type: 'open-app'; path?: string }
  | { type: 'show-setup' }
  | { type: 'copy'; text: string }
  | { type: 'show-qr'; title: string; url: string }
  | { type: 'share-files' }
  | { type: 'new-upload-link' }
  /** the QR code of the player's room link (the open room, or a new one) */
  | { type: 'invite-room' }
  | { type: 'open-received-folder' }
  | { type: 'open-settings-file' }
  | { type: 'set-lan'; lan: boolean }
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'quit' };

export type TrayItem =
  | { kind: 'label'; label: string }
  | { kind: 'action'; label: string; action: TrayAction; enabled: boolean }
  | { kind: 'check'; label: string; checked: boolean; action: TrayAction; enabled: boolean }
  | { kind: 'submenu'; label: string; items: TrayItem[]; enabled: boolean }
  | { kind: 'separator' };

const REASON_MAX = 120;
const shorten = (reason: string): string => (reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 1)}…` : reason);
const label = (text: string): TrayItem => ({ kind: 'label', label: text });
const action = (text: string, a: TrayAction, enabled = true): TrayItem => ({ kind: 'action', label: text, action: a, enabled });
const separator: TrayItem = { kind: 'separator' };

/** The first line: what the server is doing. */
export const stateLabel = (s: HostState): string => {
  switch (s.kind) {
    case 'running':
      return 'Pier is running';
    case 'starting':
      return 'Pier is starting…';
    case 'stopped':
      return 'Pier is stopped';
    case 'error':
      return `Pier could not start: ${shorten(s.reason)}`;
    case 'restarting':
      return `Pier is restarting: ${shorten(s.reason)}`;
  }
};

/** The link for other devices: the first LAN address, else this computer's. */
const shareBase = (state: TrayState): string | undefined => (state.addresses[1] ?? state.addresses[0])?.url;

const aliasMenu = (state: TrayState, running: boolean): TrayItem => {
  const base = shareBase(state);
  const items: TrayItem[] = [];
  if (state.aliases === null) items.push(label(running ? 'Upload links could not be loaded' : 'Start Pier to see upload links'));
  else if (state.aliases.length === 0) items.push(label('No upload links yet'));
  else
    for (const a of state.aliases) {
      const url = aliasLink(base ?? '', a.id);
      items.push({
        kind: 'submenu',
        label: a.enabled ? a.name : `${a.name} (disabled)`,
        enabled: true,
        items: [action('Copy link', { type: 'copy', text: url }), action('Show QR code…', { type: 'show-qr', title: a.name, url })],
      });
    }
  items.push(separator, action('New upload link…', { type: 'new-upload-link' }, running && state.hasAccount));
  return { kind: 'submenu', label: 'Upload links', items, enabled: running && state.hasAccount };
};

/** The tray menu for `state`. */
export const buildTrayMenu = (state: TrayState): TrayItem[] => {
  const s = state.server;
  const running = s.kind === 'running';
  const items: TrayItem[] = [label(stateLabel(s))];
  if (state.needsSetup) items.push(action('Finish setting up Pier…', { type: 'show-setup' }));

  if (running) {
    for (const a of state.addresses) items.push(label(a.name === 'localhost' ? `This computer: ${a.url}` : `${a.name}: ${a.url}`));
    const lanAddress = state.addresses[1]?.url;
    if (lanAddress) {
      items.push(action('Copy LAN link', { type: 'copy', text: `${lanAddress}/app` }));
      items.push(action('Show QR code for phones…', { type: 'show-qr', title: 'Pier on your network', url: `${lanAddress}/app` }));
    } else items.push(label(state.lan ? 'No network connection found' : 'Reachable from this computer only'));
  }

  items.push(
    separator,
    action('Open Pier', { type: 'open-app' }, running),
    action('Share files…', { type: 'share-files' }, running && state.hasAccount),
    aliasMenu(state, running),
    action('Accounts…', { type: 'open-app', path: '/app/account' }, running),
  );
  if (state.playerEnabled) {
    items.push({
      kind: 'submenu',
      label: 'Player',
      enabled: running,
      items: [action('Open player', { type: 'open-app', path: '/app/player' }, running), action('Invite the room…', { type: 'invite-room' }, running && state.hasAccount)],
    });
  }
  items.push(action('Open received files', { type: 'open-received-folder' }), separator);

  if (s.kind === 'running') items.push(action('Stop server', { type: 'stop' }));
  else if (s.kind === 'starting' || s.kind === 'restarting') items.push(action('Starting…', { type: 'start' }, false));
  else items.push(action(s.kind === 'error' ? 'Try again' : 'Start server', { type: 'start' }));
  items.push({ kind: 'check', label: 'Reachable on the network (LAN)', checked: state.lan, action: { type: 'set-lan', lan: !state.lan }, enabled: s.kind !== 'starting' && s.kind !== 'restarting' });
  // The settings page is served by the server; without it the settings file is the way in.
  items.push(
    running
      ? action('Settings…', { type: 'open-app', path: '/app/desktop' })
      : action('Settings file…', { type: 'open-settings-file' }),
    separator,
    action('Quit Pier', { type: 'quit' }),
  );
  return items;
};

/** Electron's menu template for `items`; a click calls `dispatch` with the item's action. */
export const toMenuTemplate = (items: TrayItem[], dispatch: (a: TrayAction) => void): MenuItemConstructorOptions[] =>
  items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'label':
        return { label: item.label, enabled: false };
      case 'action':
        return { label: item.label, enabled: item.enabled, click: () => dispatch(item.action) };
      case 'check':
        return { label: item.label, type: 'checkbox', checked: item.checked, enabled: item.enabled, click: () => dispatch(item.action) };
      case 'submenu':
        return { label: item.label, enabled: item.enabled, submenu: toMenuTemplate(item.items, dispatch) };
    }
  });

/**
 * Whether a click on the tray icon opens the window. On Windows a click opens it and
 * a right click the menu. On macOS a click opens the menu and also emits `click`; on
 * Linux the menu is all there is.
 */
export const trayClickOpensWindow = (platform: NodeJS.Platform): boolean => platform === 'win32';
