/**
 * Shares with files for the share, download and ZIP tests, made through the
 * real upload routes: an empty share (`/sec/upload/new`), files added by
 * multipart (`/sec/upload/{id}/files/add`), publishing through the owner
 * routes.
 */
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { silentLogger } from '../../server/common/log.js';
import { openDatabase } from '../../server/db/connect.js';
import type { Database } from '../../server/db/schema.js';
import type { ShareDetail, ShareFile } from '../../server/core/shares/share.types.js';
import type { Json, TestServer } from './server.js';

export interface FixtureFile {
  name: string;
  content: string | Uint8Array;
  type?: string;
}

export interface ShareProps {
  name?: string | null;
  validity?: number;
  maxViews?: number;
  password?: string | null;
  description?: string | null;
}

/** The API's shapes, as the server defines them. */
export type SharedFile = ShareFile;
export type ShareDetailBody = ShareDetail;

const DAY = 86_400_000;

/** Creates an empty share and returns its id. */
export const createShare = async (s: TestServer, token: string, props: ShareProps = {}): Promise<string> => {
  const res = await s.request<{ success: boolean; message: string; id: string }>(
    'POST',
    '/api/v2/sec/upload/new',
    { validity: DAY, maxViews: 10, ...props },
    { token },
  );
  expect(res.body.success, res.text).toBe(true);
  return res.body.id;
};

/** Adds files to a share by a multipart request. */
export const addFiles = async (s: TestServer, token: string, shareId: string, files: FixtureFile[]): Promise<void> => {
  const form = new FormData();
  for (const f of files) {
    const bytes = typeof f.content === 'string' ? new TextEncoder().encode(f.content) : f.content;
    form.append('file', new Blob([new Uint8Array(bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  }
  const res = await fetch(`${s.url}/api/v2/sec/upload/${shareId}/files/add`, { method: 'POST', headers: { 'Service-Auth': token }, body: form });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect((JSON.parse(text) as { success: boolean }).success, text).toBe(true);
};

export const shareDetail = async (s: TestServer, token: string, shareId: string): Promise<ShareDetailBody> => {
  const res = await s.request<ShareDetailBody>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** Publishes and returns the publish id. */
export const publish = async (s: TestServer, token: string, shareId: string, reuseId = true): Promise<string> => {
  const res = await s.request('POST', `/api/v2/sec/share/${shareId}/publish`, { reuseId }, { token });
  expect(res.body, res.text).toEqual({ success: true, message: 'Share published.', code: 'share.published' });
  const d = await shareDetail(s, token, shareId);
  return d.publishInfo!.id;
};

/** A share with files (in the given order); returns its id and files by name. */
export const shareWithFiles = async (
  s: TestServer,
  token: string,
  files: FixtureFile[],
  props: ShareProps = {},
): Promise<{ id: string; files: Record<string, SharedFile>; list: SharedFile[] }> => {
  const id = await createShare(s, token, props);
  if (files.length) await addFiles(s, token, id, files);
  const d = await shareDetail(s, token, id);
  const byName: Record<string, SharedFile> = {};
  for (const f of d.files) byName[f.filename] ??= f;
  return { id, files: byName, list: d.files };
};

/** Waits until every file of the share has its checksum (computed in the background). */
export const waitForChecksums = async (s: TestServer, token: string, shareId: string, timeoutMs = 10_000): Promise<ShareDetailBody> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const d = await shareDetail(s, token, shareId);
    if (d.files.every((f) => f.checksum)) return d;
    if (Date.now() > until) throw new Error(`checksums not computed: ${JSON.stringify(d.files)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * Changes stored rows behind the server's back, through a second database
 * connection: names the upload routes would clean (`../x`, quotes, control
 * characters) can still be in a database written by older versions or other
 * tools, and the download and ZIP code must cope with them.
 */
export const withDatabase = async <T>(s: TestServer, fn: (db: Kysely<Database>) => Promise<T>): Promise<T> => {
  const db = await openDatabase(s.config.backend.jdbc, silentLogger);
  try {
    return await fn(db.db);
  } finally {
    await db.close();
  }
};

export const renameStoredFile = (s: TestServer, shareFileId: string, filename: string): Promise<void> =>
  withDatabase(s, async (db) => {
    const res = await db.updateTable('share_files').set({ filename }).where('id', '=', shareFileId).executeTakeFirst();
    expect(Number(res.numUpdatedRows)).toBe(1);
  });

/** Raw fetch of an API path (for byte responses that `request` would read as text). */
export const fetchRaw = (s: TestServer, path: string, init: { method?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> =>
  fetch(s.url + path, { redirect: 'manual', ...init });

export type { Json };
