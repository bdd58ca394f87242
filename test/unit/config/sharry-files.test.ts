import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keyPatterns } from '../../../server/config/paths.js';
import { camel, type LeafSpec, type Spec } from '../../../server/config/spec-kit.js';
import { restserverSpec } from '../../../server/config/spec.js';
import { hoconFile, load, loadErrors, tempDir, writeTemp } from './helpers.js';

const K = 'service.restserver';
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/sharry/${name}`, import.meta.url));
const read = (name: string) => readFileSync(fixture(name), 'utf8');

/** `text` with its one H2 URL replaced by Pier's default database URL for `dataDir`. */
const withDefaultUrl = (text: string, dataDir: string): string => {
  const url = `jdbc:sqlite:${dataDir}/pier.db`;
  const out = text.replace(/^(\s*url = )"jdbc:h2:.*$/m, `$1"${url}"`).replace(/"url":"jdbc:h2:[^"]*"/, `"url":"${url}"`);
  expect(out).not.toBe(text);
  expect(out).not.toContain('jdbc:h2:');
  return out;
};

const h2Error = (url: string) =>
  `${K}.backend.jdbc.url: H2 is not supported, use jdbc:sqlite:<file> for the embedded database, got ${JSON.stringify(url)}`;
// reference.conf sets Sharry's `auto-publish-enabled = false`, which then decides `publish-on-upload`
const sharryPublish = `${K}.webapp.auto-publish-enabled: is Sharry's name for ${K}.webapp.publish-on-upload; its value (false) is used for that key, so rename it`;
const publishedSecret = `${K}.backend.auth.server-secret: hex:caffee is the published example secret (anyone could forge tokens with it); it is ignored and the generated secret in the data directory is used`;

describe("Sharry's docker/sharry.conf (renamed)", () => {
  // It enables the fixed login and relies on Sharry's admin/admin defaults. That
  // was reported as two errors, one per key, neither naming the environment variables.
  it('is refused with one message naming both keys and their environment variables', async () => {
    const e = await loadErrors({ file: fixture('docker.conf') });
    expect(e.errors).toEqual([
      `${K}.backend.auth.fixed: is enabled without a user and a password, and there is no default (no admin/admin); ` +
        `set ${K}.backend.auth.fixed.user and ${K}.backend.auth.fixed.password ` +
        '(environment: SERVICE_BACKEND_AUTH_FIXED_USER and SERVICE_BACKEND_AUTH_FIXED_PASSWORD)',
    ]);
  });

  it('names only the missing key when the other one is set, and starts once both are', async () => {
    const e = await loadErrors({ file: fixture('docker.conf'), env: { SERVICE_BACKEND_AUTH_FIXED_USER: 'root' } });
    expect(e.errors).toEqual([
      `${K}.backend.auth.fixed: is enabled without a password, and there is no default (no admin/admin); ` +
        `set ${K}.backend.auth.fixed.password (environment: SERVICE_BACKEND_AUTH_FIXED_PASSWORD)`,
    ]);
    const { config } = await load({
      file: fixture('docker.conf'),
      env: { SERVICE_BACKEND_AUTH_FIXED_USER: 'root', SERVICE_BACKEND_AUTH_FIXED_PASSWORD: 'a long secret' },
    });
    expect(config.backend.auth.fixed).toMatchObject({ enabled: true, user: 'root', password: 'a long secret' });
    expect(config.backend.jdbc).toEqual({ url: 'jdbc:postgresql://db:5432/dbname', user: 'dbuser', password: 'dbpass' });
  });
});

describe('a Sharry file left unrenamed', () => {
  it('is ignored with a warning that says to rename its root', async () => {
    const file = writeTemp('sharry.conf', read('docker.conf').replace('service.restserver {', 'sharry.restserver {'));
    const { config, warnings } = await load({ file });
    expect(warnings).toEqual([`config file ${file}: keys outside ${K} are ignored: sharry; rename sharry.restserver to ${K}`]);
    expect(config.backend.auth.fixed.enabled).toBe(false);
  });
});

