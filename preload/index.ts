// Preload script of the app windows: `window.desktop`, methods only, each one IPC
// invoke on a fixed channel. The window is sandboxed, and a sandboxed preload must be
// CommonJS that requires nothing but `electron` (hence preload/package.json and
// type-only local imports); the channel names are checked against DesktopChannels.
//
// `window.desktop` is given to documents of the server's origin only (main/ passes it
// on the command line) and exists on every page there, so the web client can detect
// the desktop app. Its methods work only in a document loaded as the desktop settings
// page, while it still shows it: a script of another page that moves its document
// there with `history.pushState` gets nothing (main/ checks the same on its side).
import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopApi, DesktopChannel, DesktopChannels, DesktopPagePath, EditableSettings } from './desktop-api.js';

/** main/ passes these on the command line, as a sandboxed preload cannot ask `app`. */
const VERSION_ARG = '--pier-version=';
const ORIGIN_ARG = '--pier-origin=';
const DESKTOP_PAGE: DesktopPagePath = '/app/desktop';

const channels: DesktopChannels = {
  getSettings: 'desktop:settings-get',
  setSettings: 'desktop:settings-set',
  pickFolder: 'desktop:pick-folder',
  pickConfigFile: 'desktop:pick-config-file',
  openFolder: 'desktop:open-folder',
  lanAddresses: 'desktop:lan-addresses',
  qrData: 'desktop:qr-data',
};

function argValue(prefix: string): string {
  const arg = process.argv.find((a) => a.startsWith(prefix));
  return arg === undefined ? '' : arg.slice(prefix.length);
}

const serverOrigin = argValue(ORIGIN_ARG);

function isDesktopPage(): boolean {
  const path = location.pathname;
  return serverOrigin !== '' && location.origin === serverOrigin && (path === DESKTOP_PAGE || path === `${DESKTOP_PAGE}/`);
}

/** Where this document was loaded: the preload runs once, before the page's scripts. */
const loadedAsDesktopPage = isDesktopPage();

/** True while this document, loaded as the desktop settings page, still shows it. */
function onDesktopPage(): boolean {
  return loadedAsDesktopPage && isDesktopPage();
}

function invoke<T>(channel: DesktopChannel, ...args: unknown[]): Promise<T> {
  if (!onDesktopPage()) return Promise.reject(new Error('window.desktop works on the desktop settings page only'));
  return ipcRenderer.invoke(channel, ...args) as Promise<T>;
}

const desktop: DesktopApi = {
  isDesktop: true,
  version: argValue(VERSION_ARG),
  getSettings: () => invoke(channels.getSettings),
  setSettings: (patch: Partial<EditableSettings>) => invoke(channels.setSettings, patch),
  pickFolder: () => invoke(channels.pickFolder),
  pickConfigFile: () => invoke(channels.pickConfigFile),
  openFolder: () => invoke(channels.openFolder),
  lanAddresses: () => invoke(channels.lanAddresses),
  qrData: (text: string) => invoke(channels.qrData, text),
};

if (serverOrigin !== '' && location.origin === serverOrigin) contextBridge.exposeInMainWorld('desktop', Object.freeze(desktop));
