import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hoconFile, load, loadErrors, tempDir, writeTemp } from './helpers.js';

describe('configuration files', () => {
  it('reads HOCON with units, comments, dotted keys and quoted map ids', async () => {
    const file = hoconFile(`
      # a comment
      base-url = "https://files.example.org"
      bind { address = 0.0.0.0, port = 8080 }
      webapp.app-name = "My Files"
      webapp.retry-delays = [0, 1000]
      backend.share { max-size = 10M, max-validity = 30 days, zip-max-size = 5M }
      backend.auth.session-valid = 10 minutes
      logging.levels { "pier.http" = Debug }
      backend.files {
        default-store = filesystem
        stores.filesystem { enabled = true, directory = /srv/files }
      }
    `);
    const { config: c, warnings } = await load({ file });
    expect(warnings).toEqual([]);
    expect(c.baseUrl).toBe('https://files.example.org');
    expect(c.baseUrlIsLocal).toBe(false);
    expect(c.bind).toEqual({ address: '0.0.0.0', port: 8080 });
    expect(c.webapp.appName).toBe('My Files');
    expect(c.webapp.retryDelays).toEqual([0, 1000]);
    expect(c.backend.share.maxSize).toBe(10 * 1024 * 1024);
    expect(c.backend.share.maxValidity).toBe(30 * 86_400_000);
    expect(c.backend.auth.sessionValid).toBe(600_000);
    expect(c.logging.levels).toEqual({ pier: 'Info', 'pier.http': 'Debug' });
    expect(c.backend.files.defaultStore).toBe('filesystem');
    expect(c.backend.files.stores['filesystem']).toMatchObject({ type: 'file-system', directory: '/srv/files', cleanEmptyDirs: true });
    expect(Object.keys(c.backend.files.stores).sort()).toEqual(['database', 'filesystem']);
  });

  it('reads JSON files', async () => {
    const dataDir = tempDir();
    const file = writeTemp(
      'pier.json',
      JSON.stringify({
        service: {
          restserver: {
            'data-dir': dataDir,
            bind: { port: 0 },
            backend: { signup: { mode: 'invite' }, mail: { enabled: true, smtp: { port: '587', 'ssl-type': 'ssl' } } },
          },
        },
      }),
    );
    const { config: c } = await load({ file });
    expect(c.dataDir).toBe(dataDir);
    expect(c.bind.port).toBe(0);
    expect(c.backend.signup.mode).toBe('invite');
    expect(c.backend.mail.smtp).toMatchObject({ port: 587, sslType: 'ssl' });
  });

  it('substitutes ${?VAR} from the env it is given, not from process.env', async () => {
    process.env['PIER_TEST_FROM_PROCESS'] = 'leaked';
    try {
      const file = hoconFile(`
        webapp.app-name = "fallback"
        webapp.app-name = \${?PIER_APP_NAME}
        bind.port = \${?PIER_PORT}
        webapp.welcome-message = "kept"
        webapp.welcome-message = \${?PIER_TEST_FROM_PROCESS}
      `);
      const { config } = await load({ file, env: { PIER_APP_NAME: 'From Env', PIER_PORT: '7070' } });
      expect(config.webapp.appName).toBe('From Env');
      expect(config.bind.port).toBe(7070); // strings from the environment are coerced
      expect(config.webapp.welcomeMessage).toBe('kept');
    } finally {
      delete process.env['PIER_TEST_FROM_PROCESS'];
    }
  });

  it('reports a missing file by name', async () => {
    const missing = join(tempDir(), 'nope.conf');
    const e = await loadErrors({ file: missing });
    expect(e.errors).toHaveLength(1);
    expect(e.errors[0]).toContain(missing);
  });

  it('reports an unparsable file with the parser message', async () => {
    const file = writeTemp('broken.conf', 'service.restserver { bind { port = 1 }');
    const e = await loadErrors({ file });
    expect(e.errors[0]).toContain(file);
    expect(e.errors[0]).toMatch(/not closed/i);
    const json = writeTemp('broken.json', '{"service": ');
    expect((await loadErrors({ file: json })).errors[0]).toContain(json);
  });

  it('warns about keys outside service.restserver', async () => {
    const file = writeTemp('other.conf', 'service.restserver.bind.port = 1234\nservice.other = 1\nfoo.bar = 2');
    const { config, warnings } = await load({ file });
    expect(config.bind.port).toBe(1234);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/outside service\.restserver.*foo, service\.other/);
  });

  it('accepts an empty file', async () => {
    const { config } = await load({ file: writeTemp('empty.conf', '') });
    expect(config.bind.port).toBe(9090);
  });
});
