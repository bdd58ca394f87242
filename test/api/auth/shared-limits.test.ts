/**
 * Servers sharing a PostgreSQL or MariaDB database share their rate-limit
 * counts, and logouts.
 *
 * Regression: each node counted in its own memory, so two nodes behind one
 * balancer allowed twice the limit from one address and at one account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import type { DatabaseInstance } from '../../support/system.js';

const LOGIN = '/api/v2/open/auth/login';

describe.each([
  ['PostgreSQL', startPostgres],
  ['MariaDB', startMariadb],
] as const)('two servers on one %s database', (_name, startDb) => {
  let db: DatabaseInstance;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    db = await startDb('pier_shared_limits_test');
    const config = {
      'trusted-proxies': ['127.0.0.1'],
      'rate-limit': { 'login-failures': 3, 'all-addresses': 4, signups: 2 },
      backend: { jdbc: { url: db.url, user: db.user, password: db.password }, signup: { mode: 'open' } },
    };
    a = await startServer({ config });
    b = await startServer({ config, initialAdmin: { kind: 'none' } });
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await db?.stop();
  });

  const login = (s: TestServer, account: string, password: string, address: string) =>
    s.request('POST', LOGIN, { account, password }, { headers: { 'X-Forwarded-For': address } });

  it('one address gets the limit across both servers, not on each', async () => {
    expect((await login(a, 'admin', 'wrong-1', '203.0.113.1')).status).toBe(200);
    expect((await login(b, 'admin', 'wrong-2', '203.0.113.1')).status).toBe(200);
    expect((await login(a, 'admin', 'wrong-3', '203.0.113.1')).status).toBe(200);
    expect((await login(b, 'admin', 'wrong-4', '203.0.113.1')).status).toBe(429);
    expect((await login(a, 'admin', ADMIN.password, '203.0.113.1')).status).toBe(429);
  });

  it('one login gets all-addresses guesses across both servers; the address where it signed in still gets in', async () => {
    expect((await login(a, 'admin', ADMIN.password, '198.51.100.9')).body['success']).toBe(true);
    const statuses = [];
    for (let i = 1; i <= 8; i++) statuses.push((await login(i % 2 ? a : b, 'admin', 'wrong', `10.4.0.${i}`)).status);
    // three of the four were spent by the first test's address
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4);
    expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
    expect((await login(b, 'admin', ADMIN.password, '10.4.0.99')).status).toBe(429);
    expect((await login(b, 'admin', ADMIN.password, '198.51.100.9')).body['success']).toBe(true);
  });

  it('sign-ups per address count across both servers', async () => {
    const register = (s: TestServer, login: string) =>
      s.request('POST', '/api/v2/open/signup/register', { login, password: 'a-long-password' }, { headers: { 'X-Forwarded-For': '192.0.2.77' } });
    expect((await register(a, 'first')).body['success']).toBe(true);
    expect((await register(b, 'second')).body['success']).toBe(true);
    expect((await register(a, 'third')).status).toBe(429);
    expect((await register(b, 'fourth')).status).toBe(429);
  });
});
