// What the server keeps on disk used to follow the process umask: with the usual 022
// the SQLite database (password hashes, share passwords, file chunks) and every
// received file of the file-system store were readable by every local user. They are
// private whatever the umask: the database with its -wal/-shm files and the stored
// files 0600, the folders the store creates 0700.
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_FILE } from '../../../server/config/index.js';
import { newShare, startUploadServer, tusUpload, type UploadServer } from '../uploads/support.js';

const mode = (path: string) => statSync(path).mode & 0o7777;

describe.runIf(process.platform !== 'win32')('files in the data directory', () => {
  let s: UploadServer;
  let umask: number;
  beforeAll(async () => {
    umask = process.umask(0);
    s = await startUploadServer('filesystem');
  });
  afterAll(async () => {
    process.umask(umask);
    await s?.dispose();
  });

  it('the secret, the database and its -wal/-shm files are 0600', async () => {
    await newShare(s, s.token); // a write, so the WAL files exist
    for (const name of [SECRET_FILE, 'pier.db', 'pier.db-wal', 'pier.db-shm']) {
      expect(existsSync(join(s.dataDir, name)), name).toBe(true);
      expect(mode(join(s.dataDir, name)), name).toBe(0o600);
    }
  });

  it('the file-system store creates its folders 0700 and its files 0600', async () => {
    const shareId = await newShare(s, s.token, { name: 'Holiday' });
    await tusUpload(s, s.token, shareId, Buffer.from('private bytes'), { name: 'photo.jpg' });
    expect(mode(s.filesDir)).toBe(0o700);
    expect(mode(join(s.filesDir, 'Holiday'))).toBe(0o700);
    expect(readdirSync(join(s.filesDir, 'Holiday'))).toEqual(['photo.jpg']);
    expect(mode(join(s.filesDir, 'Holiday', 'photo.jpg'))).toBe(0o600);
  });

  it('an existing database that others could read becomes 0600 at the next start', async () => {
    await s.stop();
    chmodSync(join(s.dataDir, 'pier.db'), 0o644);
    const again = await startUploadServer('filesystem', {}, { dataDir: s.dataDir });
    try {
      expect(mode(join(s.dataDir, 'pier.db'))).toBe(0o600);
    } finally {
      await again.stop();
    }
  });
});
