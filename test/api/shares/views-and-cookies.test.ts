// Regression: public file and ZIP requests without the share cookie counted no
// view, so a `maxViews=1` share could be fetched for ever through
// `/open/share/{pid}/zip` or `/file/{fid}`; and the share cookie was bound to
// the publish id alone, so it survived an unpublish and a republish under the
// same id. Now a cookie-less file or ZIP request needs an unused view and
// counts one, atomically; the cookie is bound to the publication; the
// signed-in owner and alias members never count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { fetchRaw, publish, shareDetail, shareWithFiles, type ShareDetailBody } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { createAlias, createUser, guest, type User } from '../aliases/support.js';

const DAY = 86_400_000;

/** `name=value` of the share cookie a response sets, or undefined. */
const shareCookie = (res: { headers: Headers }): string | undefined =>
  res.headers
    .getSetCookie()
    .find((h) => h.startsWith('service_share='))
    ?.split(';')[0]!
    .trim();

describe('views of public file and ZIP requests, and the share cookie', () => {
  let s: TestServer;
  let token: string;
  const clock = manualClock(Date.UTC(2030, 0, 1));
  beforeAll(async () => {
    s = await startServer({ clock });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  const open = (pid: string, headers: Record<string, string> = {}) =>
    s.request<ShareDetailBody>('GET', `/api/v2/open/share/${pid}`, undefined, { headers });
  const file = (pid: string, fid: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetchRaw(s, `/api/v2/open/share/${pid}/file/${fid}`, { method, headers });
  const zip = (pid: string, headers: Record<string, string> = {}) => fetchRaw(s, `/api/v2/open/share/${pid}/zip`, { headers });
  const views = async (id: string) => (await shareDetail(s, token, id)).publishInfo!.views;

  it('counts a view for each cookie-less ZIP or file request and refuses once the views are used up', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'abc' }], { maxViews: 1 });
    const pid = await publish(s, token, id);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await zip(pid)).status);
    expect(statuses).toEqual([200, 404, 404]);
    expect(await views(id)).toBe(1);
    expect((await file(pid, files['a.txt']!.id)).status).toBe(404);

    const other = await shareWithFiles(s, token, [{ name: 'b.txt', content: 'b' }], { maxViews: 2 });
    const otherPid = await publish(s, token, other.id);
    const fid = other.files['b.txt']!.id;
    expect((await file(otherPid, fid)).status).toBe(200);
    expect((await file(otherPid, fid, {}, 'HEAD')).status).toBe(200);
    expect((await file(otherPid, fid)).status).toBe(404);
    expect((await zip(otherPid)).status).toBe(404);
    expect((await open(otherPid)).status).toBe(404);
    expect(await views(other.id)).toBe(2);
  });

  it('asks cookie-less requests for the password before counting', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'abc' }], { maxViews: 1, password: 'pw' });
    const pid = await publish(s, token, id);
    const fid = files['a.txt']!.id;
    expect((await file(pid, fid)).status).toBe(401);
    expect((await zip(pid, { 'Service-Password': 'wrong' })).status).toBe(403);
    expect(await views(id)).toBe(0);
    expect((await file(pid, fid, { 'Service-Password': 'pw' })).status).toBe(200);
    expect(await views(id)).toBe(1);
    expect((await zip(pid, { 'Service-Password': 'pw' })).status).toBe(404);
  });

  it('lets exactly one of many parallel cookie-less requests take the last view', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'abc' }], { maxViews: 3 });
    const pid = await publish(s, token, id);
    const fid = files['a.txt']!.id;
    expect((await zip(pid)).status).toBe(200);
    expect((await file(pid, fid)).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? zip(pid) : i % 3 === 1 ? file(pid, fid) : open(pid))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(11);
    expect(await views(id)).toBe(3);
  });

  it('never counts again for the browser with the cookie: range requests, ZIPs, visits', async () => {
    const content = 'x'.repeat(1000);
    const { id, files } = await shareWithFiles(s, token, [{ name: 'v.bin', content }], { maxViews: 1, password: 'pw' });
    const pid = await publish(s, token, id);
    const fid = files['v.bin']!.id;
    const first = await open(pid, { 'Service-Password': 'pw' });
    expect(first.status).toBe(200);
    const cookie = shareCookie(first)!;
    for (let start = 0; start < 1000; start += 100) {
      const r = await file(pid, fid, { Cookie: cookie, Range: `bytes=${start}-${start + 99}` });
      expect(r.status).toBe(206);
      expect(await r.text()).toBe(content.slice(start, start + 100));
    }
    expect((await zip(pid, { Cookie: cookie })).status).toBe(200);
    expect((await open(pid, { Cookie: cookie })).status).toBe(200);
    expect(await views(id)).toBe(1);
    // others are refused: the one view is used up
    expect((await file(pid, fid, { 'Service-Password': 'pw' })).status).toBe(404);
  });

  it('sets the cookie on a counted file request, so the same browser seeking in it counts once', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'v.bin', content: 'y'.repeat(500) }], { maxViews: 1 });
    const pid = await publish(s, token, id);
    const fid = files['v.bin']!.id;
    const first = await file(pid, fid, { Range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    const cookie = shareCookie(first);
    expect(cookie).toBeDefined();
    for (const range of ['bytes=100-199', 'bytes=400-']) expect((await file(pid, fid, { Cookie: cookie!, Range: range })).status).toBe(206);
    expect(await views(id)).toBe(1);
    expect((await file(pid, fid, { Range: 'bytes=100-199' })).status).toBe(404);
  });

  it('binds the cookie to the publication: it dies with unpublish and republish under the same id', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'abc' }], { maxViews: 1, validity: DAY });
    const pid = await publish(s, token, id);
    const fid = files['a.txt']!.id;
    const cookie = shareCookie(await open(pid))!;
    expect((await file(pid, fid, { Cookie: cookie })).status).toBe(200);
    await s.request('DELETE', `/api/v2/sec/share/${id}/publish`, undefined, { token });
    expect((await file(pid, fid, { Cookie: cookie })).status).toBe(404);
    clock.advance(1000);
    expect(await publish(s, token, id, true)).toBe(pid);
    // the views are kept across publications: the one view is used up, and the old cookie no longer stands in for it
    expect((await file(pid, fid, { Cookie: cookie })).status).toBe(404);
    expect((await zip(pid, { Cookie: cookie })).status).toBe(404);
    expect((await open(pid, { Cookie: cookie })).status).toBe(404);
    // with views to spare, the old cookie is no cookie: the request counts
    await s.request('POST', `/api/v2/sec/share/${id}/maxviews`, { value: 2 }, { token });
    expect((await zip(pid, { Cookie: cookie })).status).toBe(200);
    expect(await views(id)).toBe(2);
  });

  describe('the signed-in owner and alias members', () => {
    let owner: User;
    let member: User;
    let stranger: User;
    beforeAll(async () => {
      owner = await createUser(s, 'viewowner');
      member = await createUser(s, 'viewmember');
      stranger = await createUser(s, 'viewstranger');
    });

    it('never count a view, by token header or cookie', async () => {
      const { id, files } = await shareWithFiles(s, owner.token, [{ name: 'a.txt', content: 'abc' }], { maxViews: 1 });
      const pid = await publish(s, owner.token, id);
      const fid = files['a.txt']!.id;
      const asOwner = { 'Service-Auth': owner.token };
      for (let i = 0; i < 3; i++) {
        expect((await open(pid, asOwner)).status).toBe(200);
        expect((await file(pid, fid, asOwner)).status).toBe(200);
        expect((await zip(pid, { Cookie: `service_auth=${owner.token}` })).status).toBe(200);
      }
      expect((await shareDetail(s, owner.token, id)).publishInfo!.views).toBe(0);
      // another signed-in user is a recipient like anyone
      expect((await zip(pid, { 'Service-Auth': stranger.token })).status).toBe(200);
      expect((await shareDetail(s, owner.token, id)).publishInfo!.views).toBe(1);
      expect((await zip(pid, { 'Service-Auth': stranger.token })).status).toBe(404);
    });

    it('a member of the alias a share came through counts nothing either', async () => {
      const aliasId = await createAlias(s, owner, { name: 'Drop box', members: [member.id] });
      const form = new FormData();
      form.append('meta', JSON.stringify({ validity: DAY, maxViews: 1 }));
      form.append('file', new Blob(['guest file']), 'g.txt');
      const up = await fetch(`${s.url}/api/v2/alias/upload`, { method: 'POST', headers: guest(aliasId), body: form });
      const shareId = ((await up.json()) as { id: string }).id;
      expect(up.status).toBe(200);
      const pid = await publish(s, member.token, shareId);
      const fid = (await shareDetail(s, member.token, shareId)).files[0]!.id;
      for (let i = 0; i < 2; i++) {
        expect((await open(pid, { 'Service-Auth': member.token })).status).toBe(200);
        expect((await file(pid, fid, { 'Service-Auth': member.token })).status).toBe(200);
        expect((await zip(pid, { 'Service-Auth': member.token })).status).toBe(200);
      }
      expect((await shareDetail(s, member.token, shareId)).publishInfo!.views).toBe(0);
    });
  });
});
