import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomId } from '../../../server/common/ids.js';
import type { BinaryStore } from '../../../server/core/stores/binary-store.js';
import { createFileSystemStore } from '../../../server/core/stores/filesystem.store.js';
import { pieces, readAll, storeContract } from './store-contract.js';

const root = mkdtempSync(join(tmpdir(), 'pier-fs-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const newDir = (): string => join(root, `store-${n++}`);
const make = (directory = newDir(), cleanEmptyDirs = true): Promise<BinaryStore> =>
  createFileSystemStore({ id: 'files', directory, cleanEmptyDirs });

storeContract('file-system', () => make());

const hint = (fileName: string, shareName: string | null = 'Holiday', shareId = randomId()) => ({ shareId, shareName, fileName });

/** Every file below `dir`, as relative paths. */
const tree = (dir: string, prefix = ''): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tree(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );

describe('file-system store: files a person can find', () => {
  it('keeps each file as a plain file named after the share and the file', async () => {
    const dir = newDir();
    const store = await make(dir);
    const fileId = randomId();
    const location = await store.create(fileId, hint('Beach.jpg', 'Holiday photos'));
    expect(location).toBe('Holiday photos/Beach.jpg');
    await store.append({ fileId, location }, 0, pieces(Buffer.from('sunny')), Infinity);
    expect(readFileSync(join(dir, 'Holiday photos', 'Beach.jpg'), 'utf8')).toBe('sunny');
  });

  it('uses the share id as the folder when the share has no name', async () => {
    const store = await make();
    const shareId = randomId();
    expect(await store.create(randomId(), hint('a.txt', null, shareId))).toBe(`${shareId}/a.txt`);
    expect(await store.create(randomId(), hint('b.txt', '   ', shareId))).toBe(`${shareId}/b.txt`);
  });

  it('de-duplicates names within a folder, also when created at the same time', async () => {
    const store = await make();
    expect(await store.create(randomId(), hint('a.txt'))).toBe('Holiday/a.txt');
    expect(await store.create(randomId(), hint('a.txt'))).toBe('Holiday/a (1).txt');
    expect(await store.create(randomId(), hint('a.txt'))).toBe('Holiday/a (2).txt');
    expect(await store.create(randomId(), hint('backup.tar.gz'))).toBe('Holiday/backup.tar.gz');
    expect(await store.create(randomId(), hint('backup.tar.gz'))).toBe('Holiday/backup (1).tar.gz');
    const many = await Promise.all(Array.from({ length: 20 }, () => store.create(randomId(), hint('same.bin'))));
    expect(new Set(many).size).toBe(20);
  });

  it('turns hostile names into safe names inside the directory', async () => {
    const dir = newDir();
    const store = await make(dir);
    const hostile = [
      ['../../escape.txt', '..'],
      ['/etc/passwd', '/tmp'],
      ['..\\..\\win.ini', 'C:\\Windows'],
      ['a\u0000b.txt', 'nul\u0000share'],
      ['CON', 'aux'],
      ['x'.repeat(600), 'y'.repeat(600)],
      ['\u202Efdp.exe', '.'],
      ['..', '.hidden'],
    ];
    for (const [fileName, shareName] of hostile) {
      const fileId = randomId();
      const location = await store.create(fileId, hint(fileName!, shareName!));
      await store.append({ fileId, location }, 0, pieces(Buffer.from('x')), Infinity);
      expect(location.split('/')).toHaveLength(2);
      for (const segment of location.split('/')) {
        // eslint-disable-next-line no-control-regex
        expect(segment).not.toMatch(/^\.|[\\/\u0000-\u001f\u202e]|^(con|aux|nul)$/i);
        expect(Buffer.byteLength(segment)).toBeLessThanOrEqual(210);
      }
    }
    expect(tree(dir)).toHaveLength(hostile.length);
    expect(existsSync(join(dir, '..', 'escape.txt'))).toBe(false);
  });
});

describe('file-system store: locations and links', () => {
  it('refuses locations outside the directory', async () => {
    const store = await make();
    for (const location of ['../x.txt', 'a/../../x.txt', '/etc/passwd', 'C:\\x', '', 'a/./b', 'a\u0000b']) {
      const ref = { fileId: randomId(), location };
      await expect(store.size(ref)).rejects.toThrow(/refuses/);
      await expect(store.append(ref, 0, pieces(Buffer.from('x')), Infinity)).rejects.toThrow(/refuses/);
      await expect(store.delete(ref)).rejects.toThrow(/refuses/);
      await expect(readAll(store.read(ref))).rejects.toThrow(/refuses/);
    }
  });

  it('never writes or reads through a symbolic link', async () => {
    const dir = newDir();
    const outside = join(root, `outside-${n++}`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    const store = await make(dir);

    // a share folder that is a link to somewhere else
    symlinkSync(outside, join(dir, 'Evil'));
    await expect(store.create(randomId(), hint('a.txt', 'Evil'))).rejects.toThrow(/refuses/);
    const viaFolder = { fileId: randomId(), location: 'Evil/secret.txt' };
    await expect(readAll(store.read(viaFolder))).rejects.toThrow(/refuses/);
    await expect(store.openReader!(viaFolder)).rejects.toThrow(/refuses/);
    await expect(store.append(viaFolder, 6, pieces(Buffer.from('!')), Infinity)).rejects.toThrow(/refuses/);
    await expect(store.delete(viaFolder)).rejects.toThrow(/refuses/);

    // a file that is a link
    mkdirSync(join(dir, 'Share'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'Share', 'link.txt'));
    const viaFile = { fileId: randomId(), location: 'Share/link.txt' };
    await expect(store.size(viaFile)).rejects.toThrow(/refuses/);
    await expect(store.append(viaFile, 6, pieces(Buffer.from('!')), Infinity)).rejects.toThrow(/refuses/);
    await expect(readAll(store.read(viaFile))).rejects.toThrow();
    await expect(store.openReader!(viaFile)).rejects.toThrow(/refuses/);
    // a new upload with that name gets another name instead of the link
    expect(await store.create(randomId(), hint('link.txt', 'Share'))).toBe('Share/link (1).txt');

    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('opens only regular files for positioned reads: not a folder, not a named pipe', async () => {
    const dir = newDir();
    const store = await make(dir);
    mkdirSync(join(dir, 'Share', 'folder.txt'), { recursive: true });
    execFileSync('mkfifo', [join(dir, 'Share', 'pipe.txt')]);
    await expect(store.openReader!({ fileId: randomId(), location: 'Share/folder.txt' })).rejects.toThrow(/not a regular file/);
    // without O_NONBLOCK this open would wait for a writer for ever
    await expect(store.openReader!({ fileId: randomId(), location: 'Share/pipe.txt' })).rejects.toThrow(/not a regular file/);
  });

  it('lists plain files only, by location', async () => {
    const dir = newDir();
    const store = await make(dir);
    const a = await store.create(randomId(), hint('a.txt', 'One'));
    const b = await store.create(randomId(), hint('b.txt', 'Two'));
    symlinkSync('/etc/hostname', join(dir, 'One', 'link'));
    const listed: string[] = [];
    for await (const r of store.list()) {
      expect(r.fileId).toBe('');
      listed.push(r.location);
    }
    expect(listed.sort()).toEqual([a, b].sort());
  });
});

describe('file-system store: clean-empty-dirs', () => {
  it('removes a share folder once its last file is deleted', async () => {
    const dir = newDir();
    const store = await make(dir, true);
    const a = { fileId: randomId(), location: '' };
    const b = { fileId: randomId(), location: '' };
    a.location = await store.create(a.fileId, hint('a.txt', 'Gone'));
    b.location = await store.create(b.fileId, hint('b.txt', 'Gone'));
    await store.delete(a);
    expect(existsSync(join(dir, 'Gone'))).toBe(true);
    await store.delete(b);
    expect(existsSync(join(dir, 'Gone'))).toBe(false);
    expect(lstatSync(dir).isDirectory()).toBe(true);
    // and a new file for that share makes the folder again
    expect(await store.create(randomId(), hint('c.txt', 'Gone'))).toBe('Gone/c.txt');
  });

  it('keeps empty folders when switched off', async () => {
    const dir = newDir();
    const store = await make(dir, false);
    const ref = { fileId: randomId(), location: '' };
    ref.location = await store.create(ref.fileId, hint('a.txt', 'Stays'));
    await store.delete(ref);
    expect(existsSync(join(dir, 'Stays', 'a.txt'))).toBe(false);
    expect(readdirSync(join(dir, 'Stays'))).toEqual([]);
  });
});

describe('file-system store: writing while the bytes arrive', () => {
  it('puts each chunk in the file while the rest of the request is still on its way', async () => {
    const dir = newDir();
    const store = await make(dir);
    const ref = { fileId: randomId(), location: '' };
    ref.location = await store.create(ref.fileId, hint('slow.bin', 'Slow'));
    const path = join(dir, ref.location);
    const sizes: number[] = [];
    // a slow client: after each 100 KiB the source waits until that much is in the file (at most 2 s)
    async function* slowClient(): AsyncGenerator<Buffer> {
      for (let i = 1; i <= 3; i++) {
        yield Buffer.alloc(100 * 1024, i);
        const until = Date.now() + 2000;
        while (lstatSync(path).size < i * 100 * 1024 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
        sizes.push(lstatSync(path).size);
      }
    }
    expect(await store.append(ref, 0, slowClient(), Infinity)).toBe(300 * 1024);
    expect(sizes).toEqual([100 * 1024, 200 * 1024, 300 * 1024]);
    const back = readFileSync(path);
    expect([back[0], back[100 * 1024], back[300 * 1024 - 1]]).toEqual([1, 2, 3]);
  });
});
