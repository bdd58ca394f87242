import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { mailConfig, startSmtp, type CapturedMail, type SmtpCapture } from '../../support/smtp.js';
import {
  adminUser,
  createAlias,
  createUser,
  DAY,
  guest,
  guestShare,
  guestTusUpload,
  bytes,
  setEmail,
  type Result,
  type User,
} from '../aliases/support.js';

interface Template {
  subject: string;
  body: string;
}

/** The raw `List-Id` value (mailparser folds list headers into one `list` value). */
const listId = (m: CapturedMail) => m.parsed.headerLines.find((h) => h.key === 'list-id')?.line.replace(/^[^:]*:\s*/, '');

const NO_SENDER = 'There are no sender addresses specified. You may need to add an e-mail address to your account.';

describe('mail with a real SMTP server', () => {
  let smtp: SmtpCapture;
  let s: TestServer;
  let alice: User;
  let bob: User;
  let carol: User;
  let dave: User;

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({ config: { backend: { mail: mailConfig(smtp.port) } } });
    alice = await createUser(s, 'alice', 'alice@example.test');
    bob = await createUser(s, 'bob', 'bob@example.test');
    carol = await createUser(s, 'carol');
    dave = await createUser(s, 'dave', 'dave@example.test');
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  const newMails = async (before: number, n: number) => (await smtp.waitFor(before + n)).slice(before);

  it('notifies the owner and the members with an e-mail, one mail each, with the share link', async () => {
    const aliasId = await createAlias(s, alice, { name: 'Tax papers', members: [bob.id, carol.id] });
    const shareId = await guestShare(s, aliasId);
    await guestTusUpload(s, aliasId, shareId, bytes(5000), 'receipt.pdf');
    const before = smtp.mails.length;
    const res = await s.request<Result>('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: guest(aliasId) });
    expect(res.body).toEqual({ success: true, message: 'Mail sent', code: 'mail.sent' });
    const mails = await newMails(before, 2);
    expect(mails.map((m) => m.to).sort()).toEqual([['alice@example.test'], ['bob@example.test']]);
    const link = `${s.url}/app/upload/${shareId}`;
    for (const m of mails) {
      const login = m.to[0]!.split('@')[0]!;
      expect(m.parsed.subject).toBe('[Pier] Files arrived');
      expect(m.parsed.text).toContain(`Hello ${login},`);
      expect(m.parsed.text).toContain("via the alias 'Tax papers'");
      expect(m.parsed.text).toContain(link);
      // no default-from: the owner's address sends
      expect(m.parsed.from?.value[0]?.address).toBe('alice@example.test');
      expect(listId(m)).toBe('<pier-test>');
    }
  });

  it('says so when nobody has an e-mail address', async () => {
    const erin = await createUser(s, 'erin');
    const aliasId = await createAlias(s, erin, { members: [carol.id] });
    const shareId = await guestShare(s, aliasId);
    const res = await s.request<Result>('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: guest(aliasId) });
    expect(res.body).toEqual({ success: false, message: 'There is no email to notify', code: 'mail.no-recipients' });
  });

  it('renders the download template for a published share, with and without the password section', async () => {
    const open = (await s.request<Result>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 5 }, { token: alice.token })).body.id!;
    expect((await s.request('GET', `/api/v2/sec/mail/template/share/${open}`, undefined, { token: alice.token })).status).toBe(404);
    await s.request('POST', `/api/v2/sec/share/${open}/publish`, { reuseId: false }, { token: alice.token });
    const detail = await s.request<{ publishInfo: { id: string } }>('GET', `/api/v2/sec/share/${open}`, undefined, { token: alice.token });
    const t = await s.request<Template>('GET', `/api/v2/sec/mail/template/share/${open}`, undefined, { token: alice.token });
    expect(t.status).toBe(200);
    expect(t.body.subject).toBe('Download ready.');
    expect(t.body.body).toContain(`${s.url}/app/open/${detail.body.publishInfo.id}`);
    expect(t.body.body).toContain('alice via Pier');
    expect(t.body.body).not.toContain('password');

    const locked = (await s.request<Result>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 5, password: 'secret' }, { token: alice.token })).body.id!;
    await s.request('POST', `/api/v2/sec/share/${locked}/publish`, { reuseId: false }, { token: alice.token });
    const withPw = await s.request<Template>('GET', `/api/v2/sec/mail/template/share/${locked}`, undefined, { token: alice.token });
    expect(withPw.body.body).toContain('The required password will be sent by other means.');
    // not the caller's share: 404
    expect((await s.request('GET', `/api/v2/sec/mail/template/share/${locked}`, undefined, { token: bob.token })).status).toBe(404);
    expect((await s.request('GET', '/api/v2/sec/mail/template/share/no-such-share', undefined, { token: alice.token })).status).toBe(404);
  });

  it('sends a rendered download mail, received with its link and password section', async () => {
    const id = (await s.request<Result>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 5, password: 'pw' }, { token: alice.token })).body.id!;
    await s.request('POST', `/api/v2/sec/share/${id}/publish`, { reuseId: false }, { token: alice.token });
    const t = (await s.request<Template>('GET', `/api/v2/sec/mail/template/share/${id}`, undefined, { token: alice.token })).body;
    const before = smtp.mails.length;
    const res = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['friend@example.test', ' other@example.test '], subject: t.subject, body: t.body }, { token: alice.token });
    expect(res.body).toEqual({ success: true, message: 'Mail successfully sent.', code: 'mail.sent' });
    const [m] = await newMails(before, 1);
    expect(m!.to.sort()).toEqual(['friend@example.test', 'other@example.test']);
    expect(m!.parsed.subject).toBe('Download ready.');
    expect(m!.parsed.text).toContain('/app/open/');
    expect(m!.parsed.text).toContain('The required password will be sent by other means.');
    // without default-from: the user's address, the login as the name
    expect(m!.parsed.from?.value[0]).toEqual({ address: 'alice@example.test', name: 'alice' });
    expect(m!.parsed.replyTo).toBeUndefined();
    expect(listId(m!)).toBe('<pier-test>');
  });

  it('renders the alias template for the owner and members only', async () => {
    const aliasId = await createAlias(s, dave, { name: 'Dave box', members: [bob.id] });
    for (const u of [dave, bob]) {
      const t = await s.request<Template>('GET', `/api/v2/sec/mail/template/alias/${aliasId}`, undefined, { token: u.token });
      expect(t.status).toBe(200);
      expect(t.body.subject).toBe('Link for Upload');
      expect(t.body.body).toContain(`${s.url}/app/share/${aliasId}`);
      expect(t.body.body).toContain(`${u.login} via Pier`);
    }
    expect((await s.request('GET', `/api/v2/sec/mail/template/alias/${aliasId}`, undefined, { token: carol.token })).status).toBe(404);
    expect((await s.request('GET', '/api/v2/sec/mail/template/alias/no-such-alias', undefined, { token: dave.token })).status).toBe(404);
  });

  it('validates what it sends', async () => {
    const bad = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['ok@example.test', 'not-an-address'], subject: 's', body: 'b' }, { token: alice.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("'not-an-address'");
    expect(bad.body.message).toContain('recipients');
    const none = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: [' '], subject: 's', body: 'b' }, { token: alice.token });
    expect(none.body).toEqual({ success: false, message: 'There are no recipients', code: 'mail.no-recipients' });
    const noSender = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['x@example.test'], subject: 's', body: 'b' }, { token: carol.token });
    expect(noSender.body).toEqual({ success: false, message: NO_SENDER, code: 'mail.no-sender' });
    for (const body of [{ subject: 's', body: 'b' }, { recipients: 'x@example.test', subject: 's', body: 'b' }, { recipients: [], body: 'b' }]) {
      const res = await s.request('POST', '/api/v2/sec/mail/send', body, { token: alice.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await s.request('POST', '/api/v2/sec/mail/send', { recipients: ['x@example.test'], subject: 's', body: 'b' })).status).toBe(401);
  });
});

