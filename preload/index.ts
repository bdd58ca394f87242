// Preload script of the desktop window. The window is sandboxed, and a sandboxed
// preload must be CommonJS that requires nothing but `electron` (Electron does not
// support ES modules there), hence preload/package.json and type-only local imports.
import { contextBridge } from 'electron';
import type { DesktopApi } from './desktop-api.js';

/** main/ passes the version on the command line, as a sandboxed preload cannot ask `app`. */
const VERSION_ARG = '--pier-version=';

function argValue(prefix: string): string {
  const arg = process.argv.find((a) => a.startsWith(prefix));
  return arg === undefined ? '' : arg.slice(prefix.length);
}

const desktop: DesktopApi = Object.freeze({
  isDesktop: true,
  version: argValue(VERSION_ARG),
});

contextBridge.exposeInMainWorld('desktop', desktop);
