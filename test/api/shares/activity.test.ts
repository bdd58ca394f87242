// Receipts: every share keeps a log of what happened to it. A recipient who views,
// reloads and downloads is one recipient with one view and one complete download;
// a second browser is a second recipient; a client that aborts halfway and a range
// that does not cover the file are not complete; link previews, the owner and
// members are never logged and previews never use up a view; the log goes with the
// share and is bounded; only the owner and members read it.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import type { ServerEvent } from '../../../server/core/events/events.js';
import { fetchRaw, publish, shareDetail, shareWithFiles, withDatabase } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { mailConfig, startSmtp, type SmtpCapture } from '../../support/smtp.js';
import { adminUser, createAlias, createUser, guest, guestShare, multipartForm, postForm, setEmail, type User } from '../aliases/support.js';

interface Item {
  at: number;
  kind: string;
  recipient: number | null;
  fileId: string | null;
  bytes: number;
  complete: boolean;
  client: string;
  address: string;
  sender: string | null;
}
interface Page {
  items: Item[];
  earlier: { entries: number; until: number | null };
}

const FIREFOX = 'Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

const cookieOf = (res: { headers: Headers }): string | undefined =>
  res.headers
    .getSetCookie()
    .find((h) => h.startsWith('service_share='))
    ?.split(';')[0];

const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 30));
  }
};

