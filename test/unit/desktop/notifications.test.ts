// Desktop notifications with a fake whose objects are collected like Electron's: a
// notification nothing references loses its click handler.
import { describe, expect, it } from 'vitest';
import { createNotifier, MAX_KEPT_NOTIFICATIONS, noticeFor, type Notice } from '../../../main/notifications.js';
import { FakeNotification } from '../../support/fake-electron.js';

const notice = (i: number): Notice => ({ title: `Files ${i}`, body: 'x', path: `/app/upload/${i}` });

describe('notifications', () => {
  it('a notification clicked long after it was shown (after garbage collections) still opens its share', async () => {
    const opened: string[] = [];
    const notify = createNotifier(FakeNotification, undefined, (p) => opened.push(p));
    notify(notice(1));
    notify(notice(2));
    expect(await FakeNotification.clickAll()).toBe(2);
    expect(opened).toEqual(['/app/upload/1', '/app/upload/2']);
  });

  it('lets a clicked notification go, and keeps a bounded number', async () => {
    const opened: string[] = [];
    const notify = createNotifier(FakeNotification, undefined, (p) => opened.push(p));
    notify(notice(1));
    await FakeNotification.clickAll();
    // clicked: nothing references it any more
    expect(await FakeNotification.clickAll()).toBe(0);
    for (let i = 0; i < MAX_KEPT_NOTIFICATIONS + 5; i++) notify(notice(i));
    expect(await FakeNotification.clickAll()).toBe(MAX_KEPT_NOTIFICATIONS);
  });

  it('the fake collects a notification nothing references (as the old code did), so the first test can fail', async () => {
    const opened: string[] = [];
    const show = (n: Notice) => {
      const x = new FakeNotification({ title: n.title, body: n.body });
      x.on('click', () => opened.push(n.path));
      x.show();
    };
    show(notice(1));
    expect(await FakeNotification.clickAll()).toBe(0);
    expect(opened).toEqual([]);
  });
});

describe('notification text', () => {
  it('shows a guest’s markup as text where the body is markup (Linux), and cuts long names', async () => {
    const shown: FakeNotification[] = [];
    class Recording extends FakeNotification {
      constructor(o: { title: string; body: string }) {
        super(o);
        shown.push(this);
      }
    }
    const notice = noticeFor({
      type: 'guest-upload-completed',
      shareId: 's',
      aliasId: 'a',
      aliasName: 'x'.repeat(500),
      shareName: '<a href="https://evil.example/">Sign in</a> & more',
      fileCount: 1,
      totalSize: 1,
    })!;
    expect(notice.title.length).toBeLessThan(110);
    createNotifier(Recording, undefined, () => undefined, true)(notice);
    createNotifier(Recording, undefined, () => undefined, false)(notice);
    expect(shown[0]!.options.body).toMatch(/^&lt;a href="https:\/\/evil\.example\/"&gt;Sign in&lt;\/a&gt; &amp; more · /);
    expect(shown[1]!.options.body).toMatch(/^<a href/);
    await FakeNotification.clickAll();
  });
});
