import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

const FIELDS = [
  'appName', 'baseUrl', 'logoUrl', 'logoUrlDark', 'iconUrl', 'iconUrlDark', 'footerText', 'footerVisible',
  'signupMode', 'oauthConfig', 'chunkSize', 'maxValidity', 'maxSize', 'authRefreshTime', 'defaultValidity',
  'zipMaxSize', 'retryDelays', 'mailEnabled', 'oauthOnly', 'aliasMemberEnabled', 'playerEnabled', 'oauthAutoRedirect',
  'proxyAuthEnabled', 'proxyOnly', 'hideLoginForm', 'sharePasswordRequired', 'autoPublishEnabled',
  'welcomeMessage', 'defaultLanguage', 'initialTheme', 'defaultTimezone', 'initialPage', 'passwordMinLength',
];

describe('client settings and version', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('answers every client-settings field with the defaults', async () => {
    const res = await s.request('GET', '/api/v2/open/info/appconfig');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...FIELDS].sort());
    expect(res.body).toMatchObject({
      appName: 'Pier',
      baseUrl: s.url,
      signupMode: 'open',
      oauthConfig: [],
      chunkSize: 10 * 1024 * 1024,
      maxValidity: 365 * 86_400_000,
      maxSize: Math.round(1.5 * 1024 ** 3),
      authRefreshTime: 4 * 60_000,
      defaultValidity: 7 * 86_400_000,
      zipMaxSize: Math.round(1.5 * 1024 ** 3),
      retryDelays: [0, 3000, 6000, 12000, 24000, 48000],
      mailEnabled: false,
      oauthOnly: false,
      aliasMemberEnabled: true,
      playerEnabled: true,
      oauthAutoRedirect: true,
      proxyAuthEnabled: false,
      proxyOnly: false,
      hideLoginForm: false,
      sharePasswordRequired: false,
      autoPublishEnabled: true,
      footerVisible: true,
      defaultLanguage: 'gb',
      initialTheme: 'light',
      initialPage: 'home',
      passwordMinLength: 8,
    });
  });

  it('derives the base URL from the request while base-url is local, ignoring forwarding headers of a peer that is no trusted proxy', async () => {
    const res = await s.request('GET', '/api/v2/open/info/appconfig', undefined, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'files.example.test' },
    });
    // forwarding headers count only from `trusted-proxies` (test/api/http/host-header.test.ts)
    expect(res.body['baseUrl']).toBe(s.url);
  });

  it('answers the version', async () => {
    const res = await s.request('GET', '/api/v2/open/info/version');
    expect(res.status).toBe(200);
    expect(res.body['version']).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('client settings from configuration', () => {
  it('reflects the configured values and the login modules', async () => {
    const s = await startServer({
      config: {
        'base-url': 'https://pier.example.test',
        'alias-member-enabled': false,
        player: { enabled: false },
        webapp: { 'app-name': 'Dock', 'chunk-size': '2M', 'retry-delays': [0, 100], 'publish-on-upload': false },
        backend: {
          signup: { mode: 'invite' },
          share: { 'require-share-password': true, 'max-size': '10M', 'zip-max-size': '20M' },
          auth: {
            internal: { enabled: false },
            proxy: { enabled: true },
            oauth: {
              prov: {
                enabled: true, name: 'Provider', icon: 'fa-openid', 'authorize-url': 'http://127.0.0.1:1/a',
                'token-url': 'http://127.0.0.1:1/t', 'user-url': 'http://127.0.0.1:1/u', 'user-id-key': 'login', 'client-id': 'cid',
              },
            },
          },
        },
      },
      initialAdmin: { kind: 'none' },
    });
    try {
      const res = await s.request('GET', '/api/v2/open/info/appconfig');
      expect(res.body).toMatchObject({
        appName: 'Dock',
        baseUrl: 'https://pier.example.test',
        chunkSize: 2 * 1024 * 1024,
        retryDelays: [0, 100],
        signupMode: 'invite',
        sharePasswordRequired: true,
        autoPublishEnabled: false,
        aliasMemberEnabled: false,
        playerEnabled: false,
        maxSize: 10 * 1024 * 1024,
        zipMaxSize: 10 * 1024 * 1024,
        oauthConfig: [{ id: 'prov', name: 'Provider', icon: 'fa-openid' }],
        proxyAuthEnabled: true,
        oauthOnly: false,
        proxyOnly: false,
        hideLoginForm: true,
      });
    } finally {
      await s.stop();
    }
  });
});

describe("autoPublishEnabled (Sharry's field)", () => {
  it("is publish-on-upload, also when set through Sharry's auto-publish-enabled", async () => {
    const s = await startServer({ env: { SERVICE_WEBAPP_AUTO_PUBLISH_ENABLED: 'false' } });
    try {
      expect(s.config.webapp.publishOnUpload).toBe(false);
      const res = await s.request('GET', '/api/v2/open/info/appconfig');
      expect(res.body['autoPublishEnabled']).toBe(false);
    } finally {
      await s.stop();
    }
  });
});
