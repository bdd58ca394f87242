/**
 * A throwaway PostgreSQL server for tests: initdb into a temp directory, start
 * on 127.0.0.1 on a free port, password authentication, fsync off. As root the
 * server runs as the `postgres` user (PostgreSQL refuses root) via `runuser`.
 *
 *   const pg = await startPostgres();   // ~1 s
 *   const other = await pg.createDatabase('other_test');
 *   ...
 *   await pg.stop();
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../server/db/connect.js';
import {
  finishInstance,
  type DatabaseInstance,
  delay,
  freePort,
  isAlive,
  isRoot,
  killOnExit,
  missingBinary,
  run,
  systemUser,
} from './system.js';

export type PostgresInstance = DatabaseInstance;

const USER = 'pier';
const PASSWORD = 'pier-test-password';

/** The bin directory of PostgreSQL 15 if present, else the newest installed version. */
function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions.includes('15') ? '15' : versions[0];
  if (version === undefined) throw missingBinary('PostgreSQL (/usr/lib/postgresql/<version>/bin/postgres)');
  return join(base, version, 'bin');
}

export async function startPostgres(database = 'pier_test'): Promise<PostgresInstance> {
  const bin = binDir();
  const root = isRoot();
  const asOwner = (program: string, args: string[]): Promise<string> =>
    root ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args);

  const dir = mkdtempSync(join(tmpdir(), 'pier-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, PASSWORD, { mode: 0o600 });
  if (root) {
    const { uid, gid } = systemUser('postgres');
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }

  let pid: number | undefined;
  const cancelHook = killOnExit(() => pid, 'SIGQUIT', dir);
  let port = 0;
  try {
    await asOwner('initdb', [
      '-D', data, '-U', USER, `--pwfile=${pwfile}`, '--auth=scram-sha-256',
      '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions',
    ]);
    // Another process may take the port between freePort() and the start; try again then.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const options =
        `-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 ` +
        '-c fsync=off -c synchronous_commit=off -c full_page_writes=off';
      try {
        await asOwner('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', options, 'start']);
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
    pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch (e) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    await stopServer();
    throw new Error(`Could not start PostgreSQL: ${e instanceof Error ? e.message : String(e)}\n${log}`);
  }

  async function stopServer(): Promise<void> {
    if (existsSync(join(data, 'postmaster.pid'))) {
      await asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop']).catch(() => undefined);
    }
    if (pid !== undefined && isAlive(pid)) {
      process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 100 && isAlive(pid); i++) await delay(50);
    }
    rmSync(dir, { recursive: true, force: true });
    cancelHook();
  }

  const config = (name: string): DatabaseConfig => ({
    url: `jdbc:postgresql://127.0.0.1:${port}/${name}`,
    user: USER,
    password: PASSWORD,
  });

  return finishInstance({
    port,
    database,
    config,
    stopServer,
    create: async (name) => {
      const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
      await client.connect();
      try {
        await client.query(`create database ${name}`);
      } finally {
        await client.end();
      }
    },
  });
}
