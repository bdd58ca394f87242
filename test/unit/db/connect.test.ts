import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, parseJdbcUrl, redactJdbcUrl } from '../../../server/db/connect.js';

describe('parseJdbcUrl', () => {
  it('reads an SQLite path and drops H2-style ;OPTION suffixes', () => {
    expect(parseJdbcUrl('jdbc:sqlite:/var/lib/pier/pier.db')).toEqual({
      dialect: 'sqlite',
      path: '/var/lib/pier/pier.db',
    });
    expect(parseJdbcUrl('jdbc:sqlite:/tmp/p.db;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE')).toEqual({
      dialect: 'sqlite',
      path: '/tmp/p.db',
    });
    expect(parseJdbcUrl('jdbc:sqlite:data/pier.db')).toEqual({ dialect: 'sqlite', path: 'data/pier.db' });
    expect(parseJdbcUrl('jdbc:sqlite::memory:')).toEqual({ dialect: 'sqlite', path: ':memory:' });
  });

  it('reads PostgreSQL host, port, database and parameters', () => {
    expect(parseJdbcUrl('jdbc:postgresql://db.example.org:5433/pier?sslmode=require&ApplicationName=x')).toEqual({
      dialect: 'postgres',
      host: 'db.example.org',
      port: 5433,
      database: 'pier',
      params: { sslmode: 'require', ApplicationName: 'x' },
    });
    expect(parseJdbcUrl('jdbc:postgresql://localhost/pier')).toMatchObject({ host: 'localhost', port: 5432 });
    expect(parseJdbcUrl('jdbc:postgresql://[::1]:6000/pier')).toMatchObject({ host: '::1', port: 6000 });
  });

  it('reads MariaDB and MySQL urls as the mysql dialect', () => {
    expect(parseJdbcUrl('jdbc:mariadb://127.0.0.1:3307/pier')).toEqual({
      dialect: 'mysql',
      host: '127.0.0.1',
      port: 3307,
      database: 'pier',
      params: {},
    });
    expect(parseJdbcUrl('jdbc:mysql://db/pier')).toMatchObject({ dialect: 'mysql', host: 'db', port: 3306 });
  });

  it('refuses H2 and says to use jdbc:sqlite:', () => {
    expect(() => parseJdbcUrl('jdbc:h2://./pier.db;MODE=PostgreSQL')).toThrow(/H2 .*not supported.*jdbc:sqlite:/s);
  });

  it('refuses unknown schemes, naming the url', () => {
    expect(() => parseJdbcUrl('jdbc:oracle:thin:@host:1521:xe')).toThrow(
      /Unsupported database url "jdbc:oracle:thin:@host:1521:xe"/,
    );
    expect(() => parseJdbcUrl('postgres://host/db')).toThrow(/"postgres:\/\/host\/db"/);
  });

  it('refuses malformed network urls', () => {
    expect(() => parseJdbcUrl('jdbc:postgresql://host:5432')).toThrow(/database name is missing/);
    expect(() => parseJdbcUrl('jdbc:postgresql://host:99999/db')).toThrow(/invalid port/);
    expect(() => parseJdbcUrl('jdbc:postgresql://h1,h2/db')).toThrow(/one host/);
    expect(() => parseJdbcUrl('jdbc:mariadb:host/db')).toThrow(/\/\/host/);
    expect(() => parseJdbcUrl('jdbc:sqlite:')).toThrow(/path is missing/);
  });

  it('never repeats a password from the url', () => {
    const url = 'jdbc:postgresql://u:s3cret@host/db?password=s3cret&x=1';
    expect(redactJdbcUrl(url)).not.toContain('s3cret');
    expect(() => parseJdbcUrl(url)).toThrow();
    try {
      parseJdbcUrl(url);
    } catch (e) {
      expect((e as Error).message).not.toContain('s3cret');
    }
    try {
      parseJdbcUrl('jdbc:foo://host/db?password=s3cret');
    } catch (e) {
      expect((e as Error).message).not.toContain('s3cret');
    }
  });
});

describe('openDatabase', () => {
  it('opens SQLite in WAL mode with foreign keys, creating the parent directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-db-unit-'));
    try {
      const file = join(dir, 'nested', 'deeper', 'pier.db');
      const db = await openDatabase({ url: `jdbc:sqlite:${file};MODE=PostgreSQL`, user: '', password: '' });
      expect(db.dialect).toBe('sqlite');
      expect(existsSync(file)).toBe(true);
      const pragma = async (name: string): Promise<unknown> =>
        Object.values((await sql.raw(`pragma ${name}`).execute(db.db)).rows[0] as object)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
      await db.close();
      await db.close(); // idempotent
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails to connect with a message that names the url and user but not the password', async () => {
    const promise = openDatabase({
      url: 'jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=2',
      user: 'someone',
      password: 'very-secret-pw',
    });
    await expect(promise).rejects.toThrow(
      /Cannot connect to the database jdbc:postgresql:\/\/127\.0\.0\.1:1\/nowhere.*"someone"/,
    );
    await expect(promise).rejects.not.toThrow(/very-secret-pw/);
  });
});
