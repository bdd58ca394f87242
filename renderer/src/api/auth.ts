// Calls of sign-in, session and sign-up (`/api/v2/open/auth...`, `/api/v2/sec/auth...`,
// `/api/v2/open/signup/register`). A refused sign-in is an answer with `success: false`.
import { apiFetch, apiResult, type BasicResult } from './http.js';
import type { AuthResult } from './types.js';

export const login = (account: string, password: string): Promise<AuthResult> =>
  apiFetch<AuthResult>('/api/v2/open/auth/login', { method: 'POST', body: { account, password } });

/**
 * A fresh token for the current session (or the session an OAuth cookie started); a
 * 401 goes to the login page only with `redirectOn401` (the renewal of an open session).
 */
export const renewSession = (opts: { redirectOn401?: boolean } = {}): Promise<AuthResult> =>
  apiFetch<AuthResult>('/api/v2/sec/auth/session', { method: 'POST', noAuthRedirect: opts.redirectOn401 !== true });

/** Signs in as the user the authenticating proxy in front of the server names. */
export const proxyLogin = (): Promise<AuthResult> => apiFetch<AuthResult>('/api/v2/open/auth/proxy', { method: 'POST' });

export async function logout(): Promise<void> {
  await apiFetch('/api/v2/sec/auth/logout', { method: 'POST', noAuthRedirect: true });
}

/** Ends every session of the account. */
export async function logoutEverywhere(): Promise<void> {
  await apiFetch('/api/v2/sec/auth/logout-all', { method: 'POST', noAuthRedirect: true });
}

/** Where the browser goes to sign in with the OAuth provider `id`. */
export const oauthUrl = (id: string): string => `/api/v2/open/auth/oauth/${encodeURIComponent(id)}`;

/** Creates an account; `invite` is the invitation key when sign-up needs one. */
export const register = (account: { login: string; password: string; invite: string | null }): Promise<BasicResult> =>
  apiResult('/api/v2/open/signup/register', { method: 'POST', body: account });
