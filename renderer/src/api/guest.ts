// Calls of a guest with an upload link: the link's page (`/api/v2/open/alias/{id}`) and
// the routes that take the link's id in the `Service-Alias` header (`/api/v2/alias/...`).
import { aliasHeaders as asGuest } from '../lib/upload-target';
import { apiFetch, apiResult } from './http';
import type { AliasInfo, IdResult, ShareProperties } from './types';

const enc = encodeURIComponent;

/** What a guest sees of an upload link (404 when there is no such link). */
export const getUploadLink = (aliasId: string): Promise<AliasInfo> => apiFetch<AliasInfo>(`/api/v2/open/alias/${enc(aliasId)}`);

/** Creates the share one send of the guest goes into; resolves to its id. */
export async function createGuestShare(aliasId: string, props: ShareProperties): Promise<string> {
  return (await apiResult<IdResult>('/api/v2/alias/upload/new', { method: 'POST', headers: asGuest(aliasId), body: props })).id;
}

/** Tells the link's owner (and members) by mail that the share received files; `sender` as the guest typed it. */
export async function notifyOwner(aliasId: string, shareId: string, sender: string | null): Promise<void> {
  await apiFetch(`/api/v2/alias/mail/notify/${enc(shareId)}`, { method: 'POST', headers: asGuest(aliasId), body: { sender } });
}
