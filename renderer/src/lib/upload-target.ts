// Where uploads go: the tus endpoint of a share, the room it has left, and the share a
// guest's send continues after a reload.
import { authHeaders } from '../api/http';
import type { PickedFile, UploadTarget } from '../composables/useUploader';
import { forgetGuestShare, heldUploads, unfinishedEndpoints, unfinishedGuestShare } from './upload-resume';

/** The owner's (or an alias member's) tus endpoint of share `shareId`. */
export const ownerTarget = (shareId: string): UploadTarget => ({
  endpoint: `/api/v2/sec/upload/${encodeURIComponent(shareId)}/files/tus`,
  headers: authHeaders,
});

/** The headers of a guest's requests through upload link `aliasId`. */
export const aliasHeaders = (aliasId: string): Record<string, string> => ({ 'Service-Alias': aliasId });

/** A guest's tus endpoint of share `shareId`, created through upload link `aliasId`. */
export const guestTarget = (aliasId: string, shareId: string): UploadTarget => ({
  endpoint: `/api/v2/alias/upload/${encodeURIComponent(shareId)}/files/tus`,
  headers: () => aliasHeaders(aliasId),
});

/**
 * The room a share still has for new files (`Tus-Max-Size` of its tus endpoint), or
 * null when the share is gone or may not be written. Throws on a network failure.
 */
export async function roomAt(target: UploadTarget): Promise<number | null> {
  const res = await fetch(target.endpoint, { method: 'OPTIONS', headers: { 'Tus-Resumable': '1.0.0', ...target.headers() }, credentials: 'same-origin' });
  const room = res.headers.get('Tus-Max-Size');
  return res.ok && room !== null && Number.isFinite(Number(room)) ? Number(room) : null;
}

/**
 * The share a guest's send continues: the one of an unfinished earlier send through the
 * same upload link, when some of the chosen files have an upload there and the link may
 * still write to it (the server checks); otherwise null, and a new share is made.
 */
export async function continuedGuestShare(aliasId: string, files: PickedFile[]): Promise<{ shareId: string; room: number } | null> {
  const shareId = unfinishedGuestShare(aliasId);
  if (!shareId) return null;
  const target = guestTarget(aliasId, shareId);
  if (!heldUploads(target.endpoint, files).some(Boolean)) return null;
  const room = await roomAt(target);
  if (room === null) {
    forgetGuestShare(aliasId);
    return null;
  }
  return { shareId, room };
}

const ownerEndpoint = /^\/api\/v2\/sec\/upload\/([^/]+)\/files\/tus$/;

/** The owner's shares with an upload this browser did not finish. */
export function unfinishedOwnerShares(): string[] {
  return unfinishedEndpoints().flatMap((e) => {
    const m = ownerEndpoint.exec(e);
    return m ? [decodeURIComponent(m[1]!)] : [];
  });
}