describe("Sharry's reference.conf (renamed)", () => {
  it("loads with its H2 URL replaced by the default, warning only about its published server secret and Sharry's auto-publish key", async () => {
    const dataDir = tempDir();
    const file = writeTemp('reference.conf', withDefaultUrl(read('reference.conf'), dataDir));
    const { config: c, warnings } = await load({ file, defaults: { dataDir } });
    expect(warnings).toEqual([sharryPublish, publishedSecret]);
    expect(c.webapp.publishOnUpload).toBe(false);
    // tokens are signed with the generated secret, never with the published one
    expect(Buffer.from(c.backend.auth.serverSecret).toString('hex')).not.toBe('caffee');
    expect(`hex:${Buffer.from(c.backend.auth.serverSecret).toString('hex')}`).toBe(readFileSync(join(dataDir, 'server-secret'), 'utf8').trim());
    expect(c.backend.jdbc.url).toBe(`jdbc:sqlite:${dataDir}/pier.db`);
    expect(c.webapp.appName).toBe('Sharry');
    expect(c.backend.auth.oauth['aad']).toMatchObject({ enabled: false, scope: 'openid', userEmailKey: 'email' });
    expect(c.backend.auth.oauth['google']?.userEmailKey).toBe('');
    expect(Object.keys(c.backend.files.stores)).toEqual(['database']);
    expect(c.backend.share.databaseDomainChecks).toEqual([
      { enabled: false, native: 'domain safe_bytea violates check constraint', message: 'The uploaded file contains a virus!' },
    ]);
  });

  it('with its H2 URL kept gives exactly the H2 message, ${java.io.tmpdir} resolved', async () => {
    const e = await loadErrors({ file: fixture('reference.conf') });
    expect(e.errors).toEqual([h2Error(`jdbc:h2://${tmpdir()}/sharry-demo.db;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE`)]);
    expect(e.warnings).toEqual([sharryPublish]);
  });

  it('resolves ${java.io.tmpdir} to the OS temp directory in any value', async () => {
    const { config } = await load({ file: hoconFile('webapp.welcome-message = "files in "${java.io.tmpdir}"/x"') });
    expect(config.webapp.welcomeMessage).toBe(`files in ${tmpdir()}/x`);
  });
});

describe('database-domain-checks', () => {
  const check = (native: string, message: string, enabled = true) => ({ enabled, native, message });
  const snakeoil = check('domain safe_bytea violates check constraint', 'The uploaded file contains a virus!', false);

  it('accepts named entries, merged by id into the predefined snakeoil entry', async () => {
    const file = hoconFile(`backend.share.database-domain-checks {
      snakeoil.enabled = true
      clamav = { enabled = true, native = "infected", message = "A virus!" }
    }`);
    const { config, warnings } = await load({ file });
    expect(warnings).toEqual([]);
    expect(config.backend.share.databaseDomainChecks).toEqual([{ ...snakeoil, enabled: true }, check('infected', 'A virus!')]);
  });

  it('accepts a list, which replaces the predefined entries', async () => {
    const { config } = await load({ file: hoconFile('backend.share.database-domain-checks = [ { native = "x", message = "y" } ]') });
    expect(config.backend.share.databaseDomainChecks).toEqual([check('x', 'y')]);
  });

  it('names a bad named entry by its id', async () => {
    const e = await loadErrors({ file: hoconFile('backend.share.database-domain-checks.mine { enabled = maybe }') });
    expect(e.errors).toEqual([
      `${K}.backend.share.database-domain-checks.mine.enabled: expected true or false, got "maybe"`,
      `${K}.backend.share.database-domain-checks.mine.native: is required`,
      `${K}.backend.share.database-domain-checks.mine.message: is required`,
    ]);
    const bad = await loadErrors({ file: hoconFile('backend.share.database-domain-checks = 5') });
    expect(bad.errors).toEqual([`${K}.backend.share.database-domain-checks: expected a list of objects or named entries, got 5`]);
  });

  it('reaches named entries from the environment by id, entries of a configured list by index', async () => {
    const named = await load({
      file: hoconFile('backend.share.database-domain-checks.clamav { native = "infected", message = "A virus!" }'),
      env: {
        SERVICE_BACKEND_SHARE_DATABASE_DOMAIN_CHECKS_SNAKEOIL_ENABLED: 'true',
        SERVICE_BACKEND_SHARE_DATABASE_DOMAIN_CHECKS_CLAMAV_ENABLED: 'false',
      },
    });
    expect(named.warnings).toEqual([]);
    expect(named.config.backend.share.databaseDomainChecks).toEqual([{ ...snakeoil, enabled: true }, check('infected', 'A virus!', false)]);

    const listed = await load({
      file: hoconFile('backend.share.database-domain-checks = [ { native = "x", message = "y" } ]'),
      env: { SERVICE_BACKEND_SHARE_DATABASE_DOMAIN_CHECKS_0_MESSAGE: 'z' },
    });
    expect(listed.config.backend.share.databaseDomainChecks).toEqual([check('x', 'z')]);

    const json = await load({ env: { SERVICE_BACKEND_SHARE_DATABASE_DOMAIN_CHECKS: '{"other": {"native": "n", "message": "m"}}' } });
    expect(json.config.backend.share.databaseDomainChecks).toEqual([snakeoil, check('n', 'm')]);
  });
});

