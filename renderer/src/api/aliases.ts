// Calls of the alias (upload link) routes (`/api/v2/sec/alias...`, `/api/v2/sec/alias-member`).
// Shapes as in the reference (AliasDetail, AliasChange).
import { apiFetch, apiResult, type BasicResult } from './http';

export interface AccountLight {
  id: string;
  login: string;
}

export interface AliasDetail {
  id: string;
  name: string;
  /** milliseconds */
  validity: number;
  /** the owner's login */
  owner: string;
  enabled: boolean;
  members: { items: AccountLight[] };
  /** epoch milliseconds */
  created: number;
  /** plain text shown to guests */
  message: string | null;
  /** bytes one share of the link may hold; null: the server's limit */
  maxSize: number | null;
  /** epoch ms after which the link takes no uploads; null: never */
  expires: number | null;
}

export interface AliasChange {
  /** absent on create: the server picks a random id */
  id?: string;
  name: string;
  validity: number;
  enabled: boolean;
  /** account ids */
  members: string[];
  /** absent: unchanged (modify) or none (create); null: none */
  message?: string | null;
  maxSize?: number | null;
  expires?: number | null;
}

export interface IdResult extends BasicResult {
  id: string;
}

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
