// Calls of the share routes: the owner's (`/api/v2/sec/share...`, `/api/v2/sec/upload/new`)
// and the recipient's (`/api/v2/open/share/{id}`), and the addresses of their downloads.
import { apiFetch, apiResult, type BasicResult, type RequestOptions } from './http';
import type { IdResult, ShareActivity, ShareDetail, ShareListItem, ShareProperties } from './types';

const enc = encodeURIComponent;
const owned = (id: string): string => `/api/v2/sec/share/${enc(id)}`;
const opened = (pid: string): string => `/api/v2/open/share/${enc(pid)}`;

/** One page of the caller's shares whose name, description or id contains `q`. */
export async function searchShares(
  q: string,
  page: number,
  pageSize: number,
  options: Pick<RequestOptions, 'signal' | 'noAuthRedirect'> = {},
): Promise<ShareListItem[]> {
  const params = new URLSearchParams({ q, page: String(page), pageSize: String(pageSize) });
  return (await apiFetch<{ items: ShareListItem[] }>(`/api/v2/sec/share/search?${params}`, options)).items;
}

/** One of the caller's shares (404 when it is not the caller's or does not exist). */
export const getShare = (id: string): Promise<ShareDetail> => apiFetch<ShareDetail>(owned(id));

/** The newest entries of a share's activity log (owner and members; 404 for anyone else). */
export const getShareActivity = (id: string, pageSize: number, options: Pick<RequestOptions, 'signal'> = {}): Promise<ShareActivity> =>
  apiFetch<ShareActivity>(`${owned(id)}/activity?page=1&pageSize=${pageSize}`, options);

/** Whether the owner gets a mail when the share is downloaded. */
export const setNotifyOnDownload = (id: string, value: boolean): Promise<BasicResult> =>
  apiResult(`${owned(id)}/notify`, { method: 'POST', body: { value } });

/** Creates an empty share for the caller's upload; resolves to its id. */
export async function createShare(props: ShareProperties): Promise<string> {
  return (await apiResult<IdResult>('/api/v2/sec/upload/new', { method: 'POST', body: props })).id;
}

/** Publishes the share; `reuseId` keeps the public id of an earlier publication. */
export const publishShare = (id: string, reuseId: boolean): Promise<BasicResult> =>
  apiResult(`${owned(id)}/publish`, { method: 'POST', body: { reuseId } });

export const unpublishShare = (id: string): Promise<BasicResult> => apiResult(`${owned(id)}/publish`, { method: 'DELETE' });

const setProperty = (id: string, property: string, value: unknown): Promise<BasicResult> =>
  apiResult(`${owned(id)}/${property}`, { method: 'POST', body: { value } });

const removeProperty = (id: string, property: string): Promise<BasicResult> => apiResult(`${owned(id)}/${property}`, { method: 'DELETE' });

/** Names the share; an empty (or blank) name removes it. */
export const setShareName = (id: string, name: string): Promise<BasicResult> =>
  name.trim() ? setProperty(id, 'name', name.trim()) : removeProperty(id, 'name');

/** Sets the share's password; an empty one removes it. */
export const setSharePassword = (id: string, password: string): Promise<BasicResult> =>
  password ? setProperty(id, 'password', password) : removeProperty(id, 'password');

export const setShareValidity = (id: string, ms: number): Promise<BasicResult> => setProperty(id, 'validity', ms);

export const setShareMaxViews = (id: string, views: number): Promise<BasicResult> => setProperty(id, 'maxviews', views);

/** Sets the share's description (markdown). */
export const setShareDescription = (id: string, text: string): Promise<BasicResult> => setProperty(id, 'description', text);

export const deleteShareFile = (id: string, fileId: string): Promise<BasicResult> =>
  apiResult(`${owned(id)}/file/${enc(fileId)}`, { method: 'DELETE' });

export const deleteShare = (id: string): Promise<BasicResult> => apiResult(owned(id), { method: 'DELETE' });

/** Where the owner downloads one file of the share. */
export const shareFileUrl = (id: string, fileId: string): string => `${owned(id)}/file/${enc(fileId)}`;

/** Where the owner downloads the files `fileIds` (all when empty) as one zip. */
export function shareZipUrl(id: string, fileIds: readonly string[]): string {
  const q = new URLSearchParams(fileIds.map((f) => ['file', f]));
  return `${owned(id)}/zip${fileIds.length ? `?${q}` : ''}`;
}

/**
 * A published share as its recipient sees it (opening it counts a view). Refusals as
 * `ApiError`: 401 a password is needed, 403 it was wrong, 429 too many tries, 404 gone.
 */
export function openShare(pid: string, password?: string): Promise<ShareDetail> {
  const headers: Record<string, string> = password === undefined ? {} : { 'Service-Password': enc(password) };
  return apiFetch<ShareDetail>(opened(pid), { headers });
}

/** Where the recipient downloads one file of the published share. */
export const openShareFileUrl = (pid: string, fileId: string): string => `${opened(pid)}/file/${enc(fileId)}`;

/** Where the recipient downloads every file of the published share as one zip. */
export const openShareZipUrl = (pid: string): string => `${opened(pid)}/zip`;
