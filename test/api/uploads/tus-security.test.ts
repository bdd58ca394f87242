/**
 * tus requests against other people's files, and creation headers that used
 * to end in a 500.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChecksumQueue } from '../../../server/core/checksums/checksum.queue.js';
import { systemClock } from '../../../server/common/clock.js';
import { silentLogger } from '../../../server/common/log.js';
import type { PendingUploads } from '../../../server/core/uploads/pending-uploads.js';
import { createTusUploads } from '../../../server/core/uploads/tus-uploads.js';
import { createStoreRegistry } from '../../../server/core/stores/registry.js';
import { PierDataStore, uploadKey } from '../../../server/http/tus/pier-datastore.js';
import { withDatabase } from '../../support/share-fixtures.js';
import { createAlias, createUser, guest, guestShare, type User } from '../aliases/support.js';
import { fileIdOf, fileRows, newShare, raw, sha256, startUploadServer, type FileRow, type StoreKind, type UploadServer } from './support.js';

const SEC = '/api/v2/sec/upload';
const ALIAS = '/api/v2/alias/upload';
const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A file somebody else owns, as the attacker knows it: its id and its share. */
interface Victim {
  what: string;
  share: string;
  id: string;
  /** stored offset, so that a PATCH aimed at it would be accepted */
  offset: number;
}

/** Where the attacker legitimately stands: a share (and files) the access check lets through. */
interface Standpoint {
  who: string;
  prefix: string;
  share: string;
  headers: Record<string, string>;
}

/** The attacker's own upload: its length and offset differ from every victim's. */
const OWN_LENGTH = 77;
const OWN_OFFSET = 7;

