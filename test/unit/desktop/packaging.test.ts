import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, type Stats } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { FileMatcher } from 'app-builder-lib/out/fileMatcher.js';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_ID } from '../../../main/app-identity.js';
import { productionPackageDirs } from '../../../scripts/production-deps.mjs';

type Config = Record<string, unknown> & Record<'linux' | 'win' | 'mac' | 'nsis' | 'electronFuses', Record<string, unknown>>;

const root = resolve('.');
const cfg = parse(readFileSync('electron-builder.yml', 'utf8')) as Config;

/** electron-builder's own schema of its configuration, checked as electron-builder checks it (ajv, draft-07). */
const schemaErrors = (config: unknown): string[] => {
  const schema = JSON.parse(readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as object;
  // `strict: false`: the schema uses electron-builder's own `typeof` keyword (for functions)
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  return validate(config) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
};

const files = function* (dir: string): Generator<[string, Stats]> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      // a nested package is visited as a package of its own when it is a dependency
      if (name !== 'node_modules') yield* files(path);
    } else if (stat.isFile()) yield [path, stat];
  }
};

/**
 * Whether the file is native code the system loads from a path: an ELF executable or shared
 * object, a Mach-O executable, dylib or bundle (thin or universal), a PE executable or DLL,
 * or a Node addon. Object files (ELF relocatable) and static archives are linked at build
 * time only.
 */
const isNativeCode = (path: string): boolean => {
  if (path.endsWith('.node')) return true;
  const head = Buffer.alloc(64);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (n < 20) return false;
  if (head.readUInt32BE(0) === 0x7f454c46) {
    const type = head[5] === 1 ? head.readUInt16LE(16) : head.readUInt16BE(16);
    return type === 2 || type === 3; // ET_EXEC, ET_DYN
  }
  const magicLE = head.readUInt32LE(0);
  if (magicLE === 0xfeedface || magicLE === 0xfeedfacf) return [2, 6, 8].includes(head.readUInt32LE(12)); // MH_EXECUTE, MH_DYLIB, MH_BUNDLE
  // universal binary; a Java class file shares the magic, with a version number (≥ 45) where the architecture count is
  if (head.readUInt32BE(0) === 0xcafebabe) return head.readUInt32BE(4) > 0 && head.readUInt32BE(4) < 20;
  if (head[0] === 0x4d && head[1] === 0x5a && n >= 0x40) {
    const pe = head.readUInt32LE(0x3c);
    if (pe > 4096) return false;
    const sig = Buffer.alloc(4);
    const fd2 = openSync(path, 'r');
    try {
      readSync(fd2, sig, 0, 4, pe);
    } finally {
      closeSync(fd2);
    }
    return sig.equals(Buffer.from('PE\0\0', 'binary'));
  }
  return false;
};

/** The PNG's size and whether every pixel is black, transparency apart. */
const blackWithAlpha = async (file: string): Promise<{ width: number; height: number; black: boolean; hasAlpha: boolean }> => {
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let black = true;
  let visible = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3]! > 0) visible++;
    if (data[i + 3]! > 0 && (data[i]! > 0 || data[i + 1]! > 0 || data[i + 2]! > 0)) black = false;
  }
  return { width: info.width, height: info.height, black: black && visible > 0, hasAlpha: visible < data.length / 4 };
};

/** The sizes in an .ico file's directory. */
const icoSizes = (file: string): number[] => {
  const ico = readFileSync(file);
  if (ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) throw new Error(`${file} is not an icon file`);
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + i * 16] || 256);
};

