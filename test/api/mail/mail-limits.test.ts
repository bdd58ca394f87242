import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';
import { startServer, type TestServer } from '../../support/server.js';
import { closedPort, mailConfig, startSmtp, type SmtpCapture } from '../../support/smtp.js';
import type { DatabaseInstance } from '../../support/system.js';
import { createAlias, createUser, guest, HOUR, multipartForm, postForm, type Result, type User } from '../aliases/support.js';

const send = (s: TestServer, u: User, recipients: string[]) =>
  s.request<Result>('POST', '/api/v2/sec/mail/send', { recipients, subject: 'Hello', body: 'Text' }, { token: u.token });

const addresses = (n: number, tag = 'r'): string[] => Array.from({ length: n }, (_, i) => `${tag}${i}@example.test`);

const LONG_SESSIONS = { 'session-valid': '30 days', 'session-max': '30 days' };

/** Gives a mail that might still be on its way time to arrive. */
const settle = () => new Promise((r) => setTimeout(r, 200));

// `/sec/mail/send` sent whatever a signed-in account asked for, to any number
// of addresses and as often as it liked: an open relay for every account. Now
// an account may mail `mails-per-account-per-hour` recipients an hour (a mail
// to three addresses counts three), a single mail has a bounded recipient
// list, and a send beyond the allowance is 429 with Retry-After and sends nothing.
describe('mails one account may send', () => {
  const clock = manualClock();
  let smtp: SmtpCapture;
  let s: TestServer;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({
      clock,
      // sessions that outlive the hours this test moves the clock by
      config: { backend: { mail: mailConfig(smtp.port), auth: LONG_SESSIONS }, limits: { 'mails-per-account-per-hour': 5 } },
    });
    alice = await createUser(s, 'alice', 'alice@example.test');
    bob = await createUser(s, 'bob', 'bob@example.test');
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  it('counts recipients per account and hour, refuses the rest with 429 and Retry-After, and sends nothing for them', async () => {
    const before = smtp.mails.length;
    expect((await send(s, alice, addresses(3, 'a'))).body.success).toBe(true);
    clock.advance(10 * 60_000);
    const over = await send(s, alice, addresses(3, 'b'));
    expect(over.status).toBe(429);
    expect(over.body.success).toBe(false);
    // the three recipients of the first mail leave the window 50 minutes from now
    expect(Number(over.headers.get('retry-after'))).toBe(50 * 60);
    expect((await send(s, alice, addresses(2, 'c'))).body.success).toBe(true);
    expect((await send(s, alice, ['d@example.test'])).status).toBe(429);
    await settle();
    expect(smtp.mails.slice(before).flatMap((m) => m.to).sort()).toEqual([...addresses(3, 'a'), ...addresses(2, 'c')].sort());

    // another account has its own allowance
    expect((await send(s, bob, ['e@example.test'])).body.success).toBe(true);

    // once the first mail is an hour old, its three recipients are free again
    clock.advance(50 * 60_000);
    expect((await send(s, alice, addresses(4, 'f'))).status).toBe(429);
    expect((await send(s, alice, addresses(3, 'f'))).body.success).toBe(true);
  });

  it('lets no parallel burst past the allowance', async () => {
    clock.advance(2 * HOUR);
    const before = smtp.mails.length;
    const answers = await Promise.all(addresses(12, 'p').map((to) => send(s, bob, [to])));
    expect(answers.filter((r) => r.status === 200 && r.body.success)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(7);
    await settle();
    expect(smtp.mails.length).toBe(before + 5);
  });

  it('refuses a mail to more recipients than an hour allows (400 naming the field)', async () => {
    clock.advance(2 * HOUR);
    const before = smtp.mails.length;
    const r = await send(s, alice, addresses(6));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('recipients');
    expect(r.body.message).toContain('at most 5');
    await settle();
    expect(smtp.mails.length).toBe(before);
  });
});

describe('recipients of one mail', () => {
  let smtp: SmtpCapture;
  let s: TestServer;
  let alice: User;

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({ config: { backend: { mail: mailConfig(smtp.port) }, limits: { 'mails-per-account-per-hour': 1000 } } });
    alice = await createUser(s, 'alice', 'alice@example.test');
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  it('are at most 50, whatever the hourly allowance', async () => {
    const r = await send(s, alice, addresses(51));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('at most 50');
    expect((await send(s, alice, addresses(50))).body.success).toBe(true);
  });
});

describe('a mail that could not be sent', () => {
  let s: TestServer;
  let alice: User;

  beforeAll(async () => {
    s = await startServer({ config: { backend: { mail: mailConfig(await closedPort()) }, limits: { 'mails-per-account-per-hour': 1 } } });
    alice = await createUser(s, 'alice', 'alice@example.test');
  });
  afterAll(() => s.stop());

  it('does not count against the allowance', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await send(s, alice, ['x@example.test']);
      expect(r.status).toBe(200);
      expect(r.body.message).toMatch(/^Mail sending failed: /);
    }
  });
});

// The counts and row locks of both mail limits on the two network databases.
describe.each([
  ['PostgreSQL', startPostgres],
  ['MariaDB', startMariadb],
] as const)('mail limits on %s', (_name, startDb) => {
  let db: DatabaseInstance;
  let smtp: SmtpCapture;
  let s: TestServer;
  let alice: User;

  beforeAll(async () => {
    [db, smtp] = await Promise.all([startDb('pier_mail_limits_test'), startSmtp()]);
    s = await startServer({
      config: {
        backend: { jdbc: { url: db.url, user: db.user, password: db.password }, mail: mailConfig(smtp.port) },
        limits: { 'mails-per-account-per-hour': 3, 'alias-mails-per-hour': 1 },
      },
    });
    alice = await createUser(s, 'alice', 'alice@example.test');
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await Promise.all([db?.stop(), smtp?.stop()]);
  });

  it('lets no parallel burst of sends or notifications past the limits', async () => {
    const sends = await Promise.all(addresses(6).map((to) => send(s, alice, [to])));
    expect(sends.filter((r) => r.status === 200 && r.body.success)).toHaveLength(3);
    expect(sends.filter((r) => r.status === 429 && Number(r.headers.get('retry-after')) > 3500)).toHaveLength(3);

    const aliasId = await createAlias(s, alice);
    const shares: string[] = [];
    for (const name of ['a.txt', 'b.txt']) {
      const r = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm(undefined, [{ name, content: name }]));
      shares.push(r.body.id!);
    }
    const notify = (id: string) => s.request<Result>('POST', `/api/v2/alias/mail/notify/${id}`, undefined, { headers: guest(aliasId) });
    const answers = await Promise.all([...shares, ...shares].map(notify));
    expect(answers.filter((r) => r.body.success)).toHaveLength(1);
    await settle();
    expect(smtp.mails).toHaveLength(3 + 1);
  });
});
