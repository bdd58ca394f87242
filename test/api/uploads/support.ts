/**
 * Helpers of the upload API tests: a server on the database or the
 * file-system store, tus uploads with tus-js-client, multipart requests,
 * raw tus requests, and a look into the SQLite file for what the API does
 * not show (reservations, rows left behind).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as tus from 'tus-js-client';
import { startServer, type Json, type TestServer } from '../../support/server.js';

export type StoreKind = 'database' | 'filesystem';

export interface UploadServer extends TestServer {
  kind: StoreKind;
  token: string;
  /** the file-system store's directory */
  filesDir: string;
  /** runs `fn` on the SQLite file */
  sql<T>(fn: (db: Database.Database) => T): T;
  /** stops the server and removes the data directory */
  dispose(): Promise<void>;
}

export const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

export const randomBytesOf = (n: number, seed = 1): Buffer => {
  const b = Buffer.alloc(n);
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >> 16;
  }
  return b;
};

export const storeConfig = (kind: StoreKind, dataDir: string): Json => ({
  files: {
    'default-store': kind,
    stores: {
      database: { enabled: true, type: 'default-database' },
      filesystem: { enabled: kind === 'filesystem', type: 'file-system', directory: join(dataDir, 'files') },
    },
  },
});

/** A server on `kind` with `backend` settings merged in (HOCON key names). */
export const startUploadServer = async (
  kind: StoreKind,
  backend: Json = {},
  opts: { dataDir?: string; config?: Json } = {},
): Promise<UploadServer> => {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'pier-uploads-'));
  const s = await startServer({
    dataDir,
    config: { backend: { ...storeConfig(kind, dataDir), ...backend }, ...opts.config },
  });
  const token = await s.login('admin', 'admin-test-password');
  return {
    ...s,
    kind,
    token,
    filesDir: join(dataDir, 'files'),
    sql: (fn) => {
      const db = new Database(join(dataDir, 'pier.db'));
      try {
        db.pragma('busy_timeout = 5000');
        return fn(db);
      } finally {
        db.close();
      }
    },
    dispose: async () => {
      await s.stop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** A new empty share of the caller (`/sec/upload/new`). */
export const newShare = async (s: TestServer, token: string, props: Json = {}): Promise<string> => {
  const r = await s.request<{ success: boolean; id: string }>('POST', '/api/v2/sec/upload/new', { validity: 3600_000, maxViews: 10, ...props }, { token });
  if (r.status !== 200 || !r.body.success) throw new Error(`share creation failed: ${r.text}`);
  return r.body.id;
};

export const tusEndpoint = (s: TestServer, shareId: string): string => `${s.url}/api/v2/sec/upload/${shareId}/files/tus`;

/** Uploads `data` with tus-js-client; resolves with the upload URL. */
export const tusUpload = (
  s: TestServer,
  token: string,
  shareId: string,
  data: Buffer,
  opts: { chunkSize?: number; name?: string; type?: string; headers?: Record<string, string> } = {},
): Promise<string> =>
  new Promise((resolve, reject) => {
    const upload = new tus.Upload(data, {
      endpoint: tusEndpoint(s, shareId),
      chunkSize: opts.chunkSize ?? 1024 * 1024,
      retryDelays: [],
      headers: { 'Service-Auth': token, ...opts.headers },
      metadata: { filename: opts.name ?? 'data.bin', filetype: opts.type ?? 'application/octet-stream' },
      onError: reject,
      onSuccess: () => resolve(upload.url!),
    });
    upload.start();
  });

/** The share-file id at the end of a tus upload URL. */
export const fileIdOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

/** A raw request (no OpenAPI check: tus answers are text). */
export const raw = (s: TestServer, method: string, path: string, headers: Record<string, string>, body?: Uint8Array | FormData | string) =>
  fetch(s.url + path, { method, headers, body: body as BodyInit | undefined });

/** The bytes of a file through the owner download route. */
export const download = async (s: TestServer, token: string, shareId: string, fid: string): Promise<Buffer> => {
  const r = await fetch(`${s.url}/api/v2/sec/share/${shareId}/file/${fid}`, { headers: { 'Service-Auth': token } });
  if (r.status !== 200) throw new Error(`download answered ${r.status}: ${await r.text()}`);
  return Buffer.from(await r.arrayBuffer());
};

export interface FileRow {
  id: string;
  share_id: string;
  file_id: string;
  filename: string;
  real_size: number;
  length: number;
  checksum: string;
  mimetype: string;
  location: string;
  store: string;
}

export const fileRows = (s: UploadServer, shareId?: string): FileRow[] =>
  s.sql((db) =>
    db
      .prepare(
        `select sf.id, sf.share_id, sf.file_id, sf.filename, sf.real_size, fm.length, fm.checksum, fm.mimetype, fm.location, fm.store
         from share_files sf join file_meta fm on fm.file_id = sf.file_id ${shareId ? 'where sf.share_id = ?' : ''}`,
      )
      .all(...(shareId ? [shareId] : [])) as FileRow[],
  );

export const count = (s: UploadServer, table: string): number =>
  s.sql((db) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);

/** Regular files below a directory (empty folders do not count). */
export const filesBelow = (dir: string): string[] => {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  for (const e of entries) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out = out.concat(filesBelow(p));
    else out.push(p);
  }
  return out;
};

/** Binaries left in the store: chunk rows or plain files. */
export const storedBinaries = (s: UploadServer): number =>
  s.kind === 'database' ? s.sql((db) => (db.prepare('select count(distinct file_id) as n from file_chunks').get() as { n: number }).n) : filesBelow(s.filesDir).length;

export { eventually } from '../../support/system.js';

/** A multipart body with a `meta` part (when given) and file parts. */
export const form = (meta: Json | undefined, files: { name: string; data: Uint8Array; type?: string; field?: string }[]): FormData => {
  const fd = new FormData();
  if (meta) fd.append('meta', JSON.stringify(meta));
  for (const f of files) fd.append(f.field ?? 'file', new Blob([f.data as unknown as BlobPart], { type: f.type ?? 'application/octet-stream' }), f.name);
  return fd;
};
