import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAlbumFile, candidates } from '../../../server/player/covers/album-files.js';
import { PathCache } from '../../../server/player/covers/path-cache.js';
import { resolveInside } from '../../../server/player/files/safe-path.js';

describe('paths inside the music directory', () => {
  let dir: string;
  let music: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pier-files-'));
    music = join(dir, 'music');
    mkdirSync(join(music, 'A/Album/CD2'), { recursive: true });
    mkdirSync(join(music, 'A/Album/Disc 1'), { recursive: true });
    mkdirSync(join(music, 'B/Other/CD1'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'cover.jpg'), 'x');
    writeFileSync(join(music, 'A/Album/CD2/folder.png'), 'x');
    writeFileSync(join(music, 'A/Album/Disc 1/cover.jpg'), 'x');
    writeFileSync(join(music, 'B/Other/cover.png'), 'x');
    writeFileSync(join(music, 'B/Other/CD1/song.flac'), 'x');
    symlinkSync(join(dir, 'outside'), join(music, 'out'));
    symlinkSync(join(dir, 'outside', 'cover.jpg'), join(music, 'A/cover.jpg'));
    symlinkSync(join(music, 'B/Other'), join(music, 'inside-link'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves paths below the root and refuses everything leading out', async () => {
    expect((await resolveInside(music, 'B/Other/CD1/song.flac'))?.path).toBe(join(music, 'B/Other/CD1/song.flac'));
    expect((await resolveInside(music, 'inside-link/cover.png'))?.path).toBe(join(music, 'B/Other/cover.png'));
    for (const bad of ['../outside/cover.jpg', 'A/../../outside', 'out/cover.jpg', 'out', 'A/cover.jpg', 'nope', 'a\0b', '/etc/passwd/..']) {
      expect(await resolveInside(music, bad), bad).toBeUndefined();
    }
    expect((await resolveInside(music, '/B/Other'))?.path).toBe(join(music, 'B/Other'));
  });

  it('looks next to the songs, then in disc folders (by number), then above a disc folder; never through a link out', async () => {
    const names = candidates(['cover', 'folder'], ['jpg', 'png']);
    expect(names.slice(0, 2)).toEqual(['cover.jpg', 'cover.png']);
    expect((await findAlbumFile(music, join(music, 'A/Album'), names))?.path).toBe(join(music, 'A/Album/Disc 1/cover.jpg'));
    expect((await findAlbumFile(music, join(music, 'B/Other/CD1'), names))?.path).toBe(join(music, 'B/Other/cover.png'));
    expect(await findAlbumFile(music, join(music, 'A'), names)).toBeUndefined();
  });

  it('evicts the least recently used entry and expires misses', () => {
    let now = 0;
    const c = new PathCache(2, 1000, () => now);
    c.set('a', { kind: 'file', path: '/a' });
    c.set('b', { kind: 'none' });
    c.get('a');
    c.set('c', { kind: 'file', path: '/c' });
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toEqual({ kind: 'file', path: '/a' });
    c.set('d', { kind: 'none' });
    now = 1001;
    expect(c.get('d')).toBeUndefined();
    expect(c.get('a')).toBeDefined();
    c.clear();
    expect(c.size).toBe(0);
    const off = new PathCache(0);
    off.set('x', { kind: 'none' });
    expect(off.get('x')).toBeUndefined();
  });
});