describe.each<StoreKind>(['database', 'filesystem'])('tus on the %s store acts only on the file id that passed the access check', (kind) => {
  let s: UploadServer;
  let mallory: User;
  const victims: Record<string, Victim> = {};
  let asUser: Standpoint;
  let asGuest: Standpoint;

  /** Creates a file of `length` with `sent` bytes already stored; returns its id. */
  const createFile = async (at: Pick<Standpoint, 'prefix' | 'headers'>, share: string, length: number, sent: number): Promise<string> => {
    const body = Buffer.alloc(sent, 0x61 + (length % 26));
    const r = await raw(
      s,
      'POST',
      `${at.prefix}/${share}/files/tus`,
      {
        ...at.headers,
        ...TUS,
        'Upload-Length': String(length),
        'Upload-Metadata': `filename ${b64('f.bin')}`,
        ...(sent > 0 ? { 'Content-Type': 'application/offset+octet-stream' } : {}),
      },
      sent > 0 ? body : undefined,
    );
    expect(r.status, await r.text()).toBe(201);
    return fileIdOf(r.headers.get('location')!);
  };

  const bytesOf = (row: FileRow): string => {
    if (kind === 'database') {
      const chunks = s.sql((db) => db.prepare('SELECT chunk_data FROM file_chunks WHERE file_id = ? ORDER BY chunk_nr').all(row.file_id) as { chunk_data: Buffer }[]);
      return sha256(Buffer.concat(chunks.map((c) => c.chunk_data)));
    }
    return sha256(readFileSync(join(s.filesDir, row.location)));
  };

  /** The victim's rows and bytes, to compare before and after an attack. */
  const snapshot = (v: Victim): { row: FileRow | undefined; bytes: string | undefined } => {
    const row = fileRows(s).find((r) => r.id === v.id);
    return { row, bytes: row && bytesOf(row) };
  };

  beforeAll(async () => {
    s = await startUploadServer(kind);
    mallory = await createUser(s, 'mallory');
    const admin = { prefix: SEC, headers: { 'Service-Auth': s.token } };
    const adminShare = await newShare(s, s.token);
    victims['complete'] = { what: "another user's complete file", share: adminShare, id: await createFile(admin, adminShare, 21, 21), offset: 21 };
    victims['partial'] = { what: "another user's unfinished upload", share: adminShare, id: await createFile(admin, adminShare, 100, 10), offset: 10 };

    const malloryAt = { prefix: SEC, headers: { 'Service-Auth': mallory.token } };
    const ownShare = await newShare(s, mallory.token);
    const otherShare = await newShare(s, mallory.token);
    victims['sibling'] = { what: 'a file in another share of the same user', share: otherShare, id: await createFile(malloryAt, otherShare, 40, 4), offset: 4 };
    asUser = { who: 'a user', prefix: SEC, share: ownShare, headers: malloryAt.headers };

    const adminUser = { id: '', login: 'admin', token: s.token };
    const alias = await createAlias(s, adminUser);
    const otherAlias = await createAlias(s, adminUser);
    const guestShareId = await guestShare(s, alias);
    const otherGuestShare = await guestShare(s, otherAlias);
    const otherGuest = { prefix: ALIAS, headers: guest(otherAlias) };
    victims['alias'] = { what: 'a file of a share reached through another alias', share: otherGuestShare, id: await createFile(otherGuest, otherGuestShare, 60, 6), offset: 6 };
    asGuest = { who: 'a guest', prefix: ALIAS, share: guestShareId, headers: guest(alias) };
  });
  afterAll(async () => s?.dispose());

  const methods = ['HEAD', 'PATCH', 'DELETE'] as const;

  const send = (at: Standpoint, method: string, path: string, victim: Victim, override?: string) =>
    raw(
      s,
      method,
      path,
      {
        ...at.headers,
        ...TUS,
        'Upload-Offset': String(victim.offset),
        'Content-Type': 'application/offset+octet-stream',
        ...(override ? { 'X-HTTP-Method-Override': override } : {}),
      },
      method === 'HEAD' || method === 'DELETE' ? undefined : 'zz',
    );

  /**
   * Every way of naming `victim` from `at` with the attacker's own upload
   * `own`: acting on `own` (the checked id), or refused with `status`.
   */
  const tricks = (at: Standpoint, own: string, v: Victim): { trick: string; path: string; actsOnOwn: boolean; status?: number }[] => [
    { trick: 'the id after a ? in the query', path: `${at.prefix}/${at.share}/files/tus/${own}?/${v.id}`, actsOnOwn: true },
    { trick: 'the id after a query parameter', path: `${at.prefix}/${at.share}/files/tus/${own}?x=/${v.id}`, actsOnOwn: true },
    // a file id with a slash is no id: a malformed path
    { trick: 'own id, %2F, victim id', path: `${at.prefix}/${at.share}/files/tus/${own}%2F${v.id}`, actsOnOwn: false, status: 400 },
    { trick: '%2F before the victim id', path: `${at.prefix}/${at.share}/files/tus/%2F${v.id}`, actsOnOwn: false, status: 400 },
    { trick: 'the victim id under the checked share', path: `${at.prefix}/${at.share}/files/tus/${v.id}`, actsOnOwn: false },
    // the sibling share is the user's own: naming it in the path is a legitimate request
    ...(v.share === at.share || (at === asUser && v === victims['sibling'])
      ? []
      : [{ trick: "the victim's own share", path: `${at.prefix}/${v.share}/files/tus/${v.id}`, actsOnOwn: false }]),
  ];

  const cases = (): [Standpoint, Victim][] => [
    ...['complete', 'partial', 'sibling', 'alias'].map((k): [Standpoint, Victim] => [asUser, victims[k]!]),
    ...['complete', 'partial', 'alias'].map((k): [Standpoint, Victim] => [asGuest, victims[k]!]),
  ];

  // @tus/server took the file id from the last segment of the whole URL, query
  // included, while the access check used the route's id: `DELETE
  // .../files/tus/<own id>?/<any id>` removed another user's file (rows and
  // bytes) and HEAD revealed its size.
  it('HEAD, PATCH and DELETE never reach a file named anywhere but the checked route', async () => {
    for (const [at, victim] of cases()) {
      for (const method of methods) {
        const own = await createFile(at, at.share, OWN_LENGTH, OWN_OFFSET);
        for (const t of tricks(at, own, victim)) {
          const label = `${at.who}, ${method}, ${t.trick}, ${victim.what}`;
          const before = snapshot(victim);
          expect(before.row, label).toBeDefined();
          const ownExists = fileRows(s).some((r) => r.id === own);
          const r = await send(at, method, t.path, victim);
          await r.arrayBuffer();
          expect(snapshot(victim), label).toEqual(before);
          if (!t.actsOnOwn || !ownExists) {
            expect(r.status, label).toBe(t.status ?? 404);
            continue;
          }
          // the request acted on the attacker's own upload, the one that was checked
          if (method === 'HEAD') {
            expect(r.status, label).toBe(200);
            expect(r.headers.get('upload-length'), label).toBe(String(OWN_LENGTH));
            expect(r.headers.get('upload-offset'), label).toBe(String(OWN_OFFSET));
          } else if (method === 'PATCH') {
            expect(r.status, label).toBe(409);
          } else {
            expect(r.status, label).toBe(204);
            expect(fileRows(s).some((x) => x.id === own), label).toBe(false);
          }
        }
      }
    }
  });

  // A POST that asks to be taken as HEAD, PATCH or DELETE is held to the same
  // rule: the id in its query is never the one acted on.
  it('a POST with X-HTTP-Method-Override never reaches a file named in the query', async () => {
    for (const [at, victim] of cases()) {
      const own = await createFile(at, at.share, OWN_LENGTH, OWN_OFFSET);
      for (const override of methods) {
        for (const path of [`${at.prefix}/${at.share}/files/tus?/${victim.id}`, `${at.prefix}/${at.share}/files/tus/${own}?/${victim.id}`]) {
          const label = `${at.who}, POST as ${override}, ${path}, ${victim.what}`;
          const before = snapshot(victim);
          const r = await send(at, 'POST', path, victim, override);
          await r.arrayBuffer();
          expect(snapshot(victim), label).toEqual(before);
          expect(r.headers.get('upload-length'), label).not.toBe(String(before.row!.length));
          expect(r.status, label).not.toBe(204);
        }
      }
    }
  });

  // Defence in depth: should a wrong id ever get past the route, the store
  // itself refuses a file that is not in the share the request was checked for.
  it('the tus store and the upload core refuse a file of another share', async () => {
    const victim = victims['partial']!;
    const before = snapshot(victim);
    await withDatabase(s, async (db) => {
      const stores = await createStoreRegistry(s.config.backend.files, { db, dialect: 'sqlite', chunkSize: s.config.backend.share.chunkSize, log: silentLogger });
      const uploads = createTusUploads({
        db,
        stores,
        clock: systemClock,
        log: silentLogger,
        share: s.config.backend.share,
        limits: s.config.limits,
        // never reached: nothing completes here
        checksums: {} as ChecksumQueue,
        pending: {} as PendingUploads,
      });
      expect(await uploads.state(asUser.share, victim.id)).toBeUndefined();
      expect(await uploads.state(victim.share, victim.id)).toEqual({ length: 100, offset: 10 });
      await expect(uploads.write(asUser.share, victim.id, victim.offset, Readable.from([Buffer.from('zz')]))).rejects.toMatchObject({ code: 'not-found' });
      await uploads.remove(asUser.share, victim.id);

      const store = new PierDataStore(uploads);
      await expect(store.getUpload(uploadKey(asUser.share, victim.id))).rejects.toMatchObject({ status_code: 404 });
      await expect(store.write(Readable.from([Buffer.from('zz')]), uploadKey(asUser.share, victim.id), victim.offset)).rejects.toMatchObject({ code: 'not-found' });
      await store.remove(uploadKey(asUser.share, victim.id));
      await expect(store.getUpload(`${victim.id}`)).rejects.toMatchObject({ status_code: 404 });
      await stores.close?.();
    });
    expect(snapshot(victim)).toEqual(before);
  });
});

