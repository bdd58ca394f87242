// The publication state of a share, as the owner sees it.
import type { ShareDetail, ShareListItem } from '../api/types';

export type ShareState = 'unpublished' | 'published' | 'expired' | 'viewsUsedUp';

/** State of a share's detail: unpublished, published, expired, or views used up. */
export function detailState(share: ShareDetail, now = Date.now()): ShareState {
  const p = share.publishInfo;
  if (!p || !p.enabled) return 'unpublished';
  if (p.expired || p.publishUntil <= now) return 'expired';
  if (p.views >= share.maxViews) return 'viewsUsedUp';
  return 'published';
}

/** State of a list item (the list does not know about used-up views). */
export function listState(item: ShareListItem): ShareState {
  if (item.published === null) return 'unpublished';
  return item.published ? 'published' : 'expired';
}
