import { describe, expect, it } from 'vitest';
import { noticeFor, notificationEnabled, setupNotifications, type Notice } from '../../../main/notifications.js';
import type { ServerEvent } from '../../../main/server-host.js';

const joined: ServerEvent = { type: 'room-guest-joined', roomId: 'r1', roomName: 'Party', guestName: 'Anna', guests: 3 };
const upload: ServerEvent = { type: 'guest-upload-completed', shareId: 's', aliasId: 'a', aliasName: 'Link', shareName: 'From Bo', fileCount: 1, totalSize: 10 };

describe('room notifications', () => {
  it('says who joined which room and opens the player', () => {
    expect(noticeFor(joined)).toEqual({ title: 'Anna joined “Party”', body: '3 guests in the room. Click to open the player.', path: '/app/player' });
  });

  it('are off by default and have their own setting, apart from guest uploads', () => {
    const notices: Notice[] = [];
    let listener: (e: ServerEvent) => void = () => undefined;
    const settings = { notifications: true, roomNotifications: false };
    setupNotifications(
      (l) => {
        listener = l;
        return () => undefined;
      },
      (e) => notificationEnabled(settings, e),
      (n) => notices.push(n),
    );
    listener(joined);
    listener(upload);
    expect(notices.map((n) => n.path)).toEqual(['/app/upload/s']);
    settings.roomNotifications = true;
    settings.notifications = false;
    listener(joined);
    listener(upload);
    expect(notices.map((n) => n.path)).toEqual(['/app/upload/s', '/app/player']);
  });
});
