import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { npmServe, projectRoot as root, running, waitFor } from '../../support/cli-run.js';


const login = async (url: string, account: string, password: string) => {
  const res = await fetch(`${url}/api/v2/open/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { success: boolean; admin: boolean; user: string };
};

const FIXED_PASSWORD = 'fixed-admin-password';

describe('a fixed login named admin on the headless server', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/server/cli.js'))) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-fixed-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const write = (name: string, auth: string) => {
      const file = join(dir, name);
      writeFileSync(
        file,
        `service.restserver {
  bind { address = "127.0.0.1", port = 0 }
  data-dir = "${join(dir, 'data')}"
  player.enabled = false
  backend.auth { ${auth} }
}
`,
      );
      return file;
    };
    return { write };
  };

  const start = async (file: string) => {
    const r = npmServe([file], {});
    cleanups.push(() => r.stop());
    return { r, url: await running(r) };
  };

  it('signs the fixed admin in on the first start and generates no admin of its own', async () => {
    const { write } = setup();
    const { r, url } = await start(write('pier.conf', `fixed { enabled = true, user = "admin", password = "${FIXED_PASSWORD}" }`));
    expect(r.out()).not.toMatch(/password: +\S+/);
    expect(r.out()).toContain("No admin account is generated: sign in through fixed (user 'admin')");
    const ok = await login(url, 'admin', FIXED_PASSWORD);
    expect(ok).toMatchObject({ success: true, admin: true, user: 'admin' });
  });

  it('lets a fixed admin configured later take over the generated admin of that name, even when internal comes first', async () => {
    const { write } = setup();
    const first = await start(write('first.conf', ''));
    const [, generated] = await waitFor(() => /password: +(\S+)/.exec(first.r.out()));
    expect((await login(first.url, 'admin', generated!)).success).toBe(true);
    await first.r.stop();

    const { r, url } = await start(
      write('later.conf', `fixed { enabled = true, user = "admin", password = "${FIXED_PASSWORD}", order = 60 }\ninternal.order = 50`),
    );
    const ok = await login(url, 'admin', FIXED_PASSWORD);
    expect(ok).toMatchObject({ success: true, admin: true, user: 'admin' });
    expect(r.out()).toContain("The configured fixed login 'admin' takes over the internal account of that name");
    // the generated password no longer signs in
    expect((await login(url, 'admin', generated!)).success).toBe(false);
    // and the account stays the fixed admin's on the next login
    expect((await login(url, 'admin', FIXED_PASSWORD)).success).toBe(true);
  });
});