describe('the activity log of a share', () => {
  let s: TestServer;
  let smtp: SmtpCapture;
  let owner: User;
  const clock = manualClock(Date.UTC(2030, 0, 1, 12));
  const events: ServerEvent[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({ clock, config: { backend: { mail: mailConfig(smtp.port) }, limits: { 'activity-entries': 10 } } });
    s.events.subscribe((e) => events.push(e));
    owner = await adminUser(s);
    await setEmail(s, owner, 'owner@example.test');
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  const log = (id: string, token = owner.token) => s.request<Page>('GET', `/api/v2/sec/share/${id}/activity`, undefined, { token });
  const logOf = async (id: string, n: number) => (await until(() => log(id), (r) => r.body.items?.length >= n)).body;
  const open = (pid: string, headers: Record<string, string> = {}) => s.request('GET', `/api/v2/open/share/${pid}`, undefined, { headers });
  const file = (pid: string, fid: string, headers: Record<string, string> = {}) => fetchRaw(s, `/api/v2/open/share/${pid}/file/${fid}`, { headers });

  it('counts one recipient with one view and one complete download across a reload, and a second browser as a second recipient', async () => {
    const { id, files } = await shareWithFiles(s, owner.token, [{ name: 'photo.jpg', content: 'x'.repeat(5000), type: 'image/jpeg' }], { name: 'Holiday' });
    const pid = await publish(s, owner.token, id);
    const first = await open(pid, { 'User-Agent': FIREFOX });
    expect(first.status).toBe(200);
    const cookie = cookieOf(first)!;
    clock.advance(1000);
    expect((await open(pid, { 'User-Agent': FIREFOX, Cookie: cookie })).status).toBe(200);
    const dl = await file(pid, files['photo.jpg']!.id, { 'User-Agent': FIREFOX, Cookie: cookie });
    expect((await dl.arrayBuffer()).byteLength).toBe(5000);
    await logOf(id, 2);
    clock.advance(1000);
    expect((await open(pid, { 'User-Agent': SAFARI })).status).toBe(200);

    const page = await logOf(id, 3);
    expect(page.items.map((i) => [i.kind, i.recipient, i.complete, i.client])).toEqual([
      ['view', 2, false, 'Safari on iPhone'],
      ['download', 1, true, 'Firefox on Android'],
      ['view', 1, false, 'Firefox on Android'],
    ]);
    expect(page.items[1]).toMatchObject({ fileId: files['photo.jpg']!.id, bytes: 5000, address: '127.0.0.1' });
    const d = await shareDetail(s, owner.token, id);
    expect(d.activity).toEqual({ recipients: 2, downloads: 1, lastAt: clock.now() });
    expect(d.publishInfo!.views).toBe(2);
    const list = await s.request<{ items: { id: string; downloaded: number | null }[] }>('GET', '/api/v2/sec/share/search', undefined, { token: owner.token });
    expect(list.body.items.find((i) => i.id === id)!.downloaded).toBe(clock.now() - 1000);
  });

  it('logs a download the client aborted halfway, and a range that does not cover the file, as not complete', async () => {
    const size = 32 * 1024 * 1024;
    const { id, files } = await shareWithFiles(s, owner.token, [
      { name: 'big.bin', content: new Uint8Array(size).fill(1) },
      { name: 'small.txt', content: 'abcdefghijklmnopqrstuvwxyz' },
    ]);
    const pid = await publish(s, owner.token, id);
    const cookie = cookieOf(await open(pid))!;
    // a real socket destroyed mid-body
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${s.url}/api/v2/open/share/${pid}/file/${files['big.bin']!.id}`, { headers: { Cookie: cookie, 'User-Agent': 'curl/8.5.0' } }, (res) => {
        let got = 0;
        res.on('data', (c: Buffer) => {
          got += c.length;
          if (got > 1024 * 1024) {
            req.destroy();
            resolve();
          }
        });
        res.on('end', () => reject(new Error('the whole file came')));
      });
      req.on('error', () => resolve());
      req.end();
    });
    const range = await file(pid, files['small.txt']!.id, { Cookie: cookie, Range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe('abcdefghij');
    const whole = await file(pid, files['small.txt']!.id, { Cookie: cookie, Range: 'bytes=0-25' });
    expect(await whole.text()).toHaveLength(26);

    const page = await logOf(id, 4);
    const downloads = page.items.filter((i) => i.kind === 'download');
    const big = downloads.find((i) => i.fileId === files['big.bin']!.id)!;
    expect(big.complete).toBe(false);
    expect(big.bytes).toBeLessThan(size);
    expect(big.client).toBe('curl');
    const small = downloads.filter((i) => i.fileId === files['small.txt']!.id).map((i) => [i.bytes, i.complete]);
    expect(small.sort()).toEqual([
      [10, false],
      [26, true],
    ]);
    expect(new Set(page.items.map((i) => i.recipient))).toEqual(new Set([1]));
  });

  it('logs a ZIP, raises share-downloaded once and mails the owner who asked at most once an hour', async () => {
    const { id } = await shareWithFiles(s, owner.token, [{ name: 'a.txt', content: 'a' }, { name: 'b.txt', content: 'b' }], { name: 'Contract' });
    const pid = await publish(s, owner.token, id);
    const on = await s.request('POST', `/api/v2/sec/share/${id}/notify`, { value: true }, { token: owner.token });
    expect(on.body).toMatchObject({ success: true, code: 'share.notify-updated' });
    expect((await shareDetail(s, owner.token, id)).notifyOnDownload).toBe(true);
    const mailsBefore = smtp.mails.length;

    const zip = await fetchRaw(s, `/api/v2/open/share/${pid}/zip`, { headers: { 'User-Agent': FIREFOX } });
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    const page = await logOf(id, 1);
    expect(page.items[0]).toMatchObject({ kind: 'zip', recipient: 1, complete: true });
    const mails = await smtp.waitFor(mailsBefore + 1);
    expect(mails[mailsBefore]!.to).toEqual(['owner@example.test']);
    expect(mails[mailsBefore]!.parsed.text).toContain(`/app/upload/${id}`);
    expect(mails[mailsBefore]!.parsed.text).toContain('Contract');
    await until(async () => events.filter((e) => e.type === 'share-downloaded' && e.shareId === id).length, (n) => n === 1);

    // a second download within the hour: no event, no mail
    await (await fetchRaw(s, `/api/v2/open/share/${pid}/zip`)).arrayBuffer();
    await logOf(id, 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(mailsBefore + 1);
    // an hour later: one more mail, still one event
    clock.advance(3_600_001);
    await (await fetchRaw(s, `/api/v2/open/share/${pid}/zip`)).arrayBuffer();
    await smtp.waitFor(mailsBefore + 2);
    expect(events.filter((e) => e.type === 'share-downloaded' && e.shareId === id)).toHaveLength(1);
    expect(events.find((e) => e.type === 'share-downloaded' && e.shareId === id)).toMatchObject({ shareName: 'Contract', fileName: null });
    // the session of the owner ended with the hour
    owner = { ...owner, token: await s.login(ADMIN.login, ADMIN.password) };
  });

  it('never logs or counts a link preview on any route, even with maxViews 1', async () => {
    const { id, files } = await shareWithFiles(s, owner.token, [{ name: 'a.txt', content: 'a' }], { maxViews: 1 });
    const pid = await publish(s, owner.token, id);
    const page = await fetchRaw(s, `/app/open/${pid}`, { headers: { 'User-Agent': SLACK } });
    expect(page.status).toBe(200);
    expect((await open(pid, { 'User-Agent': SLACK })).status).toBe(403);
    expect((await file(pid, files['a.txt']!.id, { 'User-Agent': SLACK })).status).toBe(403);
    expect((await fetchRaw(s, `/api/v2/open/share/${pid}/zip`, { headers: { 'User-Agent': SLACK } })).status).toBe(403);
    expect((await shareDetail(s, owner.token, id)).publishInfo!.views).toBe(0);
    expect((await log(id)).body.items).toEqual([]);
    // the one view is still there for the person
    expect((await open(pid, { 'User-Agent': FIREFOX })).status).toBe(200);
    expect((await logOf(id, 1)).items[0]).toMatchObject({ kind: 'view', recipient: 1 });
  });

  it("does not log the owner's own requests, shows the log to members and is a 404 for strangers", async () => {
    const alice = await createUser(s, 'alice-activity');
    const bob = await createUser(s, 'bob-activity');
    const stranger = await createUser(s, 'eve-activity');
    const aliasId = await createAlias(s, alice, { members: [bob.id] });
    const shareId = await guestShare(s, aliasId);
    const up = await postForm(s, `/api/v2/alias/upload/${shareId}/files/add`, guest(aliasId), multipartForm(undefined, [{ name: 'scan.pdf', content: 'pdf' }]));
    expect(up.body.success, up.text).toBe(true);
    const pid = await publish(s, alice.token, shareId);
    const fid = (await shareDetail(s, alice.token, shareId)).files[0]!.id;

    // owner and member, signed in, on the public routes and the owner's route
    for (const u of [alice, bob]) {
      expect((await s.request('GET', `/api/v2/open/share/${pid}`, undefined, { token: u.token })).status).toBe(200);
      expect((await fetchRaw(s, `/api/v2/open/share/${pid}/file/${fid}`, { headers: { 'Service-Auth': u.token } })).status).toBe(200);
      expect((await fetchRaw(s, `/api/v2/sec/share/${shareId}/file/${fid}`, { headers: { 'Service-Auth': u.token } })).status).toBe(200);
    }
    const byMember = await until(() => log(shareId, bob.token), (r) => r.body.items?.length >= 1);
    expect(byMember.status).toBe(200);
    expect(byMember.body.items.map((i) => i.kind)).toEqual(['upload']);
    expect((await shareDetail(s, alice.token, shareId)).publishInfo!.views).toBe(0);

    expect((await log(shareId, stranger.token)).status).toBe(404);
    expect((await s.request('GET', `/api/v2/sec/share/${shareId}/activity`)).status).toBe(401);
    expect((await s.request('POST', `/api/v2/sec/share/${shareId}/notify`, { value: true }, { token: stranger.token })).status).toBe(404);
    // the public detail carries no receipts
    const pub = await s.request<{ activity: unknown; notifyOnDownload: unknown }>('GET', `/api/v2/open/share/${pid}`);
    expect([pub.body.activity, pub.body.notifyOnDownload]).toEqual([null, null]);
  });

  it('keeps at most the configured number of entries, folding the oldest, and goes with the share', async () => {
    const { id } = await shareWithFiles(s, owner.token, [{ name: 'a.txt', content: 'a' }], { maxViews: 100 });
    const pid = await publish(s, owner.token, id);
    for (let i = 0; i < 14; i++) {
      clock.advance(1000);
      expect((await open(pid)).status).toBe(200);
    }
    const page = await logOf(id, 10);
    expect(page.items).toHaveLength(10);
    expect(page.earlier.entries).toBe(4);
    expect((await shareDetail(s, owner.token, id)).activity!.recipients).toBe(14);

    expect((await s.request('DELETE', `/api/v2/sec/share/${id}`, undefined, { token: owner.token })).status).toBe(200);
    const left = await withDatabase(s, (db) => db.selectFrom('share_activity').select('id').where('share_id', '=', id).execute());
    expect(left).toEqual([]);
  });

  it('goes with a share the cleanup removes', async () => {
    const { id } = await shareWithFiles(s, owner.token, [{ name: 'a.txt', content: 'a' }], { validity: 86_400_000 });
    const pid = await publish(s, owner.token, id);
    expect((await open(pid)).status).toBe(200);
    await logOf(id, 1);
    clock.advance(10 * 86_400_000);
    await s.runCleanup();
    const left = await withDatabase(s, (db) => db.selectFrom('share_activity').select('id').where('share_id', '=', id).execute());
    expect(left).toEqual([]);
    expect(await withDatabase(s, (db) => db.selectFrom('shares').select('id').where('id', '=', id).execute())).toEqual([]);
  });
});

