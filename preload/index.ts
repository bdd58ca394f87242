// Preload script of the app windows: `window.desktop`, methods only, each one IPC
// invoke on a fixed channel. The window is sandboxed, and a sandboxed preload must be
// CommonJS that requires nothing but `electron` (hence preload/package.json and
// type-only local imports); the channel names are checked against DesktopChannels.
import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopApi, DesktopChannels, EditableSettings } from './desktop-api.js';

/** main/ passes the version on the command line, as a sandboxed preload cannot ask `app`. */
const VERSION_ARG = '--pier-version=';

const channels: DesktopChannels = {
  getSettings: 'desktop:settings-get',
  setSettings: 'desktop:settings-set',
  pickFolder: 'desktop:pick-folder',
  openFolder: 'desktop:open-folder',
  lanAddresses: 'desktop:lan-addresses',
  qrData: 'desktop:qr-data',
};

function argValue(prefix: string): string {
  const arg = process.argv.find((a) => a.startsWith(prefix));
  return arg === undefined ? '' : arg.slice(prefix.length);
}

const desktop: DesktopApi = Object.freeze({
  isDesktop: true,
  version: argValue(VERSION_ARG),
  getSettings: () => ipcRenderer.invoke(channels.getSettings),
  setSettings: (patch: Partial<EditableSettings>) => ipcRenderer.invoke(channels.setSettings, patch),
  pickFolder: () => ipcRenderer.invoke(channels.pickFolder),
  openFolder: () => ipcRenderer.invoke(channels.openFolder),
  lanAddresses: () => ipcRenderer.invoke(channels.lanAddresses),
  qrData: (text: string) => ipcRenderer.invoke(channels.qrData, text),
} as const);

contextBridge.exposeInMainWorld('desktop', desktop);
