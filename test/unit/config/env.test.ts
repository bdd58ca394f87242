import { describe, expect, it } from 'vitest';
import { hoconFile, load, loadErrors } from './helpers.js';

describe('environment overrides', () => {
  it('wins over the file', async () => {
    const file = hoconFile('bind { address = "10.0.0.1", port = 8080 }\nwebapp.app-name = "File"');
    const { config } = await load({ file, env: { SERVICE_BIND_PORT: '9999', SERVICE_WEBAPP_APP_NAME: 'Env' } });
    expect(config.bind).toEqual({ address: '10.0.0.1', port: 9999 });
    expect(config.webapp.appName).toBe('Env');
  });

  it('maps dashes and dots to underscores', async () => {
    const { config } = await load({
      env: {
        SERVICE_BACKEND_AUTH_HTTP_BASIC_URL: 'http://auth.local/check',
        SERVICE_BACKEND_AUTH_HTTP_URL: 'http://other.local',
        SERVICE_BACKEND_SHARE_MAX_SIZE: '10M',
        SERVICE_BACKEND_AUTH_SESSION_VALID: '20 minutes',
        SERVICE_WEBAPP_OAUTH_AUTO_REDIRECT: 'false',
        SERVICE_BACKEND_SIGNUP_MODE: 'closed',
      },
    });
    expect(config.backend.auth.httpBasic.url).toBe('http://auth.local/check');
    expect(config.backend.auth.http.url).toBe('http://other.local');
    expect(config.backend.share.maxSize).toBe(10 * 1024 * 1024);
    expect(config.backend.share.zipMaxSize).toBe(10 * 1024 * 1024); // capped
    expect(config.backend.auth.sessionValid).toBe(20 * 60_000);
    expect(config.webapp.oauthAutoRedirect).toBe(false);
    expect(config.backend.signup.mode).toBe('closed');
  });

  it('reads lists as comma lists or JSON arrays', async () => {
    const comma = await load({ env: { SERVICE_WEBAPP_RETRY_DELAYS: '0, 100,200' } });
    expect(comma.config.webapp.retryDelays).toEqual([0, 100, 200]);
    const json = await load({ env: { SERVICE_WEBAPP_RETRY_DELAYS: '[5, 6]', SERVICE_PLAYER_COVER_NAMES: '["a b","c"]' } });
    expect(json.config.webapp.retryDelays).toEqual([5, 6]);
    expect(json.config.player.cover.names).toEqual(['a b', 'c']);
  });

  it('reaches map entries of the defaults and of the file', async () => {
    const file = hoconFile('backend.files.stores.archive { type = file-system, directory = /a }\nlogging.levels { "pier.http" = Debug }');
    const { config } = await load({
      file,
      env: {
        SERVICE_BACKEND_FILES_STORES_DATABASE_ENABLED: 'true',
        SERVICE_BACKEND_FILES_STORES_FILESYSTEM_ENABLED: 'true',
        SERVICE_BACKEND_FILES_STORES_ARCHIVE_DIRECTORY: '/b',
        SERVICE_BACKEND_FILES_DEFAULT_STORE: 'filesystem',
        SERVICE_LOGGING_LEVELS_PIER_HTTP: 'Trace',
        SERVICE_PLAYER_CONNECTIONS_DEFAULT_PORT: '6601',
        SERVICE_BACKEND_SHARE_DATABASE_DOMAIN_CHECKS_SNAKEOIL_ENABLED: 'true',
      },
    });
    expect(config.backend.files.defaultStore).toBe('filesystem');
    expect(config.backend.files.stores['filesystem']?.directory).toBe(`${config.dataDir}/files`);
    expect(config.backend.files.stores['archive']?.directory).toBe('/b');
    expect(config.logging.levels['pier.http']).toBe('Trace');
    expect(config.player.connections['default']?.port).toBe(6601);
    expect(config.backend.share.databaseDomainChecks[0]?.enabled).toBe(true);
    expect(config.backend.share.databaseDomainChecks[0]?.native).toContain('safe_bytea');
  });

  it('takes a whole map as JSON, keeping the defaults of predefined entries', async () => {
    const { config } = await load({
      env: {
        SERVICE_PLAYER_CONNECTIONS: JSON.stringify({ default: { port: 7000 }, kitchen: { host: 'kitchen.local' } }),
      },
    });
    expect(config.player.connections['default']).toMatchObject({ host: '127.0.0.1', port: 7000, title: 'Default' });
    expect(config.player.connections['kitchen']).toMatchObject({ host: 'kitchen.local', port: 6600, title: 'kitchen' });
  });

  it('reports bad values from the environment under the key', async () => {
    const e = await loadErrors({ env: { SERVICE_BIND_PORT: 'eighty', SERVICE_BACKEND_FILES_STORES: '{nope' } });
    expect(e.errors).toContain('service.restserver.bind.port: expected an integer 0-65535, got "eighty"');
    expect(e.errors.some((m) => m.startsWith('environment variable SERVICE_BACKEND_FILES_STORES: expected a JSON object'))).toBe(true);
  });

  it('warns about SERVICE_ variables that match no key', async () => {
    const { warnings } = await load({ env: { SERVICE_BIND_PROT: '1', OTHER_VAR: 'x' } });
    expect(warnings).toEqual(['environment variable SERVICE_BIND_PROT: no such key, ignored; did you mean SERVICE_BIND_PORT?']);
  });
});
