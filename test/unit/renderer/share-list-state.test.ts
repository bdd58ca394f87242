// The share list tells the truth: not published, published, expired and views used up
// are told apart from the list item alone; and guest uploads count as new until the user
// has opened them or marked them seen, per browser and account.
import { describe, expect, it } from 'vitest';
import type { ShareListItem } from '../../../renderer/src/api/types.js';
import { FIRST_LOOK_WINDOW, isNewGuestUpload, readSeen, withAllSeen, withOpened, writeSeen } from '../../../renderer/src/lib/guest-uploads.js';
import { listState } from '../../../renderer/src/lib/share-state.js';
import { MemoryStorage } from '../../support/memory-storage.js';

const NOW = Date.UTC(2030, 0, 1);
const DAY = 86_400_000;

const item = (over: Partial<ShareListItem> = {}): ShareListItem => ({
  id: 'share-1',
  name: 'Photos',
  autoNamed: false,
  sender: null,
  filesKind: 'file',
  aliasName: null,
  aliasInfo: null,
  validity: DAY,
  maxViews: 5,
  password: false,
  created: NOW - DAY,
  files: 1,
  size: 10,
  published: true,
  views: 2,
  publishUntil: NOW + DAY,
  downloaded: null,
  ...over,
});

describe('listState', () => {
  it('tells the four states apart', () => {
    expect(listState(item({ published: null, publishUntil: null, views: 0 }), NOW)).toBe('unpublished');
    expect(listState(item(), NOW)).toBe('published');
    expect(listState(item({ published: false, publishUntil: NOW - 1 }), NOW)).toBe('expired');
    expect(listState(item({ views: 5 }), NOW)).toBe('viewsUsedUp');
  });

  it('calls a share expired once its end has passed while the page was open', () => {
    expect(listState(item({ publishUntil: NOW }), NOW)).toBe('expired');
  });

  it('calls an expired share with its views used up expired: publishing again is what helps', () => {
    expect(listState(item({ published: false, publishUntil: NOW - 1, views: 5 }), NOW)).toBe('expired');
  });

  it('calls an unpublished share with views counted before unpublished', () => {
    expect(listState(item({ published: null, publishUntil: null, views: 5 }), NOW)).toBe('unpublished');
  });
});

describe('new guest uploads', () => {
  const guest = (id: string, created: number): ShareListItem => item({ id, created, aliasInfo: { id: 'inbox', name: 'Inbox' }, aliasName: 'Inbox' });

  it('in a browser that never looked, counts guest uploads of the last days as new, own shares never', () => {
    const seen = readSeen(new MemoryStorage(), 'kim', NOW);
    expect(seen).toEqual({ since: NOW - FIRST_LOOK_WINDOW, opened: [] });
    expect(isNewGuestUpload(guest('a', NOW - DAY), seen)).toBe(true);
    expect(isNewGuestUpload(guest('b', NOW - FIRST_LOOK_WINDOW - 1), seen)).toBe(false);
    expect(isNewGuestUpload(item({ created: NOW }), seen)).toBe(false);
  });

  it('forgets an opened upload as new, and keeps it so per account', () => {
    const storage = new MemoryStorage();
    const a = guest('a', NOW - 10);
    const b = guest('b', NOW - 5);
    writeSeen(storage, 'kim', withOpened(readSeen(storage, 'kim', NOW), 'a'));
    const kim = readSeen(storage, 'kim', NOW + 1000);
    expect(isNewGuestUpload(a, kim)).toBe(false);
    expect(isNewGuestUpload(b, kim)).toBe(true);
    expect(isNewGuestUpload(a, readSeen(storage, 'lea', NOW))).toBe(true);
  });

  it('marks everything shown as seen, but not what arrived after the list was loaded', () => {
    const shown = [guest('a', NOW - 10), guest('b', NOW - 5)];
    const seen = withAllSeen(withOpened(readSeen(null, 'kim', NOW), 'a'), shown);
    expect(seen).toEqual({ since: NOW - 5, opened: [] });
    expect(shown.some((s) => isNewGuestUpload(s, seen))).toBe(false);
    expect(isNewGuestUpload(guest('c', NOW - 1), seen)).toBe(true);
  });

  it('starts over from unreadable stored values', () => {
    const storage = new MemoryStorage();
    for (const bad of ['{', '42', '{"since":"x","opened":[]}', '{"since":1}']) {
      storage.setItem('guestUploadsSeen:kim', bad);
      expect(readSeen(storage, 'kim', NOW), bad).toEqual({ since: NOW - FIRST_LOOK_WINDOW, opened: [] });
    }
  });
});
