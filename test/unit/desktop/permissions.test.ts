// The desktop window left permission requests (camera, microphone, location,
// notifications, opening external programs, ...) to Electron's default, which grants
// them all without asking. Everything is denied now, except the little the web client
// needs on the server's own pages: writing to the clipboard (copy buttons) and
// fullscreen (video previews).
import { describe, expect, it } from 'vitest';
import { guardCookies, isPermissionAllowed, mayCarryCookies, setupPermissions, type CookieGuardSession, type PermissionSession } from '../../../main/permissions.js';

const ORIGIN = 'http://127.0.0.1:9090';

type RequestHandler = Parameters<PermissionSession['setPermissionRequestHandler']>[0];
type CheckHandler = Parameters<PermissionSession['setPermissionCheckHandler']>[0];
type DeviceHandler = Parameters<PermissionSession['setDevicePermissionHandler']>[0];

/** Records the handlers, as Electron's session keeps them. */
class FakeSession implements PermissionSession {
  request: RequestHandler = null;
  check: CheckHandler = null;
  device: DeviceHandler = null;
  setPermissionRequestHandler(h: RequestHandler): void {
    this.request = h;
  }
  setPermissionCheckHandler(h: CheckHandler): void {
    this.check = h;
  }
  setDevicePermissionHandler(h: DeviceHandler): void {
    this.device = h;
  }
}

describe('permissions of the desktop windows', () => {
  it('allow clipboard writing and fullscreen on the server’s pages only', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', `${ORIGIN}/app/share`, ORIGIN)).toBe(true);
    expect(isPermissionAllowed('fullscreen', `${ORIGIN}/app/open/x`, ORIGIN)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/', ORIGIN)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', `${ORIGIN}/app`, null)).toBe(false);
    for (const p of ['clipboard-read', 'media', 'geolocation', 'notifications', 'openExternal', 'midi', 'hid', 'serial', 'usb', 'display-capture', 'fileSystem', 'unknown'])
      expect(isPermissionAllowed(p, `${ORIGIN}/app`, ORIGIN), p).toBe(false);
  });

  it('are wired to the session’s request, check and device handlers, denying by default', () => {
    const s = new FakeSession();
    let origin: string | null = ORIGIN;
    setupPermissions(s, () => origin);
    const answers: boolean[] = [];
    const request = (permission: string, requestingUrl: string) =>
      (s.request as unknown as (w: unknown, p: string, cb: (ok: boolean) => void, d: { requestingUrl: string }) => void)(null, permission, (ok) => answers.push(ok), { requestingUrl });
    request('media', `${ORIGIN}/app`);
    request('notifications', `${ORIGIN}/app`);
    request('clipboard-sanitized-write', `${ORIGIN}/app/share`);
    request('clipboard-sanitized-write', 'http://127.0.0.1:9091/');
    expect(answers).toEqual([false, false, true, false]);

    const check = s.check as unknown as (w: unknown, p: string, o: string, d: { requestingUrl?: string }) => boolean;
    expect(check(null, 'clipboard-sanitized-write', ORIGIN, { requestingUrl: `${ORIGIN}/app` })).toBe(true);
    expect(check(null, 'clipboard-read', ORIGIN, {})).toBe(false);
    expect(check(null, 'geolocation', ORIGIN, {})).toBe(false);
    // a restart on another port: the old origin is no longer the server
    origin = 'http://127.0.0.1:9191';
    expect(check(null, 'clipboard-sanitized-write', ORIGIN, {})).toBe(false);

    expect((s.device as unknown as (d: unknown) => boolean)({ deviceType: 'usb', origin: ORIGIN })).toBe(false);
  });
});

describe('cookies', () => {
  it('go only to the running server’s origin: not to another program on its port while it is stopped', () => {
    expect(mayCarryCookies(`${ORIGIN}/app/shares`, ORIGIN)).toBe(true);
    expect(mayCarryCookies(`${ORIGIN}/app/shares`, null)).toBe(false);
    expect(mayCarryCookies('http://127.0.0.1:9091/app', ORIGIN)).toBe(false);
    expect(mayCarryCookies('http://localhost:9090/app', ORIGIN)).toBe(false);
  });

  it('are dropped from requests the rule refuses, whatever the header’s case', () => {
    let listener: Parameters<CookieGuardSession['webRequest']['onBeforeSendHeaders']>[0] | undefined;
    let origin: string | null = ORIGIN;
    guardCookies({ webRequest: { onBeforeSendHeaders: (l) => (listener = l) } }, () => origin);
    const send = (url: string, headers: Record<string, string>) => {
      let out: Record<string, string> = {};
      listener!({ url, requestHeaders: { ...headers } }, (r) => (out = r.requestHeaders));
      return out;
    };
    expect(send(`${ORIGIN}/api/v2/sec/share`, { Cookie: 'service_auth=t', Accept: '*/*' })).toEqual({ Cookie: 'service_auth=t', Accept: '*/*' });
    origin = null;
    expect(send(`${ORIGIN}/api/v2/sec/share`, { cookie: 'service_auth=t', Accept: '*/*' })).toEqual({ Accept: '*/*' });
  });
});
