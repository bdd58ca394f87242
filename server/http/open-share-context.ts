import type { Request, Response } from 'express';
import type { AuthService } from '../core/auth/auth.service.js';
import { SHARE_COOKIE } from '../core/shares/share-cookie.js';
import type { PublicCredentials, ShareCookie } from '../core/shares/public-share.js';
import type { ClientOrigin } from './client-origin.js';
import { cookieFromHeader, requestToken } from './request-context.js';

export const PASSWORD_HEADER = 'service-password';

/** The path every public route of one share lives below; the share cookie is scoped to it. */
export const publicSharePath = (publishId: string): string => `/api/v2/open/share/${encodeURIComponent(publishId)}`;

/** `Service-Password` is percent-encoded UTF-8; a value that does not decode is taken as written. */
const decodePassword = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/**
 * What a public request brings to prove access: password header, share
 * cookie, client address, and the signed-in user when it carries a valid
 * token (header or cookie; the owner and alias members count no view).
 */
export const publicCredentials = async (req: Request, origin: ClientOrigin, auth: AuthService): Promise<PublicCredentials> => {
  const claims = await auth.authenticate(requestToken(req));
  return {
    password: decodePassword(req.get(PASSWORD_HEADER)),
    cookie: cookieFromHeader(req.headers.cookie, SHARE_COOKIE),
    address: origin.clientAddress(req),
    viewer: claims && { kind: 'user', accountId: claims.accountId, login: claims.login, admin: claims.admin },
    userAgent: req.get('user-agent'),
  };
};

/** Sets the share cookie: HttpOnly, SameSite=Lax, only sent to this share's public routes. */
export const setShareCookie = (res: Response, publishId: string, cookie: ShareCookie, secure: boolean): void => {
  res.cookie(SHARE_COOKIE, cookie.value, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: publicSharePath(publishId),
    maxAge: cookie.maxAgeMs,
  });
};