describe('electron-builder.yml', () => {
  it("is valid against electron-builder's own schema, which refuses a misspelt key", () => {
    expect(schemaErrors(cfg)).toEqual([]);
    expect(schemaErrors({ ...cfg, electronFuses: { ...cfg.electronFuses, runAsnode: false } })).not.toEqual([]);
  });

  it('builds Linux AppImage and deb, Windows nsis and macOS dmg with the app id and icons from resources/', () => {
    expect(cfg['appId']).toBe('app.pier.desktop');
    expect(cfg.linux['target']).toEqual(['AppImage', 'deb']);
    expect(cfg.win['target']).toEqual(['nsis']);
    expect(cfg.mac['target']).toEqual(['dmg']);
    for (const os of ['linux', 'win', 'mac'] as const) expect(existsSync(String(cfg[os]['icon']))).toBe(true);
  });

  it('rebuilds native modules for Electron, packs what the app loads at run time, and no build made for the development start', () => {
    expect(cfg['npmRebuild']).toBe(true);
    expect(cfg['files']).toEqual(expect.arrayContaining(['dist/**/*', 'resources/**/*']));
    expect(cfg['files']).not.toEqual(expect.arrayContaining([expect.stringContaining('.electron-native')]));
    for (const f of ['resources/tray.png', 'resources/icon.png', 'resources/setup/index.html', 'resources/setup/setup.js']) expect(existsSync(f)).toBe(true);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/main/index.js');
  });

  // libvips (libvips-cpp.so.8.x in @img/sharp-libvips-linux-x64) stayed packed in app.asar:
  // only `*.node` was unpacked, and electron-builder's own detection of native code knows
  // libraries by their last extension (`.so`, not `.so.8.18.7`). The system cannot load a
  // library from inside the archive, so sharp failed in the packaged app.
  it('unpacks every executable, shared library and Node addon of the production dependencies, matched as electron-builder matches asarUnpack', () => {
    const unpack = new FileMatcher(root, root, (pattern) => pattern, cfg['asarUnpack'] as string[]).createFilter();
    const native: string[] = [];
    const packed: string[] = [];
    for (const dir of productionPackageDirs(root)) {
      for (const [path, stat] of files(dir)) {
        if (!isNativeCode(path)) continue;
        native.push(relative(root, path));
        if (!unpack(path, stat)) packed.push(relative(root, path));
      }
    }
    expect(packed).toEqual([]);
    // the check saw the libraries it is about
    expect(native).toEqual(
      expect.arrayContaining([expect.stringMatching(/^node_modules\/better-sqlite3\/.*\.node$/), expect.stringMatching(/^node_modules\/@img\/sharp-libvips-[^/]+\/lib\/libvips-cpp\./)]),
    );
  });

  it('unpacks all of sharp and its @img packages, as sharp asks', () => {
    expect(cfg['asarUnpack']).toEqual(expect.arrayContaining(['node_modules/sharp/**/*', 'node_modules/@img/**/*']));
  });

  it("sets Electron's fuses: no running as Node, no NODE_OPTIONS, no inspector arguments, the app only from its checked archive", () => {
    expect(cfg.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    expect(cfg['asar']).not.toBe(false);
  });

  it('signs the dmg ad hoc, without the hardened runtime that would refuse Electron’s own signed frameworks, and says why Pier uses the local network', () => {
    expect(cfg.mac['identity']).toBe('-');
    expect(cfg.mac['hardenedRuntime']).toBe(false);
    const info = cfg.mac['extendInfo'] as Record<string, unknown>;
    expect(info['NSLocalNetworkUsageDescription']).toEqual(expect.stringMatching(/local network/));
  });

  it('has a macOS tray template image: black with alpha, 16 px and 32 px for Retina', async () => {
    expect(await blackWithAlpha('resources/trayTemplate.png')).toEqual({ width: 16, height: 16, black: true, hasAlpha: true });
    expect(await blackWithAlpha('resources/trayTemplate@2x.png')).toEqual({ width: 32, height: 32, black: true, hasAlpha: true });
  });

  it('has a Windows tray icon with 16, 24 and 32 px images', () => {
    expect(icoSizes('resources/tray.ico').sort((a, b) => a - b)).toEqual([16, 24, 32]);
  });

  it('adds a Windows firewall rule for private networks on install, for Pier’s executable, and removes it on uninstall', () => {
    const include = String(cfg.nsis['include']);
    expect(cfg['directories']).toMatchObject({ buildResources: 'resources' });
    const nsh = readFileSync(include, 'utf8');
    const macro = (name: string) => new RegExp(`!macro ${name}\\b([\\s\\S]*?)!macroend`).exec(nsh)?.[1] ?? '';
    expect(macro('customInstall')).toMatch(/netsh\.exe" advfirewall firewall add rule name="Pier" dir=in action=allow program="\$INSTDIR\\\$\{APP_EXECUTABLE_FILENAME\}" enable=yes profile=private protocol=TCP/);
    expect(macro('customUnInstall')).toMatch(/netsh\.exe" advfirewall firewall delete rule name="Pier" program="\$INSTDIR\\\$\{APP_EXECUTABLE_FILENAME\}"/);
    // by its full path: a bare name is looked up in the installer's folder first
    for (const line of nsh.split('\n').filter((l) => l.includes('ExecToLog'))) expect(line).toContain('"$SYSDIR\\netsh.exe"');
  });

  it('gives the installer the app user model id that the app sets for itself', () => {
    expect(cfg['appId']).toBe(APP_ID);
  });
});
