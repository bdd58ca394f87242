import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  ALL_CHANNELS,
  DESKTOP_CHANNELS,
  isTrustedSender,
  noArgs,
  oneArg,
  originRule,
  pageRule,
  registerIpc,
  SETUP_CHANNELS,
  type ChannelHandler,
} from '../../../main/ipc.js';
import { FakeIpcMain } from '../../support/fake-electron.js';

const ORIGIN = 'http://127.0.0.1:9090';
const SETUP = 'file:///opt/Pier/resources/app.asar/resources/setup/index.html';
const appIds = new Set([7]);
const setupIds = new Set([9]);
const appRule = originRule(() => appIds, () => ORIGIN);
const setupRule = pageRule(() => setupIds, SETUP);
const ev = (id: number, url: string, parent: unknown = null) => ({ sender: { id }, senderFrame: { url, parent } });

describe('IPC sender checks', () => {
  it('accept the top frame of one of Pier’s windows on the server’s origin', () => {
    expect(isTrustedSender(ev(7, `${ORIGIN}/app/desktop`), appRule)).toBe(true);
  });

  it('refuse other origins, other windows, subframes and gone frames', () => {
    expect(isTrustedSender(ev(7, 'http://127.0.0.1:9091/app'), appRule)).toBe(false);
    expect(isTrustedSender(ev(7, 'http://localhost:9090/app'), appRule)).toBe(false);
    expect(isTrustedSender(ev(7, 'https://evil.example/app'), appRule)).toBe(false);
    expect(isTrustedSender(ev(8, `${ORIGIN}/app`), appRule)).toBe(false);
    expect(isTrustedSender(ev(7, `${ORIGIN}/app`, {}), appRule)).toBe(false);
    expect(isTrustedSender({ sender: { id: 7 }, senderFrame: null }, appRule)).toBe(false);
    expect(isTrustedSender(ev(7, 'not a url'), appRule)).toBe(false);
    // a stopped server has no origin: nothing is accepted
    expect(isTrustedSender(ev(7, `${ORIGIN}/app`), originRule(() => appIds, () => null))).toBe(false);
  });

  it('the first-start channels answer only the first-start page in the first-start window', () => {
    expect(isTrustedSender(ev(9, SETUP), setupRule)).toBe(true);
    expect(isTrustedSender(ev(9, `${SETUP}#x`), setupRule)).toBe(true);
    expect(isTrustedSender(ev(9, 'file:///tmp/evil.html'), setupRule)).toBe(false);
    expect(isTrustedSender(ev(7, SETUP), setupRule)).toBe(false);
    expect(isTrustedSender(ev(9, `${ORIGIN}/app`), setupRule)).toBe(false);
  });
});

