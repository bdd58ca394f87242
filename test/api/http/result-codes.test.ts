// Every generic result carries a stable machine code next to its English message, so
// a client can say it in the user's language: one request per outcome, in the order a
// user would meet them, each with the status and code it must answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

const DAY = 86_400_000;

interface Answer {
  status: number;
  body: Json;
}

/** One outcome: what to send and the status and code that must come back. */
type Row = [outcome: string, status: number, code: string, send: () => Promise<Answer>];

describe('result codes', () => {
  let s: TestServer;
  let admin: string;
  let uma: string;
  let umaId: string;
  let share: string;
  let pid: string;
  let fileId: string;
  beforeAll(async () => {
    s = await startServer({
      config: {
        'rate-limit': { 'login-failures': 3, 'share-password-failures': 2 },
        backend: { share: { 'max-validity': '30 days' } },
        limits: { 'files-per-share': 1 },
      },
    });
    admin = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  const as = (token: () => string) => ({
    get: (path: string) => s.request('GET', path, undefined, { token: token() }),
    post: (path: string, body: unknown = {}) => s.request('POST', path, body, { token: token() }),
    del: (path: string) => s.request('DELETE', path, undefined, { token: token() }),
  });
  const user = as(() => uma);
  const root = as(() => admin);
  const open = as(() => '');
  const publicShare = (password?: string) =>
    s.request('GET', `/api/v2/open/share/${pid}`, undefined, password === undefined ? {} : { headers: { 'Service-Password': password } });
  const addFile = async (): Promise<Answer> => {
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'hello.txt');
    const res = await fetch(`${s.url}/api/v2/sec/upload/${share}/files/add`, { method: 'POST', headers: { 'Service-Auth': uma }, body: form });
    return { status: res.status, body: (await res.json()) as Json };
  };
  /** Repeats a request until it is refused with 429 (at most `n` times). */
  const until429 = async (n: number, send: () => Promise<Answer>): Promise<Answer> => {
    let last = await send();
    for (let i = 1; i < n && last.status !== 429; i++) last = await send();
    return last;
  };
  const remember = <T>(set: (a: Answer) => T) => async (a: Promise<Answer>): Promise<Answer> => {
    const answer = await a;
    set(answer);
    return answer;
  };

  const rows: Row[] = [
    ['sign-up', 200, 'signup.done', () => open.post('/api/v2/open/signup/register', { login: 'uma', password: 'uma-password' })],
    ['sign-up with a taken name', 200, 'account.exists', () => open.post('/api/v2/open/signup/register', { login: 'UMA', password: 'uma-password' })],
    ['sign-up with a short password', 200, 'account.password-too-short', () => open.post('/api/v2/open/signup/register', { login: 'vic', password: 'short' })],
    ['a wrong password', 200, 'auth.failed', () => open.post('/api/v2/open/auth/login', { account: 'uma', password: 'wrong-password' })],
    ['a right password', 200, 'auth.ok', () => remember((a) => (uma = String(a.body['token'])))(open.post('/api/v2/open/auth/login', { account: 'uma', password: 'uma-password' }))],
    ['no token', 401, 'auth.failed', () => open.get('/api/v2/sec/share/search')],
    ['a user on an admin route', 403, 'error.forbidden', () => user.get('/api/v2/admin/account')],
    ['an unknown share', 404, 'error.not-found', () => user.get('/api/v2/sec/share/no-such-share')],
    ['an unknown route', 404, 'error.not-found', () => s.request('GET', '/api/v2/sec/no-such-route', undefined, { token: uma, unchecked: true })],
    ['a mistyped field', 400, 'error.bad-request', () => user.post('/api/v2/sec/upload/new', { validity: 'soon', maxViews: 1 })],
    ['a validity over the maximum', 200, 'share.validity-exceeded', () => user.post('/api/v2/sec/upload/new', { validity: 31 * DAY, maxViews: 5 })],
    ['a new share', 200, 'share.created', () => remember((a) => (share = String(a.body['id'])))(user.post('/api/v2/sec/upload/new', { validity: DAY, maxViews: 5, password: 'open sesame' }))],
    ['files added', 200, 'share.files-added', addFile],
    ['a file too many', 413, 'share.too-many-files', addFile],
    ['a name', 200, 'share.name-updated', () => user.post(`/api/v2/sec/share/${share}/name`, { value: 'Trip' })],
    ['no name', 200, 'share.name-deleted', () => user.del(`/api/v2/sec/share/${share}/name`)],
    ['a description', 200, 'share.description-updated', () => user.post(`/api/v2/sec/share/${share}/description`, { value: 'Photos' })],
    ['a validity', 200, 'share.validity-updated', () => user.post(`/api/v2/sec/share/${share}/validity`, { value: 2 * DAY })],
    ['max views', 200, 'share.max-views-updated', () => user.post(`/api/v2/sec/share/${share}/maxviews`, { value: 9 })],
    ['a download mail', 200, 'share.notify-updated', () => user.post(`/api/v2/sec/share/${share}/notify`, { value: true })],
    ['no password', 200, 'share.password-deleted', () => user.del(`/api/v2/sec/share/${share}/password`)],
    ['a password', 200, 'share.password-updated', () => user.post(`/api/v2/sec/share/${share}/password`, { value: 'open sesame' })],
    ['publishing', 200, 'share.published', () => user.post(`/api/v2/sec/share/${share}/publish`, { reuseId: false })],
    [
      'the link without its password',
      401,
      'share.password-required',
      async () => {
        pid = String(((await user.get(`/api/v2/sec/share/${share}`)).body['publishInfo'] as Json)['id']);
        return publicShare();
      },
    ],
    ['the link with a wrong password', 403, 'share.password-wrong', () => publicShare('open barley')],
    ['too many wrong passwords', 429, 'share.too-many-passwords', () => until429(5, () => publicShare('open wheat'))],
    ['unpublishing', 200, 'share.unpublished', () => user.del(`/api/v2/sec/share/${share}/publish`)],
    ['the link of an unpublished share', 404, 'share.unpublished', () => publicShare()],
    [
      'a file deleted',
      200,
      'share.file-deleted',
      async () => {
        fileId = String(((await user.get(`/api/v2/sec/share/${share}`)).body['files'] as Json[])[0]!['id']);
        return user.del(`/api/v2/sec/share/${share}/file/${fileId}`);
      },
    ],
    ['a share deleted', 200, 'share.deleted', () => user.del(`/api/v2/sec/share/${share}`)],
    ['an upload link over the maximum validity', 200, 'alias.validity-exceeded', () => user.post('/api/v2/sec/alias', { id: null, name: 'In', validity: 31 * DAY, enabled: true })],
    ['an upload link with an unknown member', 200, 'alias.unknown-members', () => user.post('/api/v2/sec/alias', { id: null, name: 'In', validity: DAY, enabled: true, members: ['no-such-account'] })],
    ['an upload link', 200, 'alias.created', () => user.post('/api/v2/sec/alias', { id: 'uma-inbox', name: 'In', validity: DAY, enabled: true })],
    ['an upload link id taken', 200, 'alias.id-taken', () => user.post('/api/v2/sec/alias', { id: 'uma-inbox', name: 'In', validity: DAY, enabled: true })],
    ['an upload link changed', 200, 'alias.modified', () => user.post('/api/v2/sec/alias/uma-inbox', { name: 'Inbox', validity: DAY, enabled: true })],
    ['an upload link deleted', 200, 'alias.deleted', () => user.del('/api/v2/sec/alias/uma-inbox')],
    ['mail while mail is off', 200, 'mail.disabled', () => user.post('/api/v2/sec/mail/send', { recipients: ['a@example.test'], subject: 'Hi', body: 'Hello' })],
    ['an e-mail address', 200, 'account.email-changed', () => user.post('/api/v2/sec/settings/email', { email: 'uma@example.test' })],
    ['no e-mail address', 200, 'account.email-deleted', () => user.del('/api/v2/sec/settings/email')],
    ['a password that can be changed', 200, 'account.password-available', () => user.get('/api/v2/sec/settings/password')],
    ['a wrong current password', 200, 'account.password-wrong', () => user.post('/api/v2/sec/settings/password', { oldPassword: 'not-my-password', newPassword: 'uma-new-password' })],
    ['an account made by the admin', 200, 'account.created', () => root.post('/api/v2/admin/account', { login: 'wes', state: 'Active', admin: false, password: 'wes-password' })],
    [
      'an account changed',
      200,
      'account.modified',
      async () => {
        umaId = String(((await root.get('/api/v2/admin/account?q=uma')).body['items'] as Json[])[0]!['id']);
        return root.post(`/api/v2/admin/account/${umaId}`, { state: 'Active', admin: false, email: null });
      },
    ],
    [
      'the admin demoting themself',
      200,
      'account.own-demote',
      async () => {
        const self = String(((await root.get('/api/v2/admin/account?q=admin')).body['items'] as Json[])[0]!['id']);
        return root.post(`/api/v2/admin/account/${self}`, { state: 'Active', admin: false });
      },
    ],
    [
      'the admin deleting themself',
      200,
      'account.own-delete',
      async () => root.del(`/api/v2/admin/account/${String(((await root.get('/api/v2/admin/account?q=admin')).body['items'] as Json[])[0]!['id'])}`),
    ],
    ['an invitation while sign-up is open', 200, 'signup.invites-disabled', () => root.post('/api/v2/admin/signup/newinvite', { password: 'anything' })],
    ['an account deleted', 200, 'account.deleted', async () => root.del(`/api/v2/admin/account/${String(((await root.get('/api/v2/admin/account?q=wes')).body['items'] as Json[])[0]!['id'])}`)],
    ['a password changed', 200, 'account.password-changed', () => user.post('/api/v2/sec/settings/password', { oldPassword: 'uma-password', newPassword: 'uma-new-password' })],
    ['signing out', 200, 'auth.logged-out', () => root.post('/api/v2/sec/auth/logout')],
    ['signing out everywhere', 200, 'auth.signed-out-everywhere', async () => s.request('POST', '/api/v2/sec/auth/logout-all', {}, { token: await s.login(ADMIN.login, ADMIN.password) })],
    ['too many failed sign-ins', 429, 'auth.too-many-attempts', () => until429(10, () => open.post('/api/v2/open/auth/login', { account: 'uma', password: 'guess' }))],
  ];

  it('names the wrong field of malformed input, for a client to say it in its own words', async () => {
    const mistyped = await root.post('/api/v2/sec/upload/new', { validity: 'soon', maxViews: 1 });
    expect(mistyped.status).toBe(400);
    expect(mistyped.body).toMatchObject({ success: false, code: 'error.bad-request', field: 'validity' });
    const mail = await root.post('/api/v2/sec/settings/email', { email: 'not-an-address' });
    expect(mail.status).toBe(400);
    expect(mail.body).toMatchObject({ success: false, code: 'error.bad-request', field: 'email' });
  });

  it('answers each outcome with its status and code, next to the English message', async () => {
    const seen: string[] = [];
    for (const [outcome, status, code, send] of rows) {
      const answer = await send();
      expect({ outcome, status: answer.status, code: answer.body['code'] }).toEqual({ outcome, status, code });
      expect(typeof answer.body['message'], outcome).toBe('string');
      if (status !== 200) expect(answer.body['success'], outcome).toBe(false);
      seen.push(code);
    }
    expect(new Set(seen).size).toBeGreaterThanOrEqual(45);
  });

  it('keeps Sharry’s message: a client that ignores the code still reads what happened', async () => {
    const res = await s.request('POST', '/api/v2/open/signup/register', { login: 'uma', password: 'uma-password' });
    expect(res.body).toEqual({ success: false, message: 'An account with this name already exists.', code: 'account.exists' });
  });

  it('gives malformed JSON and unexpected failures their codes too', async () => {
    const bad = await s.request('POST', '/api/v2/open/auth/login', undefined, { raw: '{"account":', headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, message: 'The request body is not valid JSON.', code: 'error.bad-request', field: 'body' });
  });
});