describe('mail with default-from', () => {
  let smtp: SmtpCapture;
  let s: TestServer;

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({ config: { backend: { mail: mailConfig(smtp.port, { 'default-from': 'Pier <pier@example.test>', 'list-id': '' }) } } });
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  it('sends from default-from with the user as Reply-To, and without List-Id when it is empty', async () => {
    const admin = await adminUser(s);
    const noMail = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['x@example.test'], subject: 'Hi', body: 'Text' }, { token: admin.token });
    expect(noMail.body.success).toBe(true);
    await setEmail(s, admin, 'admin@example.test');
    const res = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['y@example.test'], subject: 'Hi', body: 'Text' }, { token: admin.token });
    expect(res.body.success).toBe(true);
    const [first, second] = await smtp.waitFor(2);
    expect(first!.parsed.from?.value[0]).toEqual({ address: 'pier@example.test', name: 'Pier' });
    expect(first!.parsed.replyTo).toBeUndefined();
    expect(second!.parsed.replyTo?.value[0]?.address).toBe('admin@example.test');
    expect(listId(second!)).toBeUndefined();
    expect(second!.parsed.text?.trim()).toBe('Text');
  });
});

describe('mail disabled', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('answers with clear results and still renders templates', async () => {
    const alice = await createUser(s, 'alice', 'alice@example.test');
    const res = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['x@example.test'], subject: 's', body: 'b' }, { token: alice.token });
    expect(res.body).toEqual({ success: false, message: 'The mail feature is disabled', code: 'mail.disabled' });
    const aliasId = await createAlias(s, alice);
    const shareId = await guestShare(s, aliasId);
    const notify = await s.request<Result>('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: guest(aliasId) });
    expect(notify.body).toEqual({ success: false, message: 'Mail feature is disabled.', code: 'mail.disabled' });
    expect((await s.request('GET', `/api/v2/sec/mail/template/alias/${aliasId}`, undefined, { token: alice.token })).status).toBe(200);
    expect((await s.request<{ mailEnabled: boolean }>('GET', '/api/v2/open/info/appconfig')).body.mailEnabled).toBe(false);
  });
});
