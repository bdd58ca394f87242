/** Desktop notifications when a guest upload arrives or a share is first downloaded (from the server's events). */
import type { ServerEvent } from './server-host.js';

export interface Notice {
  title: string;
  body: string;
  /** opened in the app window when the notification is clicked */
  path: string;
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** `1.5 MB`: binary multiples, as the server's size settings. */
export const formatSize = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
};

/** Names chosen by guests and users are cut to this many characters in a notification. */
const NAME_MAX = 80;
const cut = (name: string): string => (name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name);

/** The notification for a server event, or `null` for events that get none. */
export const noticeFor = (e: ServerEvent): Notice | null => {
  if (e.type === 'room-guest-joined') {
    // the names are plain text already (the server removes markup and bidirectional controls)
    return {
      title: `${cut(e.guestName)} joined “${cut(e.roomName)}”`,
      body: `${e.guests === 1 ? '1 guest' : `${e.guests} guests`} in the room. Click to open the player.`,
      path: '/app/player',
    };
  }
  if (e.type === 'share-downloaded') {
    const what = e.fileName ? `“${cut(e.fileName)}”` : 'The ZIP';
    return {
      title: e.shareName ? `“${cut(e.shareName)}” was downloaded` : 'Your share was downloaded',
      body: `${what} was downloaded completely${e.client ? ` (${e.client})` : ''}. Click to see who got it.`,
      path: `/app/upload/${encodeURIComponent(e.shareId)}`,
    };
  }
  if (e.type !== 'guest-upload-completed') return null;
  // the share's name says who sent what (`From Anna · 3 photos · 23 Nov`); a bare count when it has none
  const what = cut(e.shareName) || (e.fileCount === 1 ? '1 file' : `${e.fileCount} files`);
  return {
    title: `Files arrived through “${cut(e.aliasName)}”`,
    body: `${what} · ${formatSize(e.totalSize)}. Click to open.`,
    path: `/app/upload/${encodeURIComponent(e.shareId)}`,
  };
};

/** Shows a notice per event while `enabled(event)` holds; returns the unsubscribe function. */
export const setupNotifications = (
  subscribe: (listener: (e: ServerEvent) => void) => () => void,
  enabled: (e: ServerEvent) => boolean,
  show: (notice: Notice) => void,
): (() => void) =>
  subscribe((e) => {
    const notice = noticeFor(e);
    if (notice && enabled(e)) show(notice);
  });

/** Which setting turns the notice of an event on: guests joining rooms have their own (off by default). */
export const notificationEnabled = (settings: { notifications: boolean; roomNotifications: boolean }, e: ServerEvent): boolean =>
  e.type === 'room-guest-joined' ? settings.roomNotifications : settings.notifications;

/** Text for a notification body that a daemon reads as markup (`<a>`, `<b>`, `<img>` on Linux). */
export const escapeMarkup = (text: string): string => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** The parts of Electron's `Notification` used here. */
export interface NotificationLike {
  on(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
  show(): void;
}
export type NotificationCtor = new (options: { title: string; body: string; icon?: string }) => NotificationLike;

/** Notifications kept at most: the oldest is let go beyond it (its click then does nothing). */
export const MAX_KEPT_NOTIFICATIONS = 20;

/**
 * Shows notices as system notifications; a click opens the notice's page. Each one is
 * referenced until it is clicked, closed or failed: Electron collects a notification
 * nothing references, and with it its click handler, while it is still on screen.
 */
export const createNotifier = (
  Notification: NotificationCtor,
  icon: string | undefined,
  open: (path: string) => void,
  /** Linux notification daemons read the body as markup: guest text must stay text */
  bodyIsMarkup = false,
): ((notice: Notice) => void) => {
  const kept = new Set<NotificationLike>();
  return (notice) => {
    const body = bodyIsMarkup ? escapeMarkup(notice.body) : notice.body;
    const n = new Notification({ title: notice.title, body, ...(icon ? { icon } : {}) });
    const forget = () => kept.delete(n);
    n.on('click', () => {
      forget();
      open(notice.path);
    });
    n.on('close', forget);
    n.on('failed', forget);
    kept.add(n);
    if (kept.size > MAX_KEPT_NOTIFICATIONS) kept.delete(kept.values().next().value!);
    n.show();
  };
};
