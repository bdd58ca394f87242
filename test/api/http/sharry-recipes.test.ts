/**
 * The documented curl and ShareX recipes of Sharry, with its renames
 * (`Sharry-*` headers → `Service-*`), run with the real curl against a real
 * server: JSON bodies sent as `application/x-www-form-urlencoded`, unknown
 * fields, multipart uploads without a `meta` part.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

const run = promisify(execFile);

describe("Sharry's curl and ShareX recipes", () => {
  let s: TestServer;
  let dir: string;
  /** runs curl with these arguments; the status is the last line */
  const curl = async (...args: string[]): Promise<{ status: number; body: Json }> => {
    const { stdout } = await run('curl', ['-s', '--max-time', '20', '-w', '\n%{http_code}', ...args]);
    const cut = stdout.lastIndexOf('\n');
    const text = stdout.slice(0, cut);
    return { status: Number(stdout.slice(cut + 1)), body: (text ? JSON.parse(text) : {}) as Json };
  };

  beforeAll(async () => {
    s = await startServer({ config: { backend: { signup: { mode: 'open' } } } });
    dir = mkdtempSync(join(tmpdir(), 'pier-recipes-'));
    writeFileSync(join(dir, 'P1020416.JPG'), Buffer.alloc(2000, 1));
    writeFileSync(join(dir, 'P1020422.JPG'), Buffer.alloc(3000, 2));
  });
  afterAll(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs in, renews the session, lists shares, creates an alias and uploads to it as the REST page shows', async () => {
    // curl -d sends application/x-www-form-urlencoded
    const login = await curl(`-d{"account":"${ADMIN.login}", "password":"${ADMIN.password}"}`, `${s.url}/api/v2/open/auth/login`);
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ success: true, user: ADMIN.login, message: 'Login successful' });
    const token = String(login.body['token']);

    const renewed = await curl('-XPOST', '-H', `Service-Auth: ${token}`, `${s.url}/api/v2/sec/auth/session`);
    expect(renewed.body).toMatchObject({ success: true, user: ADMIN.login });

    const search = await curl('-XGET', '-H', `Service-Auth: ${token}`, `${s.url}/api/v2/sec/share/search`);
    expect(search.body).toEqual({ items: [] });

    const alias = await curl(
      '-XPOST',
      '-H',
      `Service-Auth: ${token}`,
      '-d{"name":"test alias","validity": 172800000, "enabled":true,"members":[]}',
      `${s.url}/api/v2/sec/alias`,
    );
    expect(alias.body).toMatchObject({ success: true, message: 'Alias successfully created.' });
    const aliasId = String(alias.body['id']);

    const upload = await curl(
      '-XPOST',
      '-F',
      `file=@${join(dir, 'P1020416.JPG')}`,
      '-F',
      `file=@${join(dir, 'P1020422.JPG')}`,
      '-H',
      `Service-Alias: ${aliasId}`,
      `${s.url}/api/v2/alias/upload`,
    );
    expect(upload.status).toBe(200);
    expect(upload.body).toMatchObject({ success: true });
    const shareId = String(upload.body['id']);

    const detail = await curl('-H', `Service-Auth: ${token}`, `${s.url}/api/v2/sec/share/${shareId}`);
    expect(detail.body).toMatchObject({ id: shareId, aliasId, aliasName: 'test alias' });
    const files = detail.body['files'] as Array<{ filename: string; size: number; storedSize: number }>;
    expect(files.map((f) => [f.filename, f.size, f.storedSize]).sort()).toEqual([
      ['P1020416.JPG', 2000, 2000],
      ['P1020422.JPG', 3000, 3000],
    ]);
  });

  it('takes a ShareX upload: multipart field file[] with the alias header, answering the id ShareX puts in its URL', async () => {
    const token = await s.login(ADMIN.login, ADMIN.password);
    const alias = await s.request('POST', '/api/v2/sec/alias', { name: 'sharex', validity: 86_400_000, enabled: true, members: [] }, { token });
    const aliasId = String(alias.body['id']);
    const up = await curl('-XPOST', '-H', `Service-Alias: ${aliasId}`, '-F', `file[]=@${join(dir, 'P1020416.JPG')}`, `${s.url}/api/v2/alias/upload`);
    expect(up.status).toBe(200);
    expect(typeof up.body['id']).toBe('string');
    const detail = await s.request<{ files: Array<{ filename: string; storedSize: number }> }>('GET', `/api/v2/sec/share/${String(up.body['id'])}`, undefined, { token });
    expect(detail.body.files.map((f) => [f.filename, f.storedSize])).toEqual([['P1020416.JPG', 2000]]);
  });

  it('ignores unknown fields: a sign-up that sends admin: true creates a normal account', async () => {
    const res = await curl(
      '-H',
      'Content-Type: application/json',
      '-d{"login":"mallory","password":"mallory-password","admin":true,"state":"Active"}',
      `${s.url}/api/v2/open/signup/register`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    const login = await s.request('POST', '/api/v2/open/auth/login', { account: 'mallory', password: 'mallory-password', remember: true });
    expect(login.body).toMatchObject({ success: true, user: 'mallory', admin: false });
  });

  it('ignores unknown fields of a new share and still answers 400 for missing, mistyped and out-of-range ones', async () => {
    const token = await s.login(ADMIN.login, ADMIN.password);
    const made = await curl(
      '-H',
      `Service-Auth: ${token}`,
      '-d{"validity":3600000,"maxViews":3,"colour":"blue","password":null}',
      `${s.url}/api/v2/sec/upload/new`,
    );
    expect(made.body).toMatchObject({ success: true });
    for (const [body, field] of [
      ['{"maxViews":3}', 'validity'],
      ['{"validity":"soon","maxViews":3}', 'validity'],
      ['{"validity":3600000,"maxViews":0}', 'maxViews'],
      ['{"validity":3600000,"maxViews":3', 'body'],
    ] as const) {
      const bad = await curl('-H', `Service-Auth: ${token}`, `-d${body}`, `${s.url}/api/v2/sec/upload/new`);
      expect(bad.status, body).toBe(400);
      expect(bad.body['success'], body).toBe(false);
      if (field !== 'body') expect(String(bad.body['message']), body).toContain(field);
    }
  });
});
