import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { closedPort, mailConfig, startSilentServer, startSmtp, type SmtpCapture } from '../../support/smtp.js';
import { bytes, createAlias, createUser, guest, guestShare, guestTusUpload, multipartForm, postForm, type Result, type User } from '../aliases/support.js';

interface Detail {
  files: { filename: string; size: number; storedSize: number }[];
}

/** A guest upload of two files with tus, then the guest page's notify call. */
const uploadAndNotify = async (s: TestServer, aliasId: string) => {
  const shareId = await guestShare(s, aliasId);
  await guestTusUpload(s, aliasId, shareId, bytes(100_000), 'one.bin');
  await guestTusUpload(s, aliasId, shareId, bytes(10, 2), 'two.bin');
  const started = Date.now();
  const res = await s.request<Result>('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: guest(aliasId) });
  return { shareId, res, ms: Date.now() - started };
};

/** The upload is complete: both files fully stored and visible to the owner. */
const expectComplete = async (s: TestServer, owner: User, shareId: string) => {
  const d = await s.request<Detail>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: owner.token });
  expect(d.status).toBe(200);
  expect(d.body.files.map((f) => [f.filename, f.size, f.storedSize]).sort()).toEqual([
    ['one.bin', 100_000, 100_000],
    ['two.bin', 10, 10],
  ]);
};

describe('the SMTP server is down', () => {
  let s: TestServer;
  let alice: User;

  beforeAll(async () => {
    s = await startServer({ config: { backend: { mail: mailConfig(await closedPort()) } } });
    alice = await createUser(s, 'alice', 'alice@example.test');
  });
  afterAll(() => s.stop());

  it('leaves the upload complete, says the notification failed and logs why', async () => {
    const aliasId = await createAlias(s, alice);
    const { shareId, res } = await uploadAndNotify(s, aliasId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, message: 'Sending failed to all recipients (1)', code: 'mail.failed' });
    await expectComplete(s, alice, shareId);
    expect(s.logs()).toContain('Sending the upload notification failed');
    expect(s.logs()).toContain('ECONNREFUSED');
    // multipart guest uploads never wait for mail
    const multipart = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm(undefined, [{ name: 'x.txt', content: 'x' }]));
    expect(multipart.body).toMatchObject({ success: true, message: 'Share created.' });
  });

  it('answers a failed send with the reason', async () => {
    const res = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['x@example.test'], subject: 's', body: 'b' }, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(/^Mail sending failed: .*ECONNREFUSED/);
    expect(s.logs()).toContain('Sending a mail failed');
  });
});

describe('the SMTP server refuses a recipient', () => {
  let smtp: SmtpCapture;
  let s: TestServer;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    smtp = await startSmtp({ refuse: ['alice@example.test'] });
    s = await startServer({ config: { backend: { mail: mailConfig(smtp.port, { 'default-from': 'pier@example.test' }) } } });
    alice = await createUser(s, 'alice', 'alice@example.test');
    bob = await createUser(s, 'bob', 'bob@example.test');
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  it('notifies the others, reports the partial failure and keeps the upload', async () => {
    const aliasId = await createAlias(s, alice, { members: [bob.id] });
    const { shareId, res } = await uploadAndNotify(s, aliasId);
    expect(res.body).toEqual({ success: true, message: 'Sending succeeded for 1, but failed for 1 recipients', code: 'mail.partly-sent' });
    const mails = await smtp.waitFor(1);
    expect(mails.map((m) => m.to)).toEqual([['bob@example.test']]);
    await expectComplete(s, alice, shareId);
    expect(s.logs()).toContain('Mailbox unavailable');
  });

  it('reports a notification refused for everybody, with the upload still complete', async () => {
    const aliasId = await createAlias(s, alice);
    const { shareId, res } = await uploadAndNotify(s, aliasId);
    expect(res.body).toEqual({ success: false, message: 'Sending failed to all recipients (1)', code: 'mail.failed' });
    await expectComplete(s, alice, shareId);
  });

  it('sends to the accepted recipients of a mail and names the refused ones', async () => {
    const before = smtp.mails.length;
    const res = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['alice@example.test', 'carl@example.test'], subject: 's', body: 'b' }, { token: bob.token });
    expect(res.body).toEqual({ success: true, message: 'Mail successfully sent, but these recipients were refused: alice@example.test', code: 'mail.partly-sent' });
    const mails = await smtp.waitFor(before + 1);
    expect(mails[before]!.to).toEqual(['carl@example.test']);
    const all = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['alice@example.test'], subject: 's', body: 'b' }, { token: bob.token });
    expect(all.body.success).toBe(false);
    expect(all.body.message).toMatch(/^Mail sending failed: .*Mailbox unavailable/);
  });
});

describe('the SMTP server never answers', () => {
  let silent: { port: number; stop(): Promise<void> };
  let s: TestServer;
  let alice: User;

  beforeAll(async () => {
    silent = await startSilentServer();
    s = await startServer({ config: { backend: { mail: mailConfig(silent.port, { timeout: '1 second' }) } } });
    alice = await createUser(s, 'alice', 'alice@example.test');
  });
  afterAll(async () => {
    await s.stop();
    await silent.stop();
  });

  it('gives up after the configured timeout; the upload stays complete', async () => {
    const aliasId = await createAlias(s, alice);
    const { shareId, res, ms } = await uploadAndNotify(s, aliasId);
    expect(res.body).toEqual({ success: false, message: 'Sending failed to all recipients (1)', code: 'mail.failed' });
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
    await expectComplete(s, alice, shareId);
    const line = s.logs().split('\n').find((l) => l.includes('Sending the upload notification failed'));
    expect(line).toMatch(/Greeting never received|Timeout/i);
  });
});
