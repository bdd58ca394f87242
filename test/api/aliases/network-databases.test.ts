import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../server/index.js';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';
import { startServer, type TestServer } from '../../support/server.js';
import type { DatabaseInstance } from '../../support/system.js';
import { bytes, createAlias, createUser, DAY, guest, guestShare, guestTusUpload, type AliasBody, type Result, type User } from './support.js';

// The alias queries (membership lists, the move to a new id in one
// transaction, the deletion, the counts of the upload event) on the two
// network databases.
describe.each([
  ['PostgreSQL', startPostgres],
  ['MariaDB', startMariadb],
] as const)('aliases on %s', (_name, startDb) => {
  let db: DatabaseInstance;
  let s: TestServer;
  let alice: User;
  let bob: User;
  const events: ServerEvent[] = [];

  beforeAll(async () => {
    db = await startDb('pier_aliases_test');
    s = await startServer({ config: { backend: { jdbc: { url: db.url, user: db.user, password: db.password } } } });
    s.events.subscribe((e) => events.push(e));
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await db?.stop();
  });

  it('creates, lists, moves and deletes an alias with members and shares', async () => {
    const id = await createAlias(s, alice, { id: 'net-box', name: 'Network box', members: [bob.id] });
    const shareId = await guestShare(s, id);
    await guestTusUpload(s, id, shareId, bytes(3000), 'a.bin');
    await guestTusUpload(s, id, shareId, bytes(4, 5), 'b.bin');
    await s.request('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: guest(id) });
    expect(events).toEqual([{ type: 'guest-upload-completed', shareId, aliasId: id, aliasName: 'Network box', shareName: expect.stringMatching(/^2 files · /), fileCount: 2, totalSize: 3004 }]);

    const listed = await s.request<{ items: AliasBody[] }>('GET', '/api/v2/sec/alias?q=NETWORK', undefined, { token: bob.token });
    expect(listed.body.items.map((a) => a.id)).toEqual([id]);
    const moved = await s.request<Result>('POST', `/api/v2/sec/alias/${id}`, { id: 'net-box-2', name: 'Moved', validity: DAY, enabled: true, members: [bob.id] }, { token: alice.token });
    expect(moved.body).toEqual({ success: true, message: 'Alias successfully modified.', code: 'alias.modified', id: 'net-box-2' });
    const share = await s.request<{ aliasId: string }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: bob.token });
    expect(share.body.aliasId).toBe('net-box-2');
    const taken = await s.request<Result>('POST', '/api/v2/sec/alias', { id: 'net-box-2', name: 'x', validity: DAY, enabled: true }, { token: bob.token });
    expect(taken.body.success).toBe(false);

    expect((await s.request<Result>('DELETE', '/api/v2/sec/alias/net-box-2', undefined, { token: alice.token })).body).toEqual({ success: true, message: 'Alias deleted.', code: 'alias.deleted' });
    const after = await s.request<{ aliasId: string | null }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: alice.token });
    expect(after.body.aliasId).toBeNull();
    expect((await s.request('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: bob.token })).status).toBe(404);
  });
});
