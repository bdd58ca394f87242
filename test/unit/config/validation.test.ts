import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../server/config/index.js';
import { hoconFile, load, loadErrors } from './helpers.js';

const K = 'service.restserver';

describe('validation', () => {
  it('reports every error at once, each naming the key and the value', async () => {
    const file = hoconFile(`
      bind.port = 70000
      max-page-size = 0
      base-url = "http://files.example.org/"
      logging.format = Xml
      webapp { auth-renewal = 8 minutes, default-validity = 400 days, chunk-size = lots }
      backend.jdbc.url = "jdbc:h2:./pier;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE"
      backend.compute-checksum { capacity = 0, use-default = false, parallel = 0 }
      backend.files.default-store = s3
      backend.mail.smtp.ssl-type = tls
    `);
    const e = await loadErrors({ file });
    expect(e).toBeInstanceOf(ConfigError);
    const expected = [
      [`${K}.bind.port`, '70000'],
      [`${K}.max-page-size`, '0'],
      [`${K}.base-url`, '"http://files.example.org/"'],
      [`${K}.logging.format`, '"Xml"'],
      [`${K}.webapp.auth-renewal`, '8 minutes'],
      [`${K}.webapp.default-validity`, '400 days'],
      [`${K}.webapp.chunk-size`, '"lots"'],
      [`${K}.backend.jdbc.url`, 'jdbc:sqlite:'],
      [`${K}.backend.compute-checksum.capacity`, '0'],
      [`${K}.backend.compute-checksum.parallel`, '0'],
      [`${K}.backend.files.default-store`, '"s3"'],
      [`${K}.backend.mail.smtp.ssl-type`, '"tls"'],
    ];
    for (const [key, value] of expected) {
      const hit = e.errors.find((m) => m.startsWith(`${key}:`));
      expect(hit, `${key} in ${JSON.stringify(e.errors, null, 1)}`).toBeDefined();
      expect(hit).toContain(value);
    }
    expect(e.errors).toHaveLength(expected.length);
    expect(e.message).toContain(`${K}.bind.port`);
  });

  it('warns about unknown keys with the closest known key', async () => {
    const file = hoconFile('bind.prot = 1\nwebapp { app-nmae = x }\nbackend.files.stores.s3.buckt = b\nwebap { x = 1 }');
    const { warnings } = await load({ file });
    expect(warnings).toEqual([
      `${K}.bind.prot: unknown key, ignored; did you mean ${K}.bind.port?`,
      `${K}.webapp.app-nmae: unknown key, ignored; did you mean ${K}.webapp.app-name?`,
      `${K}.backend.files.stores.s3.buckt: unknown key, ignored; did you mean ${K}.backend.files.stores.s3.bucket?`,
      `${K}.webap: unknown key, ignored; did you mean ${K}.webapp?`,
    ]);
  });

  it('caps zip-max-size to max-size with a warning', async () => {
    const { config, warnings } = await load({ file: hoconFile('backend.share { max-size = 100M, zip-max-size = 1G }') });
    expect(config.backend.share.zipMaxSize).toBe(100 * 1024 * 1024);
    expect(warnings.some((w) => w.startsWith(`${K}.backend.share.zip-max-size:`))).toBe(true);
  });

  it('raises session-max to session-valid with a warning, and refuses trusted proxies that are no address', async () => {
    const { config, warnings } = await load({ file: hoconFile('backend.auth { session-valid = 30 days, session-max = 1 day }') });
    expect(config.backend.auth.sessionMax).toBe(30 * 24 * 3600_000);
    expect(warnings.some((w) => w.startsWith(`${K}.backend.auth.session-max:`))).toBe(true);
    const e = await loadErrors({ file: hoconFile('trusted-proxies = ["10.0.0.0/8", "proxy.lan"]') });
    expect(e.errors).toEqual([expect.stringMatching(/^service\.restserver\.trusted-proxies\.1: .*proxy\.lan/)]);
  });

  it('takes allowed-hosts that are names, addresses, .domains or *, and refuses anything else', async () => {
    const { config } = await load({ file: hoconFile('allowed-hosts = ["files.example.org", ".lan", "*", "[fd00::1]", "10.0.0.5"]') });
    expect(config.allowedHosts).toEqual(['files.example.org', '.lan', '*', '[fd00::1]', '10.0.0.5']);
    const e = await loadErrors({ file: hoconFile('allowed-hosts = ["ok.example", "http://x.example", "a b"]') });
    expect(e.errors).toEqual([expect.stringMatching(/^service\.restserver\.allowed-hosts\.1: /), expect.stringMatching(/^service\.restserver\.allowed-hosts\.2: /)]);
  });

  it('falls back to gb for an unknown default-language', async () => {
    const { config, warnings } = await load({ env: { SERVICE_WEBAPP_DEFAULT_LANGUAGE: 'xx' } });
    expect(config.webapp.defaultLanguage).toBe('gb');
    expect(warnings.some((w) => w.includes('default-language') && w.includes('"xx"'))).toBe(true);
    expect((await load({ env: { SERVICE_WEBAPP_DEFAULT_LANGUAGE: 'de' } })).config.webapp.defaultLanguage).toBe('de');
    for (const code of ['es', 'it', 'cz', 'br', 'ja']) {
      const r = await load({ env: { SERVICE_WEBAPP_DEFAULT_LANGUAGE: code } });
      expect(r.config.webapp.defaultLanguage, code).toBe(code);
      expect(r.warnings.filter((w) => w.includes('default-language')), code).toEqual([]);
    }
  });

  it('accepts auth-renewal exactly 30 seconds below session-valid', async () => {
    const { config } = await load({ file: hoconFile('webapp.auth-renewal = 270 seconds\nbackend.auth.session-valid = 5 minutes') });
    expect(config.webapp.authRenewal).toBe(270_000);
    const e = await loadErrors({ file: hoconFile('webapp.auth-renewal = 271 seconds\nbackend.auth.session-valid = 5 minutes') });
    expect(e.errors[0]).toMatch(/^service\.restserver\.webapp\.auth-renewal: .*session-valid/);
  });

  it('checks stores and copy-files', async () => {
    const disabled = await loadErrors({ env: { SERVICE_BACKEND_FILES_DEFAULT_STORE: 'filesystem' } });
    expect(disabled.errors).toEqual([`${K}.backend.files.default-store: store "filesystem" is not enabled`]);
    const copy = await loadErrors({
      file: hoconFile('backend.files.copy-files { enable = true, source = database, target = database }\nbackend.files.stores.x.directory = /x'),
    });
    expect(copy.errors).toContain(`${K}.backend.files.copy-files.target: must differ from the source, got "database"`);
    expect(copy.errors).toContain(`${K}.backend.files.stores.x.type: is required`);
    const ok = await load({
      file: hoconFile('backend.files { stores.filesystem.enabled = true, copy-files { enable = true, target = filesystem } }'),
    });
    expect(ok.config.backend.files.copyFiles).toMatchObject({ enable: true, source: 'database', target: 'filesystem' });
  });

  it('checks login modules and OAuth providers', async () => {
    const file = hoconFile(`
      backend.auth.fixed.enabled = true
      backend.auth.oauth.github { enabled = true, client-id = "" }
      backend.auth.oauth.corp { name = Corp, authorize-url = "https://corp/auth" }
    `);
    const e = await loadErrors({ file });
    expect(e.errors).toEqual(
      expect.arrayContaining([
        `${K}.backend.auth.fixed: is enabled without a user and a password, and there is no default (no admin/admin); set ${K}.backend.auth.fixed.user and ${K}.backend.auth.fixed.password (environment: SERVICE_BACKEND_AUTH_FIXED_USER and SERVICE_BACKEND_AUTH_FIXED_PASSWORD)`,
        `${K}.backend.auth.oauth.github.client-id: is required for an enabled provider, got ""`,
        `${K}.backend.auth.oauth.corp.token-url: is required for an enabled provider, got ""`,
        `${K}.backend.auth.oauth.corp.user-url: is required for an enabled provider, got ""`,
        `${K}.backend.auth.oauth.corp.user-id-key: is required for an enabled provider, got ""`,
        `${K}.backend.auth.oauth.corp.client-id: is required for an enabled provider, got ""`,
      ]),
    );
    expect(e.errors).toHaveLength(6);
  });

  it('accepts port 0 and refuses negative ports', async () => {
    expect((await load({ env: { SERVICE_BIND_PORT: '0' } })).config.bind.port).toBe(0);
    expect((await loadErrors({ env: { SERVICE_BIND_PORT: '-1' } })).errors).toEqual([
      `${K}.bind.port: expected an integer 0-65535, got "-1"`,
    ]);
  });

  it('accepts enum values in any case and booleans as words', async () => {
    const { config } = await load({ env: { SERVICE_LOGGING_FORMAT: 'json', SERVICE_BACKEND_MAIL_ENABLED: 'yes' } });
    expect(config.logging.format).toBe('Json');
    expect(config.backend.mail.enabled).toBe(true);
  });

  it('never echoes secrets in messages', async () => {
    const e = await loadErrors({ env: { SERVICE_BACKEND_AUTH_SERVER_SECRET: 'hex:xyz-not-hex' } });
    expect(e.errors).toHaveLength(1);
    expect(e.errors[0]).toMatch(/^service\.restserver\.backend\.auth\.server-secret:/);
    expect(e.errors[0]).not.toContain('xyz-not-hex');
  });

  it('requires a type for new stores and text for domain checks', async () => {
    const e = await loadErrors({ file: hoconFile('backend.share.database-domain-checks = [ { enabled = true } ]') });
    expect(e.errors).toEqual([
      `${K}.backend.share.database-domain-checks.0.native: is required`,
      `${K}.backend.share.database-domain-checks.0.message: is required`,
    ]);
  });

  it('refuses a non-object where a group belongs', async () => {
    const e = await loadErrors({ file: hoconFile('bind = 5') });
    expect(e.errors).toEqual([`${K}.bind: expected an object, got 5`]);
  });
});
