import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerEvents, type ServerEvent } from '../../../server/core/events/events.js';
import type { Logger } from '../../../server/common/log.js';
import { startServer, type TestServer } from '../../support/server.js';
import { bytes, createAlias, createUser, guest, guestShare, guestTusUpload, multipartForm, postForm, type Result, type User } from './support.js';

describe('the server event emitter', () => {
  const event: ServerEvent = { type: 'guest-upload-completed', shareId: 's', aliasId: 'a', aliasName: 'A', shareName: '1 file · 23 Nov', fileCount: 1, totalSize: 2 };

  it('delivers to every subscriber until it unsubscribes; a throwing listener is logged and the others still run', () => {
    const errors: string[] = [];
    const log = { error: (msg: string) => errors.push(msg) } as unknown as Logger;
    const bus = createServerEvents(log);
    const a: ServerEvent[] = [];
    const b: ServerEvent[] = [];
    const offA = bus.subscribe((e) => a.push(e));
    bus.subscribe(() => {
      throw new Error('listener broke');
    });
    bus.subscribe((e) => b.push(e));
    bus.emit(event);
    offA();
    bus.emit(event);
    expect(a).toEqual([event]);
    expect(b).toEqual([event, event]);
    expect(errors).toEqual(['A server event listener failed', 'A server event listener failed']);
  });
});

describe('guest-upload-completed', () => {
  let s: TestServer;
  let alice: User;
  let aliasId: string;
  const events: ServerEvent[] = [];

  beforeAll(async () => {
    // mail is disabled: the event does not depend on it
    s = await startServer();
    s.events.subscribe((e) => events.push(e));
    s.events.subscribe(() => {
      throw new Error('a broken desktop listener');
    });
    alice = await createUser(s, 'alice');
    aliasId = await createAlias(s, alice, { name: 'Phone uploads' });
  });
  afterAll(() => s.stop());

  const notify = (shareId: string) => s.request<Result>('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: guest(aliasId) });

  it('is emitted once, with the file count and total size, when the guest page reports its tus uploads done', async () => {
    events.length = 0;
    const shareId = await guestShare(s, aliasId);
    await guestTusUpload(s, aliasId, shareId, bytes(70_000), 'a.jpg');
    await guestTusUpload(s, aliasId, shareId, bytes(1234, 9), 'b.jpg');
    // an upload that never finished does not count
    const started = await fetch(`${s.url}/api/v2/alias/upload/${shareId}/files/tus`, {
      method: 'POST',
      headers: { ...guest(aliasId), 'Tus-Resumable': '1.0.0', 'Upload-Length': '500' },
    });
    expect(started.status).toBe(201);
    expect(events).toEqual([]);

    const res = await notify(shareId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, message: 'Mail feature is disabled.', code: 'mail.disabled' });
    expect(events).toEqual([{ type: 'guest-upload-completed', shareId, aliasId, aliasName: 'Phone uploads', shareName: expect.stringMatching(/^2 photos · \d+ \w+$/), fileCount: 2, totalSize: 71_234 }]);
    // told again without new files: nothing new
    await notify(shareId);
    expect(events.length).toBe(1);
    // more files: announced again with the new totals
    await guestTusUpload(s, aliasId, shareId, bytes(6), 'c.txt');
    await notify(shareId);
    expect(events.length).toBe(2);
    expect(events[1]).toMatchObject({ shareId, fileCount: 3, totalSize: 71_240 });
    expect(s.logs()).toContain('A server event listener failed');
    expect(s.logs()).toContain('a broken desktop listener');
  });

  it('is emitted for multipart uploads and files added by multipart, not for empty shares', async () => {
    events.length = 0;
    const empty = await guestShare(s, aliasId);
    await notify(empty);
    expect(events).toEqual([]);

    const res = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm(undefined, [{ name: 'x.txt', content: 'abc' }]));
    expect(events).toEqual([{ type: 'guest-upload-completed', shareId: res.body.id, aliasId, aliasName: 'Phone uploads', shareName: expect.stringMatching(/^1 file · /), fileCount: 1, totalSize: 3 }]);
    // the guest page's notify after a multipart upload does not repeat it
    await notify(res.body.id!);
    expect(events.length).toBe(1);
    await postForm(s, `/api/v2/alias/upload/${res.body.id}/files/add`, guest(aliasId), multipartForm(undefined, [{ name: 'y.txt', content: 'de' }]));
    expect(events.length).toBe(2);
    expect(events[1]).toMatchObject({ fileCount: 2, totalSize: 5 });
  });

  it('is not emitted for uploads of signed-in users', async () => {
    events.length = 0;
    const fd = multipartForm(undefined, [{ name: 'own.txt', content: 'mine' }]);
    const res = await postForm(s, '/api/v2/sec/upload', { 'Service-Auth': alice.token }, fd);
    expect(res.body.success).toBe(true);
    expect(events).toEqual([]);
  });
});
