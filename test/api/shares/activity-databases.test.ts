// The activity log's queries (insert with folding beyond the limit, recipient
// numbering, the summary's sums, the hourly mail claim, the list's downloaded
// date, deletion with the share) on the two network databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';
import { fetchRaw, publish, shareDetail, shareWithFiles, withDatabase } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import type { DatabaseInstance } from '../../support/system.js';

interface Page {
  items: Array<{ kind: string; recipient: number | null; complete: boolean; bytes: number }>;
  earlier: { entries: number; until: number | null };
}

describe.each([
  ['PostgreSQL', startPostgres],
  ['MariaDB', startMariadb],
] as const)('share activity on %s', (_name, startDb) => {
  let db: DatabaseInstance;
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    db = await startDb('pier_activity_test');
    s = await startServer({ config: { backend: { jdbc: { url: db.url, user: db.user, password: db.password } }, limits: { 'activity-entries': 10 } } });
    token = await s.login(ADMIN.login, ADMIN.password);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await db?.stop();
  });

  it('logs views, downloads and ZIPs per recipient, folds beyond the limit and goes with the share', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'hello' }], { maxViews: 50 });
    const pid = await publish(s, token, id);
    expect((await s.request('POST', `/api/v2/sec/share/${id}/notify`, { value: true }, { token })).status).toBe(200);
    const first = await s.request('GET', `/api/v2/open/share/${pid}`);
    const cookie = first.headers.getSetCookie().find((h) => h.startsWith('service_share='))!.split(';')[0]!;
    expect(await (await fetchRaw(s, `/api/v2/open/share/${pid}/file/${files['a.txt']!.id}`, { headers: { Cookie: cookie } })).text()).toBe('hello');
    await (await fetchRaw(s, `/api/v2/open/share/${pid}/zip`, { headers: { Cookie: cookie } })).arrayBuffer();
    for (let i = 0; i < 10; i++) expect((await s.request('GET', `/api/v2/open/share/${pid}`)).status).toBe(200);
    const end = Date.now() + 5000;
    let page: Page;
    do {
      page = (await s.request<Page>('GET', `/api/v2/sec/share/${id}/activity?pageSize=5`, undefined, { token })).body;
    } while (page.earlier.entries < 3 && Date.now() < end);
    expect(page.items).toHaveLength(5);
    expect(page.earlier.entries).toBe(3);
    const detail = await shareDetail(s, token, id);
    expect(detail.activity).toMatchObject({ recipients: 11, downloads: 2 });
    expect(detail.notifyOnDownload).toBe(true);
    const list = await s.request<{ items: Array<{ id: string; downloaded: number | null }> }>('GET', '/api/v2/sec/share/search', undefined, { token });
    expect(list.body.items.find((i) => i.id === id)!.downloaded).toEqual(expect.any(Number));

    expect((await s.request('DELETE', `/api/v2/sec/share/${id}`, undefined, { token })).status).toBe(200);
    expect(await withDatabase(s, (d) => d.selectFrom('share_activity').select('id').where('share_id', '=', id).execute())).toEqual([]);
  });
});
