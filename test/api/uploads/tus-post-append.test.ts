/**
 * Appending by POST: `X-HTTP-Method-Override: PATCH` (the tus answer to
 * proxies that block PATCH) and the plain POST append that scripts written
 * for Sharry send; and `Tus-Max-Size` announced on OPTIONS and HEAD.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, newShare, randomBytesOf, raw, startUploadServer, tusEndpoint, type UploadServer } from './support.js';

const run = promisify(execFile);
const KiB = 1024;
const MAX = 4 * 1024 * KiB;

describe('tus append by POST and the announced room', () => {
  let s: UploadServer;
  let dir: string;
  beforeAll(async () => {
    s = await startUploadServer('filesystem', { share: { 'max-size': String(MAX) } });
    dir = mkdtempSync(join(tmpdir(), 'pier-post-append-'));
  });
  afterAll(async () => {
    await s.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = async (shareId: string, length: number): Promise<string> => {
    const r = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, { 'Service-Auth': s.token, 'Service-File-Length': String(length), 'Service-File-Name': 'x.bin' });
    expect(r.status).toBe(201);
    return r.headers.get('location')!;
  };
  const head = (url: string) => fetch(url, { method: 'HEAD', headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' } });

  it('uploads with tus-js-client sending every chunk as POST with X-HTTP-Method-Override: PATCH', async () => {
    const shareId = await newShare(s, s.token);
    const data = randomBytesOf(2 * 1024 * KiB + 123, 7);
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(data, {
        endpoint: tusEndpoint(s, shareId),
        chunkSize: 512 * KiB,
        overridePatchMethod: true,
        retryDelays: [],
        headers: { 'Service-Auth': s.token },
        metadata: { filename: 'override.bin' },
        onError: reject,
        onSuccess: () => resolve(upload.url!),
      });
      upload.start();
    });
    const fid = url.slice(url.lastIndexOf('/') + 1);
    expect((await download(s, s.token, shareId, fid)).equals(data)).toBe(true);
  });

  it('appends a plain POST of the whole file from curl, with no tus headers and a form content type', async () => {
    const shareId = await newShare(s, s.token);
    const data = randomBytesOf(300 * KiB, 3);
    const file = join(dir, 'whole.bin');
    writeFileSync(file, data);
    const url = await create(shareId, data.length);
    const { stdout } = await run('curl', ['-s', '-D', '-', '-o', '/dev/null', '-XPOST', '-H', `Service-Auth: ${s.token}`, '--data-binary', `@${file}`, url]);
    expect(stdout).toMatch(/^HTTP\/1\.1 204/);
    expect(stdout).toMatch(new RegExp(`upload-offset: ${data.length}\\r`, 'i'));
    const fid = url.slice(url.lastIndexOf('/') + 1);
    expect((await download(s, s.token, shareId, fid)).equals(data)).toBe(true);
  });

  it('keeps the offset rule for POST appends: 409 at another offset, the rest from the stored one', async () => {
    const shareId = await newShare(s, s.token);
    const data = randomBytesOf(200 * KiB, 5);
    const url = await create(shareId, data.length);
    const post = (offset: number | undefined, body: Buffer) =>
      fetch(url, { method: 'POST', headers: { 'Service-Auth': s.token, ...(offset === undefined ? {} : { 'Upload-Offset': String(offset) }) }, body: new Uint8Array(body) });
    const first = await post(undefined, data.subarray(0, 50 * KiB));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(50 * KiB));
    expect((await post(undefined, data.subarray(50 * KiB))).status).toBe(409);
    expect((await post(10, data.subarray(50 * KiB))).status).toBe(409);
    const rest = await post(50 * KiB, data.subarray(50 * KiB));
    expect(rest.status).toBe(204);
    const fid = url.slice(url.lastIndexOf('/') + 1);
    expect((await download(s, s.token, shareId, fid)).equals(data)).toBe(true);
  });

  it('holds an overridden POST to the PATCH rules and refuses any other override, acting on nothing', async () => {
    const shareId = await newShare(s, s.token);
    const url = await create(shareId, 10);
    const override = (method: string, target: string, headers: Record<string, string> = {}) =>
      fetch(target, { method: 'POST', headers: { 'Service-Auth': s.token, 'X-HTTP-Method-Override': method, 'Upload-Offset': '0', ...headers }, body: new Uint8Array(10).fill(1) });
    expect((await override('PATCH', url, { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await override('DELETE', url)).status).toBe(400);
    expect((await override('HEAD', url)).status).toBe(400);
    expect((await override('PATCH', tusEndpoint(s, shareId), { 'Upload-Length': '10' })).status).toBe(400);
    const state = await head(url);
    expect(state.status).toBe(200);
    expect(state.headers.get('upload-offset')).toBe('0');
    expect((await override('PATCH', url, { 'Content-Type': 'application/offset+octet-stream' })).status).toBe(204);
  });

  it('sends Tus-Max-Size on OPTIONS and HEAD: the bytes the share still takes', async () => {
    const shareId = await newShare(s, s.token);
    const options = () => fetch(tusEndpoint(s, shareId), { method: 'OPTIONS', headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' } });
    const empty = await options();
    expect(empty.status).toBe(204);
    expect(empty.headers.get('tus-max-size')).toBe(String(MAX));
    const url = await create(shareId, 1024 * KiB);
    expect((await options()).headers.get('tus-max-size')).toBe(String(MAX - 1024 * KiB));
    const h = await head(url);
    expect(h.status).toBe(200);
    expect(h.headers.get('tus-max-size')).toBe(String(MAX - 1024 * KiB));
  });
});
