/**
 * Every answer of a full scenario through the HTTP API, checked against
 * server/openapi.yml: each JSON body against the schema of its route and
 * status (strict ajv; schemas with every field required and no other field
 * allowed), a JSON answer without a documented schema is a failure, and the
 * scenario reaches every JSON operation of `/api/v2`.
 *
 * Regression: files not yet complete answered `checksum: null`; clients built
 * from Sharry's API description read `checksum` as a string (`""` until known)
 * and failed on the share detail.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes, loadOpenApi } from '../../../server/http/openapi.js';
import { checkResponse, documentedMediaTypes, matchDocumentedPath } from '../../support/openapi-check.js';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';
import { mailConfig, startSmtp, type SmtpCapture } from '../../support/smtp.js';

const DAY = 86_400_000;
const INVITE_PASSWORD = 'invite-me-please';

interface Call {
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: FormData | Uint8Array;
}

interface Answer<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

interface FileBody {
  id: string;
  filename: string;
  size: number;
  storedSize: number;
  checksum: string;
}

interface DetailBody {
  id: string;
  aliasId: string | null;
  publishInfo: { id: string } | null;
  files: FileBody[];
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

const form = (meta: Json | undefined, files: { name: string; content: Uint8Array }[]): FormData => {
  const fd = new FormData();
  if (meta) fd.append('meta', JSON.stringify(meta));
  for (const f of files) fd.append('file', new Blob([new Uint8Array(f.content)], { type: 'application/octet-stream' }), f.name);
  return fd;
};

describe('every answer of a full scenario matches openapi.yml', () => {
  let smtp: SmtpCapture;
  let s: TestServer;
  /** `method template status` of every answer checked */
  const seen = new Set<string>();

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({
      config: {
        backend: {
          mail: mailConfig(smtp.port, { 'default-from': 'pier@example.test' }),
          signup: { mode: 'invite', 'invite-password': INVITE_PASSWORD },
        },
      },
    });
  });
  afterAll(async () => {
    await s?.stop();
    await smtp?.stop();
  });

  /** One request; its answer is checked against openapi.yml before the caller sees it. */
  const call = async <T = Json>(method: string, path: string, c: Call = {}): Promise<Answer<T>> => {
    const headers: Record<string, string> = { ...c.headers };
    if (c.token) headers['Service-Auth'] = c.token;
    let body: BodyInit | undefined;
    if (c.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(c.json);
    } else if (c.body instanceof Uint8Array) {
      body = new Uint8Array(c.body);
    } else if (c.body) body = c.body;
    const res = await fetch(s.url + path, { method, headers, body, redirect: 'manual' });
    const m = method.toLowerCase();
    const route = path.split('?')[0]!;
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    const json = type.includes('application/json');
    const parsed: unknown = json && m !== 'head' ? JSON.parse(text) : text;
    checkResponse(m, route, res.status, parsed, m === 'head', type);
    // A route documented as answering JSON for this status does so.
    const media = documentedMediaTypes(m, route, res.status);
    if (m !== 'head' && media.length && media.every((t) => t === 'application/json')) {
      expect(json, `${method} ${path} ${res.status} answered ${type}: ${text}`).toBe(true);
    }
    seen.add(`${m} ${matchDocumentedPath(route)} ${res.status}`);
    return { status: res.status, headers: res.headers, body: parsed as T };
  };

  const ok = async <T = Json>(method: string, path: string, c: Call = {}): Promise<T> => {
    const res = await call<T>(method, path, c);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };

  const success = async <T = Json>(method: string, path: string, c: Call = {}): Promise<T> => {
    const body = await ok<T>(method, path, c);
    expect((body as { success: boolean }).success, `${method} ${path}: ${JSON.stringify(body)}`).toBe(true);
    return body;
  };

  const login = async (account: string, password: string): Promise<string> =>
    (await success<{ token: string }>('POST', '/api/v2/open/auth/login', { json: { account, password } })).token;

  /** A tus upload of `data` into a share; only the first `send` bytes are sent. Returns the share-file id. */
  const tus = async (zone: string, shareId: string, auth: Record<string, string>, name: string, data: Uint8Array, send = data.length) => {
    const created = await call('POST', `/api/v2/${zone}/upload/${shareId}/files/tus`, {
      headers: {
        ...auth,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(data.length),
        'Service-File-Name': encodeURIComponent(name),
        'Service-File-Type': 'application/octet-stream',
      },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!).pathname;
    const patched = await call('PATCH', location, {
      headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: data.subarray(0, send),
    });
    expect(patched.status).toBe(204);
    const head = await call('HEAD', location, { headers: { ...auth, 'Tus-Resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe(String(send));
    return location.slice(location.lastIndexOf('/') + 1);
  };

  it('for the whole API, and files not yet complete have checksum ""', async () => {
    // Info, sign-in, sessions
    await ok('GET', '/api/v2/open/info/version');
    await ok('GET', '/api/v2/open/info/appconfig');
    const failed = await ok<Json>('POST', '/api/v2/open/auth/login', { json: { account: 'admin', password: 'wrong-password' } });
    expect(failed).toMatchObject({ success: false, token: null, validMs: 0 });
    for (const m of ['GET', 'POST']) expect((await ok<Json>(m, '/api/v2/open/auth/proxy'))['success']).toBe(false);
    expect((await call('POST', '/api/v2/open/auth/login', { body: new TextEncoder().encode('{nope'), headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
    const admin = await login(ADMIN.login, ADMIN.password);
    await success('POST', '/api/v2/sec/auth/session', { token: admin });
    await ok('GET', '/api/v2/sec/info/addresses', { token: admin });
    expect((await call('GET', '/api/v2/sec/share/search')).status).toBe(401);

    // Invitations, sign-up, account administration
    const keys: string[] = [];
    for (const p of ['/api/v2/admin/signup/newinvite', '/api/v2/open/signup/newinvite', '/api/v1/open/signup/newinvite']) {
      keys.push((await success<{ key: string }>('POST', p, { token: admin, json: { password: INVITE_PASSWORD } })).key);
    }
    expect((await ok<Json>('POST', '/api/v2/admin/signup/newinvite', { token: admin, json: { password: 'not-it' } }))['key']).toBeNull();
    await success('POST', '/api/v2/open/signup/register', { json: { login: 'bob', password: 'bob-password', invite: keys[0] } });
    expect((await ok<Json>('POST', '/api/v2/open/signup/register', { json: { login: 'eve', password: 'eve-password', invite: 'no-such-key' } }))['success']).toBe(false);
    await success('POST', '/api/v2/admin/account', {
      token: admin,
      json: { login: 'carol', state: 'Active', admin: false, password: 'carol-password', email: 'carol@example.test' },
    });
    const accounts = await ok<{ items: { id: string; login: string; lastLogin: number | null }[] }>('GET', '/api/v2/admin/account?q=', { token: admin });
    const idOf = (login: string) => accounts.items.find((a) => a.login === login)!.id;
    await ok('GET', `/api/v2/admin/account/${idOf('carol')}`, { token: admin });
    await success('POST', `/api/v2/admin/account/${idOf('carol')}`, { token: admin, json: { state: 'Active', admin: false, email: null } });
    expect((await call('GET', '/api/v2/admin/account/no-such-account', { token: admin })).status).toBe(404);
    const bob = await login('bob', 'bob-password');
    const carol = await login('carol', 'carol-password');
    expect((await call('GET', '/api/v2/admin/account', { token: bob })).status).toBe(403);

    // Own settings
    await success('POST', '/api/v2/sec/settings/email', { token: admin, json: { email: 'admin@example.test' } });
    expect(await ok('GET', '/api/v2/sec/settings/email', { token: admin })).toEqual({ email: 'admin@example.test' });
    await success('DELETE', '/api/v2/sec/settings/email', { token: bob });
    expect(await ok('GET', '/api/v2/sec/settings/email', { token: bob })).toEqual({ email: null });
    await success('GET', '/api/v2/sec/settings/password', { token: carol });
    await success('POST', '/api/v2/sec/settings/password', { token: carol, json: { oldPassword: 'carol-password', newPassword: 'carol-password-2' } });
    await login('carol', 'carol-password-2');

    // A share from one multipart request, and one made empty and filled with tus
    const small = bytes(3000, 1);
    const created = await success<{ id: string }>('POST', '/api/v2/sec/upload', {
      token: admin,
      body: form({ name: 'Holiday', validity: DAY, maxViews: 20, password: 'share-secret', description: '# Photos' }, [{ name: 'a.bin', content: small }]),
    });
    const sid = created.id;
    await success('POST', `/api/v2/sec/upload/${sid}/files/add`, { token: admin, body: form(undefined, [{ name: 'b.bin', content: bytes(500, 2) }]) });
    const whole = bytes(5000, 3);
    const complete = await tus('sec', sid, { 'Service-Auth': admin }, 'whole.bin', whole);
    const tid = (await success<{ id: string }>('POST', '/api/v2/sec/upload/new', { token: admin, json: { validity: DAY, maxViews: 5 } })).id;
    const partial = await tus('sec', tid, { 'Service-Auth': admin }, 'partial.bin', bytes(4000, 4), 1000);

    // Owner details: a file's checksum is its SHA-256 once complete, "" before
    const detail = await ok<DetailBody>('GET', `/api/v2/sec/share/${sid}`, { token: admin });
    expect(detail.files.find((f) => f.id === complete)).toMatchObject({ size: 5000, storedSize: 5000, checksum: sha256(whole) });
    const unfinished = await ok<DetailBody>('GET', `/api/v2/sec/share/${tid}`, { token: admin });
    expect(unfinished.files).toEqual([expect.objectContaining({ id: partial, size: 4000, storedSize: 1000, checksum: '' })]);
    expect((await call('GET', '/api/v2/sec/share/no-such-share', { token: admin })).status).toBe(404);

    // Changes and publishing
    await success('POST', `/api/v2/sec/share/${tid}/name`, { token: admin, json: { value: 'Draft' } });
    await success('DELETE', `/api/v2/sec/share/${tid}/name`, { token: admin });
    await success('POST', `/api/v2/sec/share/${tid}/description`, { token: admin, json: { value: '{{#files}}{{name}} {{checksum}}{{/files}}' } });
    await success('POST', `/api/v2/sec/share/${tid}/validity`, { token: admin, json: { value: 2 * DAY } });
    await success('POST', `/api/v2/sec/share/${tid}/maxviews`, { token: admin, json: { value: 9 } });
    await success('POST', `/api/v2/sec/share/${tid}/password`, { token: admin, json: { value: 'other-secret' } });
    await success('DELETE', `/api/v2/sec/share/${tid}/password`, { token: admin });
    await success('POST', `/api/v2/sec/share/${sid}/publish`, { token: admin, json: { reuseId: false } });
    await success('POST', `/api/v2/sec/share/${tid}/publish`, { token: admin, json: { reuseId: true } });
    const pid = (await ok<DetailBody>('GET', `/api/v2/sec/share/${sid}`, { token: admin })).publishInfo!.id;
    const openTid = (await ok<DetailBody>('GET', `/api/v2/sec/share/${tid}`, { token: admin })).publishInfo!.id;
    const list = await ok<{ items: Json[] }>('GET', '/api/v2/sec/share/search?q=&page=1&pageSize=50', { token: admin });
    expect(list.items.find((i) => i['id'] === sid)).toMatchObject({ aliasName: null, aliasInfo: null, published: true, files: 3 });

    // Public views, with and without a password; files and ZIP are bytes
    const pw = { 'Service-Password': 'share-secret' };
    expect((await call('GET', `/api/v2/open/share/${pid}`)).status).toBe(401);
    expect((await call('GET', `/api/v2/open/share/${pid}`, { headers: { 'Service-Password': 'wrong-secret' } })).status).toBe(403);
    const open = await ok<DetailBody>('GET', `/api/v2/open/share/${pid}`, { headers: pw });
    expect(open).toMatchObject({ id: pid, aliasId: null });
    expect(open.files.find((f) => f.id === complete)!.checksum).toBe(sha256(whole));
    const openPartial = await ok<DetailBody>('GET', `/api/v2/open/share/${openTid}`);
    expect(openPartial.files.map((f) => f.checksum)).toEqual(['']);
    expect((await call('GET', `/api/v2/open/share/${pid}/file/${complete}`, { headers: pw })).status).toBe(200);
    expect((await call('HEAD', `/api/v2/open/share/${pid}/file/${complete}`, { headers: pw })).status).toBe(200);
    expect((await call('GET', `/api/v2/open/share/${pid}/zip`, { headers: pw })).status).toBe(200);
    expect((await call('GET', `/api/v2/sec/share/${sid}/file/${complete}`, { token: admin })).status).toBe(200);
    expect((await call('GET', `/api/v2/sec/share/${sid}/zip`, { token: admin })).status).toBe(200);
    await success('POST', `/api/v2/sec/share/${sid}/notify`, { token: admin, json: { value: true } });
    await ok('GET', `/api/v2/sec/share/${sid}/activity`, { token: admin });
    expect((await call('GET', '/api/v2/open/share/no-such-share')).status).toBe(404);

    // Mail
    await ok('GET', `/api/v2/sec/mail/template/share/${sid}`, { token: admin });
    await success('POST', '/api/v2/sec/mail/send', { token: admin, json: { recipients: ['friend@example.test'], subject: 'Photos', body: 'Here.' } });

    // Aliases, a member, guest uploads through the alias
    expect((await ok<{ items: unknown[] }>('GET', '/api/v2/sec/alias-member?q=', { token: admin })).items.length).toBeGreaterThan(0);
    const aid = (await success<{ id: string }>('POST', '/api/v2/sec/alias', { token: admin, json: { name: 'Inbox', validity: DAY, enabled: true, members: [idOf('bob')] } })).id;
    await success('POST', `/api/v2/sec/alias/${aid}`, { token: admin, json: { name: 'Tax inbox', validity: DAY, enabled: true, members: [idOf('bob')] } });
    await ok('GET', '/api/v2/sec/alias?q=tax', { token: admin });
    expect(await ok('GET', `/api/v2/sec/alias/${aid}`, { token: bob })).toMatchObject({ id: aid, owner: 'admin', members: { items: [{ id: idOf('bob'), login: 'bob' }] } });
    expect((await call('POST', `/api/v2/sec/alias/${aid}`, { token: bob, json: { name: 'Mine', validity: DAY, enabled: true, members: [] } })).status).toBe(403);
    await ok('GET', `/api/v2/open/alias/${aid}`);
    await ok('GET', `/api/v2/sec/mail/template/alias/${aid}`, { token: admin });
    const guest = { 'Service-Alias': aid };
    expect((await call('POST', '/api/v2/alias/upload/new', { json: { validity: 0, maxViews: 10 }, headers: { 'Service-Alias': 'no-such-alias' } })).status).toBe(401);
    const gid = (await success<{ id: string }>('POST', '/api/v2/alias/upload', { headers: guest, body: form({ validity: 0, maxViews: 10 }, [{ name: 'scan.pdf', content: bytes(800, 5) }]) })).id;
    await success('POST', `/api/v2/alias/upload/${gid}/files/add`, { headers: guest, body: form(undefined, [{ name: 'scan2.pdf', content: bytes(900, 6) }]) });
    const gid2 = (await success<{ id: string }>('POST', '/api/v2/alias/upload/new', { headers: guest, json: { validity: 0, maxViews: 10 } })).id;
    await tus('alias', gid2, guest, 'late.bin', bytes(2000, 7), 500);
    await success('POST', `/api/v2/alias/mail/notify/${gid}`, { headers: guest });

    // What the member sees of the guest's shares
    const memberList = await ok<{ items: Json[] }>('GET', '/api/v2/sec/share/search', { token: bob });
    expect(memberList.items.find((i) => i['id'] === gid)).toMatchObject({ aliasName: 'Tax inbox', aliasInfo: { id: aid, name: 'Tax inbox' } });
    expect(await ok<DetailBody>('GET', `/api/v2/sec/share/${gid}`, { token: bob })).toMatchObject({ id: gid, aliasId: aid });
    const late = await ok<DetailBody>('GET', `/api/v2/sec/share/${gid2}`, { token: bob });
    expect(late.files.map((f) => [f.storedSize, f.checksum])).toEqual([[500, '']]);

    // Removals, sign-out
    await success('DELETE', `/api/v2/sec/share/${sid}/file/${complete}`, { token: admin });
    await success('DELETE', `/api/v2/sec/share/${sid}/publish`, { token: admin });
    await success('DELETE', `/api/v2/sec/share/${sid}`, { token: admin });
    await success('DELETE', `/api/v2/sec/alias/${aid}`, { token: admin });
    await success('DELETE', `/api/v2/admin/account/${idOf('carol')}`, { token: admin });
    const bobElsewhere = await login('bob', 'bob-password');
    await success('POST', '/api/v2/sec/auth/logout', { token: bob });
    expect((await call('POST', '/api/v2/sec/auth/session', { token: bob })).status).toBe(401);
    await success('POST', '/api/v2/sec/auth/logout-all', { token: bobElsewhere });
    expect((await call('POST', '/api/v2/sec/auth/session', { token: bobElsewhere })).status).toBe(401);

    // Every JSON operation of the file-sharing API was reached with 200, and each error status answered
    const { doc } = loadOpenApi();
    const jsonOk = documentedRoutes(doc).filter((r) => {
      const [m, p] = r.split(' ') as [string, string];
      return (p.startsWith('/api/v2/') || p === '/api/v1/open/signup/newinvite') && documentedMediaTypes(m, p, 200).includes('application/json');
    });
    expect(jsonOk.filter((r) => !seen.has(`${r} 200`))).toEqual([]);
    for (const status of [400, 401, 403, 404]) expect([...seen].some((k) => k.endsWith(` ${status}`)), String(status)).toBe(true);
  });
});
