/**
 * Transport security against the local SMTP server with a self-signed
 * certificate: STARTTLS and implicit TLS are accepted with
 * `check-certificates = false` and refused with `true`; `ssl-type = none`
 * never upgrades; `starttls` refuses a server without STARTTLS; user and
 * password authenticate.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { mailConfig, startSmtp, type SmtpCapture, type SmtpOptions } from '../../support/smtp.js';
import type { Result } from '../aliases/support.js';

const FROM = 'pier@example.test';

/** Sends one mail through a Pier server configured with `smtp` against a capture server of `opts`. */
const sendThrough = async (opts: SmtpOptions, smtp: Record<string, unknown>): Promise<{ res: Result; capture: SmtpCapture; logs: string }> => {
  const capture = await startSmtp(opts);
  const s: TestServer = await startServer({ config: { backend: { mail: mailConfig(capture.port, { 'default-from': FROM, ...smtp }) } } });
  try {
    const token = await s.login('admin', 'admin-test-password');
    const r = await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['to@example.test'], subject: 'TLS', body: 'over TLS' }, { token });
    expect(r.status).toBe(200);
    return { res: r.body, capture, logs: s.logs() };
  } finally {
    await s.stop();
    await capture.stop();
  }
};

describe('SMTP transport security', () => {
  it('STARTTLS with a self-signed certificate: accepted without certificate checks', async () => {
    const { res, capture } = await sendThrough({ tls: 'starttls' }, { 'ssl-type': 'starttls', 'check-certificates': false });
    expect(res).toEqual({ success: true, message: 'Mail successfully sent.', code: 'mail.sent' });
    expect(capture.mails).toHaveLength(1);
    expect(capture.mails[0]!.secure).toBe(true);
    expect(capture.mails[0]!.parsed.subject).toBe('TLS');
  });

  it('STARTTLS with a self-signed certificate: refused with certificate checks', async () => {
    const { res, capture, logs } = await sendThrough({ tls: 'starttls' }, { 'ssl-type': 'starttls', 'check-certificates': true });
    expect(res.success).toBe(false);
    expect(res.message).toMatch(/^Mail sending failed: .*(self[- ]signed|certificate)/i);
    expect(capture.mails).toHaveLength(0);
    expect(logs).toContain('Sending a mail failed');
  });

  it('implicit TLS with a self-signed certificate: accepted without certificate checks', async () => {
    const { res, capture } = await sendThrough({ tls: 'implicit' }, { 'ssl-type': 'ssl', 'check-certificates': false });
    expect(res).toEqual({ success: true, message: 'Mail successfully sent.', code: 'mail.sent' });
    expect(capture.mails[0]!.secure).toBe(true);
  });

  it('implicit TLS with a self-signed certificate: refused with certificate checks', async () => {
    const { res, capture } = await sendThrough({ tls: 'implicit' }, { 'ssl-type': 'ssl', 'check-certificates': true });
    expect(res.success).toBe(false);
    expect(res.message).toMatch(/self[- ]signed|certificate/i);
    expect(capture.mails).toHaveLength(0);
  });

  it('ssl-type none stays in plain text even when the server offers STARTTLS', async () => {
    const { res, capture } = await sendThrough({ tls: 'starttls' }, { 'ssl-type': 'none' });
    expect(res.success).toBe(true);
    expect(capture.mails[0]!.secure).toBe(false);
  });

  it('ssl-type starttls refuses a server that cannot upgrade', async () => {
    const { res, capture } = await sendThrough({ tls: 'none' }, { 'ssl-type': 'starttls', 'check-certificates': false });
    expect(res.success).toBe(false);
    expect(capture.mails).toHaveLength(0);
  });
});

describe('SMTP authentication', () => {
  let results: { good: Result; bad: Result; mails: SmtpCapture['mails'] };

  beforeAll(async () => {
    const capture = await startSmtp({ tls: 'starttls', auth: { user: 'pier', password: 'smtp-secret' } });
    const smtp = { 'ssl-type': 'starttls', 'check-certificates': false, user: 'pier' };
    const good = await startServer({ config: { backend: { mail: mailConfig(capture.port, { ...smtp, password: 'smtp-secret', 'default-from': FROM }) } } });
    const bad = await startServer({ config: { backend: { mail: mailConfig(capture.port, { ...smtp, password: 'wrong', 'default-from': FROM }) } } });
    const send = async (s: TestServer) =>
      (
        await s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients: ['to@example.test'], subject: 'auth', body: 'b' }, { token: await s.login('admin', 'admin-test-password') })
      ).body;
    try {
      results = { good: await send(good), bad: await send(bad), mails: capture.mails };
    } finally {
      await good.stop();
      await bad.stop();
      await capture.stop();
    }
  });

  it('logs in with user and password', () => {
    expect(results.good.success).toBe(true);
    expect(results.mails).toHaveLength(1);
    expect(results.mails[0]!.user).toBe('pier');
  });

  it('reports a wrong password as a failed send', () => {
    expect(results.bad.success).toBe(false);
    expect(results.bad.message).toMatch(/Invalid (username or password|login)/i);
  });
});
