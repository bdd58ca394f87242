import type { AuthResult } from './auth.types.js';

/** The OAuth 2 code flow against the configured providers (`backend.auth.oauth`). */
export interface OAuthService {
  /**
   * Anyone: the provider's authorize URL with client id, scope, the callback
   * `<baseUrl>/api/v2/open/auth/oauth/<id>/resume` and a signed, expiring
   * state. Unknown or disabled provider → `not-found`.
   */
  authorizeUrl(providerId: string, baseUrl: string): Promise<string>;
  /**
   * Anyone (the provider's redirect): checks the state, exchanges the code at
   * the token URL, reads the user at the user URL and logs in the account
   * `<user id>@<provider id>` (source `oauth:<provider id>`), creating it when
   * missing. Any failure is a failed `AuthResult`, logged with its reason.
   */
  resume(
    providerId: string,
    params: { code?: string; state?: string; error?: string },
    baseUrl: string,
  ): Promise<AuthResult>;
}