describe('tus creation headers', () => {
  let s: UploadServer;
  let shareId: string;
  beforeAll(async () => {
    s = await startUploadServer('filesystem');
    shareId = await newShare(s, s.token);
  });
  afterAll(async () => s?.dispose());

  const create = (headers: Record<string, string>) =>
    raw(s, 'POST', `${SEC}/${shareId}/files/tus`, { 'Service-Auth': s.token, ...TUS, ...headers });

  // A deferred length (`Upload-Defer-Length: 1`) and concatenation
  // (`Upload-Concat`) are extensions Pier does not offer; asking for them
  // ended in a 500 instead of a 400.
  it('refuses Upload-Defer-Length and Upload-Concat with 400', async () => {
    const unoffered: Record<string, string>[] = [
      { 'Upload-Defer-Length': '1' },
      { 'Upload-Defer-Length': '1', 'Service-File-Length': '3' },
      { 'Upload-Concat': 'partial', 'Upload-Length': '3' },
    ];
    for (const headers of unoffered) {
      const r = await create(headers);
      expect(r.status, JSON.stringify(headers)).toBe(400);
      expect(await r.text()).not.toMatch(/error id/);
    }
    expect(fileRows(s, shareId)).toEqual([]);
    expect(s.logs()).not.toMatch(/"level":"error"/);
  });

  // A `filetype` with CR/LF in Upload-Metadata was stored as the file's type
  // and made every download of the file a 500; names and types with control
  // characters, and types that are no MIME type, are refused at creation.
  it('refuses control characters in filename and filetype, and a filetype that is not a MIME type, with 400', async () => {
    const refused: Record<string, string>[] = [
      { 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64('text/plain\r\nX-Injected: 1')}` },
      { 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64('text/html\n')}` },
      { 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64('text/plain\u0000')}` },
      { 'Upload-Metadata': `filename ${b64('a\r\n.txt')}` },
      { 'Upload-Metadata': `filename ${b64('a\u0085.txt')}` },
      { 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64('not a mime type')}` },
      { 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64('text/')}` },
      { 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64('<script>/x')}` },
      { 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64(`application/${'x'.repeat(260)}`)}` },
      { 'Service-File-Name': encodeURIComponent('a\r\nb.txt') },
      { 'Service-File-Type': 'nonsense' },
    ];
    for (const headers of refused) {
      const r = await create({ 'Upload-Length': '3', ...headers });
      expect(r.status, JSON.stringify(headers)).toBe(400);
    }
    expect(fileRows(s, shareId)).toEqual([]);

    const accepted: [Record<string, string>, string][] = [
      [{ 'Upload-Metadata': `filename ${b64('a.txt')},filetype ${b64('text/plain; charset=utf-8')}` }, 'text/plain; charset=utf-8'],
      [{ 'Upload-Metadata': `filename ${b64('b.bin')},filetype ${b64('')}` }, 'application/octet-stream'],
      [{ 'Upload-Metadata': `filename ${b64('c.docx')},filetype ${b64('application/vnd.openxmlformats-officedocument.wordprocessingml.document')}` }, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [{ 'Service-File-Name': encodeURIComponent('d.json'), 'Service-File-Type': 'application/json' }, 'application/json'],
    ];
    for (const [headers, type] of accepted) {
      const r = await create({ 'Upload-Length': '3', ...headers });
      expect(r.status, JSON.stringify(headers)).toBe(201);
      expect(fileRows(s, shareId).find((x) => x.id === fileIdOf(r.headers.get('location')!))?.mimetype).toBe(type);
    }
  });
});