/** Every leaf key marked optional, with `*` (map ids) replaced by an id the defaults define. */
const optionalKeys = (): string[][] => {
  const at = (segs: string[]): Spec | undefined =>
    segs.reduce<Spec | undefined>((s, seg) => {
      if (s?.kind === 'group') return s.children[seg];
      if (s?.kind === 'map' || s?.kind === 'object-list') return seg === '*' ? s.entry : undefined;
      return undefined;
    }, restserverSpec);
  const ids: Record<string, string> = { oauth: 'github', stores: 'database', connections: 'default' };
  return keyPatterns(restserverSpec)
    .filter((p) => (at(p) as LeafSpec | undefined)?.optional === true)
    .map((p) => p.map((s, i) => (s === '*' ? (ids[p[i - 1] ?? ''] ?? 'x') : s)));
};

describe('null for an optional key', () => {
  it("means not set in the file Sharry's NixOS module writes (renamed)", async () => {
    const dataDir = tempDir();
    const file = writeTemp('sharry.conf', withDefaultUrl(read('nixos-module.conf'), dataDir));
    expect(readFileSync(file, 'utf8')).toContain('"email-header":null');
    expect(readFileSync(file, 'utf8')).toContain('"user-email-key":null');
    const { config, warnings } = await load({ file, defaults: { dataDir } });
    expect(warnings).toEqual([publishedSecret]);
    expect(config.backend.auth.proxy.emailHeader).toBe('');
    expect(config.backend.auth.oauth['github']?.userEmailKey).toBe('');
    expect(config.webapp.chunkSize).toBe(100 * 1024 * 1024);
  });

  it('keeps working with the include the NixOS module appends for its overrides file', async () => {
    const dataDir = tempDir();
    const overrides = writeTemp('overrides.conf', 'backend.auth.fixed { enabled = true, password = "from the overrides" }');
    const text = `${withDefaultUrl(read('nixos-module.conf'), dataDir)}service.restserver = { include "${overrides}" }\n`;
    const { config } = await load({ file: writeTemp('sharry.conf', text), defaults: { dataDir } });
    expect(config.backend.auth.fixed).toMatchObject({ enabled: true, user: 'admin', password: 'from the overrides' });
    expect(config.backend.auth.proxy.emailHeader).toBe('');
  });

  it('means not set (empty) for every optional key, and the data directory falls back to its default', async () => {
    const keys = optionalKeys();
    const names = keys.map((k) => k.join('.'));
    expect(names).toEqual(
      expect.arrayContaining([
        'data-dir',
        'webapp.default-timezone',
        'backend.auth.proxy.email-header',
        'backend.auth.oauth.github.user-email-key',
        'backend.auth.oauth.github.icon',
        'backend.mail.smtp.default-from',
        'backend.mail.smtp.list-id',
      ]),
    );
    const dataDir = tempDir();
    const { config, warnings } = await load({ file: hoconFile(names.map((n) => `${n} = null`).join('\n')), defaults: { dataDir } });
    expect(warnings).toEqual([]);
    expect(config.dataDir).toBe(dataDir);
    const value = (segs: string[]): unknown =>
      segs.reduce<unknown>((v, s) => (v as Record<string, unknown>)[camel(s)], config);
    const computed = ['data-dir', 'backend.auth.server-secret', 'player.connections.default.title'];
    for (const k of keys.filter((k) => !computed.includes(k.join('.')))) expect(value(k), k.join('.')).toBe('');
    expect(config.player.connections['default']?.title).toBe('default'); // empty: the id
    expect(config.backend.auth.serverSecret.length).toBe(32); // generated
  });

  it('is an error for a key that is not optional, naming the key', async () => {
    const e = await loadErrors({ file: hoconFile('bind.port = null\nbind.address = null\nwebapp.app-name = null') });
    expect(e.errors).toEqual([
      `${K}.bind.address: expected a string, got null`,
      `${K}.bind.port: expected an integer 0-65535, got null`,
      `${K}.webapp.app-name: expected a string, got null`,
    ]);
  });
});

describe('SERVICE_CONFIG_FILE', () => {
  const file = (name: string) => hoconFile(`webapp.app-name = "${name}"`);

  it('names the file when the caller gives none; the caller’s file wins', async () => {
    const fromEnv = file('From env');
    const viaEnv = await load({ env: { SERVICE_CONFIG_FILE: fromEnv } });
    expect(viaEnv.config.webapp.appName).toBe('From env');
    expect(viaEnv.warnings).toEqual([]);
    const both = await load({ file: file('From argument'), env: { SERVICE_CONFIG_FILE: fromEnv } });
    expect(both.config.webapp.appName).toBe('From argument');
    expect((await load({ env: { SERVICE_CONFIG_FILE: '' } })).config.webapp.appName).toBe('Pier');
  });

  it('reports a missing file under the variable', async () => {
    const missing = join(tempDir(), 'nope.conf');
    const e = await loadErrors({ env: { SERVICE_CONFIG_FILE: missing } });
    expect(e.errors).toHaveLength(1);
    expect(e.errors[0]).toMatch(new RegExp(`^SERVICE_CONFIG_FILE: config file ${missing}: `));
  });
});
