// First publishes at the same time, on each database: requests for one share give one publication,
// two shares published at once get one publication each, never a 500. With reuseId true every
// request finds the same publish id after its answer; with reuseId false a request the server
// takes after another one's commit is a "new link" and may replace the id, but the share keeps
// one publication. Before, on MariaDB concurrent publishes with reuseId false deadlocked into a
// 500, and on PostgreSQL a request whose insert lost the race retried as a republish.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/connect.js';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';
import { createShare, shareDetail } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import type { DatabaseInstance } from '../../support/system.js';

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', startPostgres],
  ['MariaDB', startMariadb],
] as const)('concurrent first publishes on %s', (_name, startDb) => {
  let db: DatabaseInstance | undefined;
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    db = await startDb?.('pier_publish_test');
    s = await startServer({ config: db ? { backend: { jdbc: { url: db.url, user: db.user, password: db.password } } } : {} });
    token = await s.login(ADMIN.login, ADMIN.password);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await db?.stop();
  });

  /** The publish rows of the shares, counted in the database. */
  const publications = async (shares: string[]): Promise<number> => {
    const conn = await openDatabase(db ? { url: db.url, user: db.user, password: db.password } : { url: `jdbc:sqlite:${join(s.dataDir, 'pier.db')}`, user: '', password: '' });
    try {
      const rows = await conn.db.selectFrom('publish_shares').select('id').where('share_id', 'in', shares).execute();
      return rows.length;
    } finally {
      await conn.close();
    }
  };

  /** Publishes, then reads the publish id the owner sees right after the answer. */
  const publishAndRead = async (id: string, reuseId: boolean) => {
    const res = await s.request('POST', `/api/v2/sec/share/${id}/publish`, { reuseId }, { token });
    return { status: res.status, body: res.body, pid: (await shareDetail(s, token, id)).publishInfo?.id };
  };

  it.each([true, false])('gives each share one publication and no error (reuseId %s; with true every request finds the same id)', async (reuseId) => {
    const shares = [await createShare(s, token), await createShare(s, token)];
    const answers = await Promise.all(shares.flatMap((id) => Array.from({ length: 4 }, async () => ({ id, ...(await publishAndRead(id, reuseId)) }))));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ success: true, message: 'Share published.', code: 'share.published' });
    }
    const finals: string[] = [];
    for (const id of shares) {
      const detail = await shareDetail(s, token, id);
      expect(detail.publishInfo).toMatchObject({ enabled: true, views: 0 });
      const pid = detail.publishInfo!.id;
      finals.push(pid);
      if (reuseId) expect(new Set(answers.filter((a) => a.id === id).map((a) => a.pid))).toEqual(new Set([pid]));
      expect((await s.request('GET', `/api/v2/open/share/${pid}`)).status).toBe(200);
    }
    expect(finals[0]).not.toBe(finals[1]);
    expect(await publications(shares)).toBe(2);
  });
});
