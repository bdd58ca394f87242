import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { load, tempDir } from './helpers.js';
import { loadConfig } from '../../../server/config/index.js';

describe('defaults', () => {
  it('loads without a file, with the documented defaults', async () => {
    const dataDir = tempDir();
    const { config: c, warnings } = await loadConfig({ defaults: { dataDir } });
    expect(warnings).toEqual([]);
    expect(c.baseUrl).toBe('http://localhost:9090');
    expect(c.baseUrlIsLocal).toBe(true);
    expect(c.bind).toEqual({ address: 'localhost', port: 9090 });
    expect(c.dataDir).toBe(dataDir);
    expect(c.maxPageSize).toBe(100);
    expect(c.fileDownload.downloadChunkSize).toBe(4 * 1024 * 1024);
    expect(c.aliasMemberEnabled).toBe(true);
    expect(c.logging).toEqual({ format: 'Fancy', minimumLevel: 'Warn', levels: { pier: 'Info' } });
  });

  it('has the webapp defaults', async () => {
    const { webapp } = (await load()).config;
    expect(webapp).toMatchObject({
      appName: 'Pier',
      appIcon: '',
      appFooterVisible: true,
      chunkSize: 10 * 1024 * 1024,
      retryDelays: [0, 3000, 6000, 12000, 24000, 48000],
      defaultLanguage: 'gb',
      authRenewal: 4 * 60_000,
      initialPage: 'home',
      defaultValidity: 7 * 86_400_000,
      initialTheme: 'light',
      oauthAutoRedirect: true,
      customHead: '',
      defaultTimezone: '',
      publishOnUpload: true,
      autoPublishEnabled: '',
    });
  });

  it('has the backend defaults', async () => {
    const { config: c } = await load();
    const b = c.backend;
    expect(b.auth.sessionValid).toBe(8 * 60_000);
    expect(b.auth.fixed).toEqual({ enabled: false, user: '', password: '', order: 10 });
    expect(b.auth.http).toEqual({
      enabled: false,
      url: 'http://localhost:1234/auth?user={{user}}&password={{pass}}',
      method: 'POST',
      body: '',
      contentType: '',
      order: 20,
    });
    expect(b.auth.httpBasic).toEqual({ enabled: false, url: 'http://localhost:2345/path', method: 'GET', order: 30 });
    expect(b.auth.command).toEqual({
      enabled: false,
      program: ['/path/to/someprogram', '{{user}}', '{{pass}}'],
      success: 0,
      order: 40,
      timeout: 10_000,
    });
    expect(b.auth.internal).toEqual({ enabled: true, order: 50 });
    expect(b.auth.oauth['github']).toMatchObject({ enabled: false, clientId: '', clientSecret: '', userIdKey: 'login' });
    expect(b.auth.proxy).toEqual({ enabled: false, userHeader: 'X-Valid-User', emailHeader: 'X-User-Email' });
    expect(b.jdbc).toEqual({ url: `jdbc:sqlite:${c.dataDir}/pier.db`, user: 'sa', password: '' });
    expect(b.files.defaultStore).toBe('database');
    expect(Object.keys(b.files.stores)).toEqual(['database']); // disabled stores are dropped
    expect(b.files.stores['database']?.type).toBe('default-database');
    expect(b.files.copyFiles).toEqual({ enable: false, source: 'database', target: '', parallel: 2 });
    expect(b.computeChecksum).toMatchObject({ enable: true, capacity: 5000, useDefault: true });
    expect(b.computeChecksum.parallel).toBeGreaterThanOrEqual(1);
    expect(b.share).toEqual({
      chunkSize: 512 * 1024,
      maxSize: 1610612736,
      maxValidity: 365 * 86_400_000,
      zipMaxSize: 1610612736,
      requireSharePassword: false,
      databaseDomainChecks: [
        { enabled: false, native: 'domain safe_bytea violates check constraint', message: 'The uploaded file contains a virus!' },
      ],
    });
    expect(b.signup).toEqual({ mode: 'open', inviteTime: 14 * 86_400_000, invitePassword: '' });
    expect(b.cleanup).toEqual({ enabled: true, interval: 14 * 86_400_000, invalidAge: 7 * 86_400_000 });
    expect(b.mail.enabled).toBe(false);
    expect(b.mail.smtp).toEqual({
      host: 'localhost',
      port: 25,
      user: '',
      password: '',
      sslType: 'starttls',
      checkCertificates: true,
      timeout: 10_000,
      defaultFrom: '',
      listId: 'Pier',
    });
    expect(b.mail.templates.download.subject).toBe('Download ready.');
    expect(b.mail.templates.download.body).toContain('{{{url}}}');
    expect(b.mail.templates.download.body).toContain('{{#password}}The required password will be sent by other means.{{/password}}');
    expect(b.mail.templates.download.body).toContain('{{user}} via Pier');
    expect(b.mail.templates.alias.subject).toBe('Link for Upload');
    expect(b.mail.templates.uploadNotify.subject).toBe('[Pier] Files arrived');
    expect(b.mail.templates.uploadNotify.body).toMatch(/\{\{aliasName\}\}[\s\S]*\{\{\{url\}\}\}/);
  });

  it('has the player and other contract defaults', async () => {
    const { config: c } = await load();
    expect(c.player).toEqual({
      enabled: true,
      access: 'user',
      musicDirectory: '',
      connections: {
        default: { host: '127.0.0.1', port: 6600, password: '', title: 'Default', musicDirectory: '', maxConnections: 5, timeout: 5000 },
      },
      cover: { names: ['cover', 'folder', 'front', 'artwork', 'Cover', 'Folder'], extensions: ['jpg', 'jpeg', 'png', 'webp', 'gif'] },
      booklet: { names: ['booklet'], extensions: ['pdf'] },
      thumbnails: { enabled: true, sizes: [128, 256, 512, 1024], directory: `${c.dataDir}/thumbnails`, maxParallel: 2 },
      placeholderUrl: '',
      cacheSize: 3000,
      rooms: { joinsPerAddressPerHour: 20, guestsPerRoom: 50, addsPerGuestPerMinute: 6 },
    });
    expect(c.customContent).toEqual({ enabled: false, directory: '' });
    expect(c.rateLimit).toEqual({
      enabled: true,
      loginFailures: 10,
      sharePasswordFailures: 10,
      allAddresses: 30,
      rememberSuccess: 30 * 24 * 3600_000,
      signups: 10,
      window: 60_000,
    });
    expect(c.trustedProxies).toEqual([]);
    expect(c.allowedHosts).toEqual([]);
    expect(c.backend.auth.sessionMax).toBe(7 * 24 * 3600_000);
    expect(c.limits).toEqual({
      filesPerShare: 1000,
      sharesPerAliasPerHour: 30,
      sharesPerGuestPerHour: 10,
      aliasMailsPerHour: 10,
      mailsPerAccountPerHour: 30,
      descriptionLength: 20000,
      activityEntries: 500,
      websocketsPerUser: 4,
      websockets: 32,
      connections: 512,
      connectionsPerAddress: 64,
      anonymousConnectionsPerAddress: 16,
      minBodyRate: 1024,
      bodyRateWindow: 60_000,
      headerTimeout: 20_000,
      idleTimeout: 60_000,
      uploadLockWait: 20_000,
      uploadIdleTimeout: 15_000,
    });
  });

  it('returns a deeply frozen config', async () => {
    const { config } = await load();
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.backend.files.stores['database'])).toBe(true);
    expect(Object.isFrozen(config.webapp.retryDelays)).toBe(true);
    expect(() => {
      (config.bind as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('uses the user’s data folder as data-dir when none is configured, not the shared temp dir', async () => {
    const home = tempDir();
    const { config, warnings } = await loadConfig({ env: { HOME: home, XDG_DATA_HOME: join(home, 'xdg') }, platform: 'linux' });
    expect(config.dataDir).toBe(join(home, 'xdg', 'pier'));
    expect(config.dataDir).not.toBe(join(tmpdir(), 'pier'));
    expect(warnings).toEqual([]);
  });

  it('derives baseUrlIsLocal from the host of base-url', async () => {
    for (const [url, local] of [
      ['http://127.0.0.1:8080', true],
      ['http://[::1]:9090', true],
      ['https://files.example.org', false],
    ] as const) {
      const { config } = await load({ env: { SERVICE_BASE_URL: url } });
      expect(config.baseUrlIsLocal, url).toBe(local);
    }
  });
});
