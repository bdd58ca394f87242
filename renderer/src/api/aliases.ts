// Calls of the alias (upload link) routes (`/api/v2/sec/alias...`, `/api/v2/sec/alias-member`).
import { apiFetch, apiResult, type BasicResult } from './http';
import type { AccountLight, AliasChange, AliasDetail, IdResult } from './types';

const enc = encodeURIComponent;

export async function listAliases(q: string, signal?: AbortSignal): Promise<AliasDetail[]> {
  const list = await apiFetch<{ items: AliasDetail[] }>(`/api/v2/sec/alias?q=${enc(q)}`, signal ? { signal } : {});
  return list.items;
}

export const getAlias = (id: string): Promise<AliasDetail> => apiFetch<AliasDetail>(`/api/v2/sec/alias/${enc(id)}`);

/** Creates an alias; resolves to its id. */
export async function createAlias(change: AliasChange): Promise<string> {
  return (await apiResult<IdResult>('/api/v2/sec/alias', { method: 'POST', body: change })).id;
}

/** Changes an alias; resolves to its (possibly new) id. */
export async function updateAlias(id: string, change: AliasChange): Promise<string> {
  return (await apiResult<IdResult>(`/api/v2/sec/alias/${enc(id)}`, { method: 'POST', body: change })).id;
}

export const deleteAlias = (id: string): Promise<BasicResult> => apiResult(`/api/v2/sec/alias/${enc(id)}`, { method: 'DELETE' });

/** Accounts that can become members (every account but the caller's), by login substring. */
export async function searchMembers(q: string, signal?: AbortSignal): Promise<AccountLight[]> {
  const list = await apiFetch<{ items: AccountLight[] }>(`/api/v2/sec/alias-member?q=${enc(q)}`, signal ? { signal } : {});
  return list.items;
}
