import type { AuthResult } from './auth.types.js';

/** The OAuth 2 code flow against the configured providers (`backend.auth.oauth`). */
export interface OAuthService {
  /**
   * Anyone: the provider's authorize URL with client id, scope, the callback
   * `<baseUrl>/api/v2/open/auth/oauth/<id>/resume` and a signed, expiring
   * state. Unknown or disabled provider → `not-found`. `nonce` is also in the
   * state; the caller keeps it in the browser (a cookie) and hands it back to
   * `resume`, so a callback link from someone else's login is refused.
   */
  authorizeUrl(providerId: string, baseUrl: string): Promise<{ url: string; nonce: string }>;
  /**
   * Anyone (the provider's redirect): checks the state, exchanges the code at
   * the token URL, reads the user at the user URL and logs in the account
   * `<user id>@<provider id>` (source `oauth:<provider id>`), creating it when
   * missing. The state must carry `nonce` (from the browser that started the
   * flow). Any failure is a failed `AuthResult`, logged with its reason.
   */
  resume(
    providerId: string,
    params: { code?: string; state?: string; error?: string; nonce?: string },
    baseUrl: string,
  ): Promise<AuthResult>;
}
