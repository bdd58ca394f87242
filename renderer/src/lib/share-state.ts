// The publication state of a share, as the owner sees it.
import type { ShareDetail, ShareListItem } from '../api/types.js';

export type ShareState = 'unpublished' | 'published' | 'expired' | 'viewsUsedUp';

/** State of a share's detail: unpublished, published, expired, or views used up. */
export function detailState(share: ShareDetail, now = Date.now()): ShareState {
  const p = share.publishInfo;
  if (!p || !p.enabled) return 'unpublished';
  if (p.expired || p.publishUntil <= now) return 'expired';
  if (p.views >= share.maxViews) return 'viewsUsedUp';
  return 'published';
}

/** State of a list item: unpublished, published, expired, or views used up (expiry wins). */
export function listState(item: ShareListItem, now = Date.now()): ShareState {
  if (item.published === null || item.publishUntil === null) return 'unpublished';
  if (!item.published || item.publishUntil <= now) return 'expired';
  if (item.views >= item.maxViews) return 'viewsUsedUp';
  return 'published';
}