describe('IPC channels', () => {
  const handler = (run: (...a: unknown[]) => unknown, check = noArgs, rule = appRule): ChannelHandler => ({ rule, check, run });

  it('run the handler for a trusted sender with valid arguments', async () => {
    const ipc = new FakeIpcMain();
    registerIpc(ipc, {
      [DESKTOP_CHANNELS.getSettings]: handler(() => ({ port: 1 })),
      [DESKTOP_CHANNELS.qrData]: handler((t) => `qr:${t as string}`, oneArg('string')),
    });
    expect(await ipc.invoke('desktop:settings-get', { id: 7, url: `${ORIGIN}/app/desktop` })).toEqual({ port: 1 });
    expect(await ipc.invoke('desktop:qr-data', { id: 7, url: `${ORIGIN}/app` }, 'hi')).toBe('qr:hi');
  });

  it('reject untrusted senders and wrong arguments without running the handler', async () => {
    const ipc = new FakeIpcMain();
    let runs = 0;
    const refused: string[] = [];
    registerIpc(
      ipc,
      {
        [DESKTOP_CHANNELS.setSettings]: handler(() => runs++, oneArg('object')),
        [DESKTOP_CHANNELS.openFolder]: handler(() => runs++),
      },
      (m) => refused.push(m),
    );
    await expect(ipc.invoke('desktop:settings-set', { id: 8, url: `${ORIGIN}/app` }, {})).rejects.toThrow('Not allowed');
    await expect(ipc.invoke('desktop:settings-set', { id: 7, url: 'https://evil.example/' }, {})).rejects.toThrow('Not allowed');
    await expect(ipc.invoke('desktop:settings-set', { id: 7, url: `${ORIGIN}/app` }, 'port=1')).rejects.toThrow('takes one object');
    await expect(ipc.invoke('desktop:settings-set', { id: 7, url: `${ORIGIN}/app` }, [1])).rejects.toThrow('takes one object');
    await expect(ipc.invoke('desktop:settings-set', { id: 7, url: `${ORIGIN}/app` }, {}, {})).rejects.toThrow('takes one argument');
    await expect(ipc.invoke('desktop:open-folder', { id: 7, url: `${ORIGIN}/app` }, '/etc')).rejects.toThrow('takes no arguments');
    await expect(ipc.invoke('desktop:shell-exec', { id: 7, url: `${ORIGIN}/app` })).rejects.toThrow('No handler');
    expect(runs).toBe(0);
    expect(refused).toHaveLength(2);
  });

  it('only channels of the closed list can be registered, and can be removed again', () => {
    const ipc = new FakeIpcMain();
    expect(() => registerIpc(ipc, { ['desktop:anything' as 'desktop:qr-data']: handler(() => 1) })).toThrow('Unknown IPC channel');
    const remove = registerIpc(ipc, { [SETUP_CHANNELS.finish]: handler(() => 1, noArgs, setupRule) });
    expect([...ipc.handlers.keys()]).toEqual(['setup:finish']);
    remove();
    expect(ipc.handlers.size).toBe(0);
  });
});

/** Runs a preload script as a sandboxed preload runs: CommonJS, with only `electron` to require. */
const runPreload = (file: string) => {
  const source = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exposed: Record<string, Record<string, unknown>> = {};
  const invoked: unknown[][] = [];
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => (exposed[key] = api) },
    ipcRenderer: { invoke: async (...args: unknown[]) => void invoked.push(args) },
  };
  const module = { exports: {} };
  runInNewContext(source, {
    module,
    exports: module.exports,
    process: { argv: ['electron', '--pier-version=1.2.3', '--pier-origin=http://127.0.0.1:9090'] },
    location: new URL('http://127.0.0.1:9090/app/desktop'),
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return electron;
    },
  });
  return { exposed, invoked, required };
};

describe('preload scripts', () => {
  it('window.desktop: methods only, each invoking its channel of the closed list; nothing but electron required', async () => {
    const { exposed, invoked, required } = runPreload('preload/index.ts');
    expect(required).toEqual(['electron']);
    const desktop = exposed['desktop']!;
    expect(Object.isFrozen(desktop)).toBe(true);
    expect(desktop['isDesktop']).toBe(true);
    expect(desktop['version']).toBe('1.2.3');
    const methods = Object.keys(desktop).filter((k) => typeof desktop[k] === 'function');
    expect(methods.sort()).toEqual(Object.keys(DESKTOP_CHANNELS).sort());
    for (const m of methods) await (desktop[m] as (...a: unknown[]) => Promise<unknown>)('arg');
    const used = invoked.map((c) => c[0]);
    expect(used.sort()).toEqual(Object.values(DESKTOP_CHANNELS).sort());
    expect(invoked.find((c) => c[0] === 'desktop:get-settings' || c[0] === DESKTOP_CHANNELS.getSettings)).toEqual([DESKTOP_CHANNELS.getSettings]);
    expect(invoked.find((c) => c[0] === DESKTOP_CHANNELS.qrData)).toEqual([DESKTOP_CHANNELS.qrData, 'arg']);
  });

  it('window.pierSetup invokes the first-start channels', async () => {
    const { exposed, invoked, required } = runPreload('preload/setup.ts');
    expect(required).toEqual(['electron']);
    for (const f of Object.values(exposed['pierSetup']!)) await (f as () => Promise<unknown>)();
    expect(invoked.map((c) => c[0]).sort()).toEqual(Object.values(SETUP_CHANNELS).sort());
    expect(ALL_CHANNELS).toHaveLength(Object.keys(DESKTOP_CHANNELS).length + Object.keys(SETUP_CHANNELS).length);
  });
});
