// Preload script of the first-start window: `window.pierSetup`. Sandboxed like
// index.ts: CommonJS, nothing required but `electron`.
import { contextBridge, ipcRenderer } from 'electron';
import type { SetupApi, SetupChannels, SetupInput } from './setup-api.js';

const channels: SetupChannels = {
  defaults: 'setup:defaults',
  pickFolder: 'setup:pick-folder',
  complete: 'setup:complete',
  finish: 'setup:finish',
};

const setup: SetupApi = Object.freeze({
  defaults: () => ipcRenderer.invoke(channels.defaults),
  pickFolder: () => ipcRenderer.invoke(channels.pickFolder),
  complete: (input: SetupInput) => ipcRenderer.invoke(channels.complete, input),
  finish: () => ipcRenderer.invoke(channels.finish),
});

contextBridge.exposeInMainWorld('pierSetup', setup);
