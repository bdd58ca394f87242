/**
 * A throwaway MariaDB server for tests: mariadb-install-db into a temp
 * directory, start on 127.0.0.1 on a free port with a password user created
 * by an init file. As root the server drops to the `mysql` user itself.
 *
 *   const maria = await startMariadb();   // ~1 s
 *   const other = await maria.createDatabase('other_test');
 *   ...
 *   await maria.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
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

export type MariadbInstance = DatabaseInstance;

const USER = 'pier';
const PASSWORD = 'pier-test-password';
const INSTALL_DB = '/usr/bin/mariadb-install-db';
const SERVER = '/usr/sbin/mariadbd';

export async function startMariadb(database = 'pier_test'): Promise<MariadbInstance> {
  for (const binary of [INSTALL_DB, SERVER]) if (!existsSync(binary)) throw missingBinary(`MariaDB (${binary})`);
  const root = isRoot();
  const dir = mkdtempSync(join(tmpdir(), 'pier-mariadb-'));
  const data = join(dir, 'data');
  const initFile = join(dir, 'init.sql');
  const errorLog = join(dir, 'error.log');
  writeFileSync(
    initFile,
    `CREATE USER '${USER}'@'%' IDENTIFIED BY '${PASSWORD}';\n` +
      `GRANT ALL PRIVILEGES ON *.* TO '${USER}'@'%' WITH GRANT OPTION;\n`,
  );
  if (root) {
    const { uid, gid } = systemUser('mysql');
    chownSync(dir, uid, gid);
    chownSync(initFile, uid, gid);
  }

  let child: ChildProcess | undefined;
  const cancelHook = killOnExit(() => child?.pid, 'SIGKILL', dir);
  let port = 0;
  try {
    await run(INSTALL_DB, [
      '--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal',
      '--skip-test-db', '--skip-name-resolve', ...(root ? ['--user=mysql'] : []),
    ]);
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      child = spawn(
        SERVER,
        [
          '--no-defaults', `--datadir=${data}`, `--socket=${join(dir, 'mariadbd.sock')}`,
          `--pid-file=${join(dir, 'mariadbd.pid')}`, `--log-error=${errorLog}`, `--port=${port}`,
          '--bind-address=127.0.0.1', '--skip-name-resolve', '--skip-log-bin', `--init-file=${initFile}`,
          '--innodb-buffer-pool-size=32M', '--innodb-flush-log-at-trx-commit=0', '--innodb-doublewrite=0',
          ...(root ? ['--user=mysql'] : []),
        ],
        { stdio: 'ignore' },
      );
      child.unref();
      if (await waitUntilReady(port, child)) break;
      if (attempt >= 3) throw new Error('the server did not start');
    }
  } catch (e) {
    const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '';
    await stopServer();
    throw new Error(`Could not start MariaDB: ${e instanceof Error ? e.message : String(e)}\n${log}`);
  }

  async function stopServer(): Promise<void> {
    const pid = child?.pid;
    if (pid !== undefined && isAlive(pid)) {
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 200 && isAlive(pid); i++) await delay(25);
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 100 && isAlive(pid); i++) await delay(25);
    }
    rmSync(dir, { recursive: true, force: true });
    cancelHook();
  }

  const config = (name: string): DatabaseConfig => ({
    url: `jdbc:mariadb://127.0.0.1:${port}/${name}`,
    user: USER,
    password: PASSWORD,
  });

  return finishInstance({
    port,
    database,
    config,
    stopServer,
    create: async (name) => {
      const connection = await mysql.createConnection({ host: '127.0.0.1', port, user: USER, password: PASSWORD });
      try {
        await connection.query(`create database ${name}`);
      } finally {
        await connection.end();
      }
    },
  });
}

/**
 * Polls until the test user can log in over TCP. False when the server exited
 * (for example because the port was taken), so the caller can try another port.
 */
async function waitUntilReady(port: number, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    try {
      const connection = await mysql.createConnection({
        host: '127.0.0.1', port, user: USER, password: PASSWORD, connectTimeout: 1000,
      });
      await connection.end();
      return true;
    } catch {
      await delay(50);
    }
  }
  throw new Error('timed out waiting for MariaDB to accept connections');
}
