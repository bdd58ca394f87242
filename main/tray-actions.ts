/**
 * What the tray's items do, and the state the menu is built from. The Electron parts
 * (clipboard, dialogs, shell, windows) come in as small interfaces, so the flows —
 * share files, new upload link, LAN switch, start/stop — run under Node in tests.
 */
import { basename } from 'node:path';
import type { DesktopSettings, Settings } from './desktop-settings.js';
import { serverAddresses } from './network.js';
import { aliasLink, roomLink, shareLink, type PierApi } from './pier-api.js';
import { qrData } from './qr.js';
import { needsFirstStart } from './first-start.js';
import type { ServerHost } from './server-host.js';
import type { TrayAction, TrayAlias, TrayState } from './tray-menu.js';
import { qrPage } from './window-manager.js';

export interface TrayDeps {
  settings: Settings;
  host: ServerHost;
  /** the API client as the desktop's account, or `null` before the first start */
  api(): PierApi | null;
  windows: { showApp(path?: string): Promise<void>; showQr(html: string): void; showSetup(): void };
  /** copies `text` (a Wayland session needs a focused window for it: index.ts decides how) */
  copy(text: string, title: string): void;
  /** file picker; `[]` when cancelled */
  pickFiles(): Promise<string[]>;
  openPath(path: string): Promise<void>;
  settingsFile(): string;
  /** an error for the user (a dialog) */
  showError(title: string, message: string): void;
  quit(): void;
}

export interface TrayController {
  state(): TrayState;
  dispatch(action: TrayAction): Promise<void>;
  /** Reloads the upload links (after a start, a creation, or periodically). */
  refreshAliases(): Promise<void>;
  onChange(listener: () => void): () => void;
}

const day = 24 * 3600 * 1000;

/** A name for a new upload link: the date and time, so several are told apart. */
export const newAliasName = (now: Date): string =>
  `Upload link ${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')} ${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;

export const createTrayController = (deps: TrayDeps): TrayController => {
  let aliases: TrayAlias[] | null = null;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());

  const addresses = (s: DesktopSettings) => {
    const st = deps.host.state();
    return st.kind === 'running' ? serverAddresses(st.port, s.lan) : [];
  };
  /** The base URL for links other devices open: the first LAN address, else this computer's. */
  const linkBase = (): string | null => {
    const a = addresses(deps.settings.get());
    return (a[1] ?? a[0])?.url ?? null;
  };

  const showQr = async (title: string, url: string, note = '') => {
    deps.windows.showQr(qrPage(title, url, (await qrData(url)).dataUrl, note));
  };

  /** Reloads the upload links; the menu is rebuilt only when they changed. */
  const refreshAliases = async () => {
    const api = deps.api();
    let next: TrayAlias[] | null = null;
    if (api && deps.host.state().kind === 'running')
      try {
        next = await api.listAliases();
      } catch {
        next = null;
      }
    if (JSON.stringify(next) === JSON.stringify(aliases)) return;
    aliases = next;
    changed();
  };

  const shareFiles = async (api: PierApi) => {
    const files = await deps.pickFiles();
    if (files.length === 0) return;
    const limits = deps.host.limits();
    const validityMs = Math.min(limits?.defaultValidity ?? 7 * day, limits?.maxValidity ?? 7 * day);
    const name = files.length === 1 ? basename(files[0]!) : `${files.length} files`;
    const { publishId } = await api.shareFiles(files, { name, validityMs, maxViews: 30 });
    const link = shareLink(linkBase() ?? '', publishId);
    deps.copy(link, `Shared: ${name}`);
    await showQr(`Shared: ${name}`, link, 'The link is copied to the clipboard.');
  };

  const newUploadLink = async (api: PierApi) => {
    const limits = deps.host.limits();
    const validityMs = Math.min(limits?.defaultValidity ?? 7 * day, limits?.maxValidity ?? 7 * day);
    const name = newAliasName(new Date());
    const id = await api.createAlias(name, validityMs);
    const link = aliasLink(linkBase() ?? '', id);
    deps.copy(link, name);
    await showQr(name, link, 'Guests open this link (or scan the code) to send you files. The link is copied.');
    await refreshAliases();
  };

  /** The room's QR code: guests scan it and add songs from their phones. */
  const inviteRoom = async (api: PierApi) => {
    const id = await api.openRoom('Party');
    const link = roomLink(linkBase() ?? '', id);
    deps.copy(link, 'Room link');
    await showQr('Invite the room', link, 'Guests scan the code (or open the link) to add songs to what plays. The link is copied.');
  };

  const run = async (action: TrayAction): Promise<void> => {
    const settings = deps.settings.get();
    switch (action.type) {
      case 'open-app':
        return deps.windows.showApp(action.path);
      case 'copy':
        return deps.copy(action.text, 'Link');
      case 'show-setup':
        return deps.windows.showSetup();
      case 'show-qr':
        return showQr(action.title, action.url);
      case 'share-files':
      case 'new-upload-link':
      case 'invite-room': {
        const api = deps.api();
        if (!api) return deps.showError('Pier is not set up', 'Finish the first start first.');
        return action.type === 'share-files' ? shareFiles(api) : action.type === 'invite-room' ? inviteRoom(api) : newUploadLink(api);
      }
      case 'open-received-folder':
        return deps.openPath(settings.receivedFolder);
      case 'open-settings-file':
        return deps.openPath(deps.settingsFile());
      case 'set-lan':
        // the settings' change listener restarts the server
        return deps.settings.replace({ ...settings, lan: action.lan });
      case 'start':
        await deps.host.start(settings);
        return refreshAliases();
      case 'stop':
        await deps.host.stop();
        return refreshAliases();
      case 'quit':
        return deps.quit();
    }
  };

  return {
    state() {
      const s = deps.settings.get();
      return {
        server: deps.host.state(),
        addresses: addresses(s),
        lan: s.lan,
        hasAccount: s.account !== null,
        needsSetup: needsFirstStart(s),
        aliases,
        playerEnabled: s.playerEnabled,
      };
    },
    async dispatch(action) {
      try {
        await run(action);
      } catch (e) {
        deps.showError('Pier', e instanceof Error ? e.message : String(e));
      }
    },
    refreshAliases,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
