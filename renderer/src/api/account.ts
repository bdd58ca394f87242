// Calls of the account administration (`/api/v2/admin/account...`), the
// invitation route, and the caller's own settings (`/api/v2/sec/settings/...`).
import { apiFetch, apiResult, type BasicResult } from './http';
import type { AccountCreate, AccountDetail, AccountModify, InviteResult, PasswordChangeResult } from './types';

const enc = encodeURIComponent;

export async function listAccounts(q: string, signal?: AbortSignal): Promise<AccountDetail[]> {
  return (await apiFetch<{ items: AccountDetail[] }>(`/api/v2/admin/account?q=${enc(q)}`, signal ? { signal } : {})).items;
}

export const getAccount = (id: string): Promise<AccountDetail> => apiFetch<AccountDetail>(`/api/v2/admin/account/${enc(id)}`);

export const createAccount = (a: AccountCreate): Promise<BasicResult> => apiResult('/api/v2/admin/account', { method: 'POST', body: a });

export const modifyAccount = (id: string, a: AccountModify): Promise<BasicResult> =>
  apiResult(`/api/v2/admin/account/${enc(id)}`, { method: 'POST', body: a });

export const deleteAccount = (id: string): Promise<BasicResult> => apiResult(`/api/v2/admin/account/${enc(id)}`, { method: 'DELETE' });

/** A new invitation key; the invite password is the one of the server's config. */
export async function newInvite(password: string): Promise<string> {
  const r = await apiResult<InviteResult>('/api/v2/admin/signup/newinvite', { method: 'POST', body: { password } });
  return r.key ?? '';
}

export async function getEmail(): Promise<string | null> {
  return (await apiFetch<{ email: string | null }>('/api/v2/sec/settings/email')).email;
}

/** Sets the caller's e-mail; an empty text removes it. */
export const setEmail = (email: string): Promise<BasicResult> =>
  email.trim() === ''
    ? apiResult('/api/v2/sec/settings/email', { method: 'DELETE' })
    : apiResult('/api/v2/sec/settings/email', { method: 'POST', body: { email: email.trim() } });

/** Whether the caller has an internal password that can be changed here. */
export async function hasInternalPassword(): Promise<boolean> {
  return (await apiFetch<BasicResult>('/api/v2/sec/settings/password')).success;
}

/** Changes the caller's password; the answer carries the caller's new session token (every other session ended). */
export const changePassword = (oldPassword: string, newPassword: string): Promise<PasswordChangeResult> =>
  apiResult<PasswordChangeResult>('/api/v2/sec/settings/password', { method: 'POST', body: { oldPassword, newPassword } });
