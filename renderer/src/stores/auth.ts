// The session: sign-in (password, OAuth completion, proxy), the token in localStorage,
// renewal every `authRefreshTime`, sign-out (the stored token is removed) and sign-out
// everywhere. The server also sets an HttpOnly cookie, which plain downloads (`<a href>`)
// rely on.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import * as api from '../api/auth.js';
import { ApiError } from '../api/http.js';
import type { AuthResult } from '../api/types.js';
import { useSettingsStore } from './settings.js';

const storageKey = 'account';

function loadStored(): AuthResult | null {
  try {
    const raw = localStorage.getItem(storageKey);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as AuthResult;
    return parsed && typeof parsed.token === 'string' && parsed.token ? parsed : null;
  } catch {
    return null;
  }
}

function store(account: AuthResult | null): void {
  try {
    if (account) localStorage.setItem(storageKey, JSON.stringify(account));
    else localStorage.removeItem(storageKey);
  } catch {
    // Without storage the session lasts for this page only.
  }
}

export const useAuthStore = defineStore('auth', () => {
  const settings = useSettingsStore();
  const account = ref<AuthResult | null>(loadStored());
  let timer: ReturnType<typeof setInterval> | undefined;

  const token = computed(() => account.value?.token ?? null);
  const loggedIn = computed(() => token.value !== null);
  const isAdmin = computed(() => account.value?.admin === true);
  const login = computed(() => account.value?.user ?? '');

  function schedule(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    const every = settings.config.authRefreshTime;
    // a periodic renewal answered 401 means the session ended elsewhere: the login page, with a way back
    if (loggedIn.value && every > 0) timer = setInterval(() => void renew({ redirectOn401: true }), every);
  }

  function setAccount(result: AuthResult | null): void {
    account.value = result && result.success && result.token ? result : null;
    store(account.value);
    schedule();
  }

  /** Drops the session locally (the server's cookie stays until logout or expiry). */
  function clear(): void {
    setAccount(null);
  }

  /** Goes on with the token of a new session the server handed out (after a password change). */
  function adoptToken(newToken: string): void {
    if (account.value) setAccount({ ...account.value, token: newToken });
  }

  /** Signs in with login and password; resolves to the server's result (success or not). */
  async function signIn(user: string, password: string): Promise<AuthResult> {
    const result = await api.login(user, password);
    if (result.success) setAccount(result);
    return result;
  }

  /**
   * Asks for a fresh token (`POST /sec/auth/session`). Also completes an OAuth sign-in,
   * where only the cookie exists yet. Resolves to whether a session exists afterwards;
   * a network failure keeps the current session. With `redirectOn401`, a 401 goes the way
   * of every secured call's 401 (the login page); otherwise the session is just dropped.
   */
  async function renew(opts: { redirectOn401?: boolean } = {}): Promise<boolean> {
    try {
      const result = await api.renewSession(opts);
      setAccount(result);
      return loggedIn.value;
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0 && error.status < 500) clear();
      return loggedIn.value;
    }
  }

  /** Signs in through the authenticating proxy in front of the server. */
  async function proxySignIn(): Promise<AuthResult> {
    const result = await api.proxyLogin();
    if (result.success) setAccount(result);
    return result;
  }

  /** Signs out on the server (clears the cookie) and locally. */
  async function signOut(): Promise<void> {
    try {
      if (loggedIn.value) await api.logout();
    } catch {
      // Signing out locally is what matters; the token expires on its own.
    } finally {
      clear();
    }
  }

  /**
   * Ends every session of the account on the server (all browsers and devices, this one
   * included), then here. Rejects, keeping the session so the user can retry, when the
   * server could not do it.
   */
  async function signOutEverywhere(): Promise<void> {
    try {
      await api.logoutEverywhere();
    } catch (error) {
      // 401: the session had ended already
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    clear();
  }

  /** Follows sign-in and sign-out in other tabs of the same browser. */
  function followOtherTabs(): void {
    window.addEventListener('storage', (event) => {
      if (event.key !== storageKey) return;
      account.value = loadStored();
      schedule();
    });
  }

  schedule();

  return { account, token, loggedIn, isAdmin, login, adoptToken, signIn, renew, proxySignIn, signOut, signOutEverywhere, clear, followOtherTabs };
});
