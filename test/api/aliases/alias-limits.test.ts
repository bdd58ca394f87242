import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { startServer, type TestServer } from '../../support/server.js';
import { mailConfig, startSmtp, type SmtpCapture } from '../../support/smtp.js';
import { createAlias, createUser, guest, HOUR, multipartForm, postForm, type Result, type User } from './support.js';

// Any holder of an upload link could make Pier mail the alias' owner and
// members without end: every `POST /alias/mail/notify/{shareId}` sent a new
// round of mails, for the same share again and again and for as many shares as
// the guest cared to create. Now a share is announced by mail at most once, and
// an alias' guests trigger at most `alias-mails-per-hour` notifications an hour;
// beyond that the upload stands and the mail is skipped and logged.
describe('notification mails triggered by guests', () => {
  const clock = manualClock();
  let smtp: SmtpCapture;
  let s: TestServer;
  let alice: User;

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({
      clock,
      // sessions that outlive the hour this test moves the clock by
      config: { backend: { mail: mailConfig(smtp.port), auth: { 'session-valid': '30 days', 'session-max': '30 days' } }, limits: { 'alias-mails-per-hour': 2 } },
    });
    alice = await createUser(s, 'alice', 'alice@example.test');
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  /** A guest's multipart upload of one file; the new share's id. */
  const upload = async (aliasId: string, name = 'a.txt'): Promise<string> => {
    const r = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm(undefined, [{ name, content: 'hello' }]));
    expect(r.body.success, r.text).toBe(true);
    return r.body.id!;
  };
  const notify = (aliasId: string, shareId: string) =>
    s.request<Result>('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: guest(aliasId) });
  /** Gives a mail that might still be on its way time to arrive, then counts. */
  const mailsSoon = async (): Promise<number> => {
    await new Promise((r) => setTimeout(r, 200));
    return smtp.mails.length;
  };

  it('mails about a share once, however often the guest asks', async () => {
    const aliasId = await createAlias(s, alice);
    const shareId = await upload(aliasId);
    const before = smtp.mails.length;
    expect((await notify(aliasId, shareId)).body).toEqual({ success: true, message: 'Mail sent', code: 'mail.sent' });
    await smtp.waitFor(before + 1);
    const again = await Promise.all([1, 2, 3].map(() => notify(aliasId, shareId)));
    for (const r of again) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: false, message: 'The owner was already notified about this share; no mail sent.', code: 'mail.already-notified' });
    }
    expect(await mailsSoon()).toBe(before + 1);
    expect(s.logs()).toContain('Upload notification skipped');
  });

  it('sends at most alias-mails-per-hour notifications per upload link, even in a parallel burst; the uploads stand', async () => {
    const aliasId = await createAlias(s, alice);
    const shares = [await upload(aliasId, 'one.txt'), await upload(aliasId, 'two.txt'), await upload(aliasId, 'three.txt'), await upload(aliasId, 'four.txt')];
    const before = smtp.mails.length;
    const answers = await Promise.all(shares.map((id) => notify(aliasId, id)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((r) => r.body.success)).toHaveLength(2);
    for (const r of answers.filter((a) => !a.body.success)) {
      expect(r.body.message).toBe('This upload link has sent too many notifications in the last hour; no mail sent.');
    }
    expect(await mailsSoon()).toBe(before + 2);
    // every upload is there for the owner, mailed or not
    for (const id of shares) {
      const d = await s.request<{ files: unknown[] }>('GET', `/api/v2/sec/share/${id}`, undefined, { token: alice.token });
      expect(d.body.files).toHaveLength(1);
    }
    // another upload link has its own allowance
    const other = await createAlias(s, alice);
    expect((await notify(other, await upload(other))).body.success).toBe(true);

    // an hour later the link may notify again, but a share already announced stays announced
    clock.advance(HOUR + 1000);
    const later = await upload(aliasId, 'five.txt');
    expect((await notify(aliasId, later)).body).toEqual({ success: true, message: 'Mail sent', code: 'mail.sent' });
    const skipped = answers.findIndex((r) => !r.body.success);
    expect((await notify(aliasId, shares[skipped]!)).body.success).toBe(true);
    expect((await notify(aliasId, shares[answers.findIndex((r) => r.body.success)]!)).body.success).toBe(false);
    expect(await mailsSoon()).toBe(before + 5);
  });
});
