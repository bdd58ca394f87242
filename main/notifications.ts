/** Desktop notifications when a guest upload arrives (from the server's event). */
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

/** The notification for a server event, or `null` for events that get none. */
export const noticeFor = (e: ServerEvent): Notice | null => {
  if (e.type !== 'guest-upload-completed') return null;
  // the share's name says who sent what (`From Anna · 3 photos · 23 Nov`); a bare count when it has none
  const what = e.shareName || (e.fileCount === 1 ? '1 file' : `${e.fileCount} files`);
  return {
    title: `Files arrived through “${e.aliasName}”`,
    body: `${what} · ${formatSize(e.totalSize)}. Click to open.`,
    path: `/app/upload/${encodeURIComponent(e.shareId)}`,
  };
};

/** Shows a notice per event while `enabled()` holds; returns the unsubscribe function. */
export const setupNotifications = (
  subscribe: (listener: (e: ServerEvent) => void) => () => void,
  enabled: () => boolean,
  show: (notice: Notice) => void,
): (() => void) =>
  subscribe((e) => {
    const notice = noticeFor(e);
    if (notice && enabled()) show(notice);
  });
