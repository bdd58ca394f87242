/**
 * Permission requests of the pages in Pier's windows: denied, except what the web
 * client needs on the server's own pages. Electron's default grants every request
 * (camera, microphone, location, notifications, opening external programs, ...).
 *
 * Allowed: `clipboard-sanitized-write` (the copy buttons) and `fullscreen` (video
 * previews). Not allowed: `notifications` (main/ shows Pier's notifications itself),
 * `openExternal` (links leave through the navigation lock, windows.ts), reading the
 * clipboard, media, devices and everything else.
 */
import type { Session } from 'electron';
import { originOf } from './windows.js';

const ALLOWED: ReadonlySet<string> = new Set(['clipboard-sanitized-write', 'fullscreen']);

/** True when `permission` asked by a page at `url` is granted; `serverOrigin` null (server stopped): nothing is. */
export const isPermissionAllowed = (permission: string, url: string, serverOrigin: string | null): boolean =>
  serverOrigin !== null && ALLOWED.has(permission) && originOf(url) === serverOrigin;

/** The handlers of an Electron session this module sets (a fake in tests). */
export type PermissionSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>;

/** Installs the handlers on `session`; `serverOrigin` is read at each request (restarts change the port). */
export const setupPermissions = (session: PermissionSession, serverOrigin: () => string | null): void => {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl, serverOrigin()));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, serverOrigin()),
  );
  // WebHID, Web Serial, WebUSB: no page of Pier uses a device
  session.setDevicePermissionHandler(() => false);
};

/**
 * True when a request to `url` may carry the window's cookies: only to the running
 * server's origin. Cookies are not bound to a port, so while Pier's server is stopped
 * or restarting, another local program listening on its port would otherwise receive
 * the desktop account's session.
 */
export const mayCarryCookies = (url: string, serverOrigin: string | null): boolean => serverOrigin !== null && originOf(url) === serverOrigin;

/** The parts of an Electron session's `webRequest` the cookie guard uses. */
export interface CookieGuardSession {
  webRequest: {
    onBeforeSendHeaders(
      listener: (details: { url: string; requestHeaders: Record<string, string> }, callback: (response: { requestHeaders: Record<string, string> }) => void) => void,
    ): void;
  };
}

/** Drops the `Cookie` header of every request that `mayCarryCookies` refuses. */
export const guardCookies = (session: CookieGuardSession, serverOrigin: () => string | null): void => {
  session.webRequest.onBeforeSendHeaders((details, callback) => {
    const headers = details.requestHeaders;
    if (!mayCarryCookies(details.url, serverOrigin())) {
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'cookie') delete headers[name];
    }
    callback({ requestHeaders: headers });
  });
};
