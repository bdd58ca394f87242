/**
 * Opens the database named by a JDBC-style URL (`backend.jdbc.url`) with the
 * matching Kysely dialect:
 *
 * - `jdbc:sqlite:<path>`: the embedded database (better-sqlite3, WAL mode);
 * - `jdbc:postgresql://host[:port]/db[?params]`: a pg pool;
 * - `jdbc:mariadb://host[:port]/db[?params]` (or `jdbc:mysql:`): a mysql2 pool.
 *
 * Numbers come back as JS numbers on every dialect (BIGINT, count(*), sum()),
 * binary columns as Buffers. The password never appears in errors or logs.
 */
import { chmodSync, closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql, type Dialect } from 'kysely';
import type { PoolOptions } from 'mysql2';
import type pg from 'pg';
import { silentLogger, type Logger } from '../common/log.js';
import { sqliteBinding } from '../config/sqlite-binding.js';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** `service.restserver.backend.jdbc` */
export interface DatabaseConfig {
  url: string;
  user: string;
  password: string;
}

export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  /** closes the connection or pool; safe to call more than once */
  close(): Promise<void>;
}

export interface SqliteTarget {
  dialect: 'sqlite';
  /** a file path, or `:memory:` */
  path: string;
}

export interface NetworkTarget {
  dialect: 'postgres' | 'mysql';
  host: string;
  port: number;
  database: string;
  /** query parameters, names as written */
  params: Record<string, string>;
}

export type JdbcTarget = SqliteTarget | NetworkTarget;

const DEFAULT_PORTS = { postgres: 5432, mysql: 3306 } as const;

/** The url with any password in it replaced by `***`, for messages. */
export const redactJdbcUrl = (url: string): string =>
  url
    .replace(/(\/\/[^/@:]*:)[^/@]*@/, '$1***@')
    .replace(/([?&;]password=)[^&;]*/gi, '$1***');

const bad = (url: string, why: string): Error =>
  new Error(`Invalid database url "${redactJdbcUrl(url)}": ${why}`);

/**
 * Parses a JDBC url into a dialect and its connection target. Throws an Error
 * (naming the url, without any password) when the url is unsupported or malformed.
 */
export function parseJdbcUrl(url: string): JdbcTarget {
  const trimmed = url.trim();
  const lower = trimmed.toLowerCase();
  if (lower.startsWith('jdbc:h2:')) {
    throw new Error(
      `H2 databases are not supported ("${redactJdbcUrl(trimmed)}"). ` +
        'Use the embedded SQLite database instead: jdbc:sqlite:<path>, for example jdbc:sqlite:/var/lib/pier/pier.db',
    );
  }
  if (lower.startsWith('jdbc:sqlite:')) {
    // H2-style options (`;MODE=...`) may be left over from a Sharry config.
    const path = trimmed.slice('jdbc:sqlite:'.length).split(';')[0]!.trim();
    if (path === '') throw bad(trimmed, 'the SQLite file path is missing (jdbc:sqlite:<path>)');
    return { dialect: 'sqlite', path };
  }
  for (const [prefix, dialect] of [
    ['jdbc:postgresql:', 'postgres'],
    ['jdbc:mariadb:', 'mysql'],
    ['jdbc:mysql:', 'mysql'],
  ] as const) {
    if (lower.startsWith(prefix)) return parseNetworkUrl(trimmed, trimmed.slice(prefix.length), dialect);
  }
  throw new Error(
    `Unsupported database url "${redactJdbcUrl(trimmed)}". ` +
      'Use jdbc:sqlite:<path>, jdbc:postgresql://host[:port]/db or jdbc:mariadb://host[:port]/db',
  );
}

function parseNetworkUrl(url: string, rest: string, dialect: 'postgres' | 'mysql'): JdbcTarget {
  if (!rest.startsWith('//')) throw bad(url, 'expected //host[:port]/database after the scheme');
  const qIndex = rest.indexOf('?');
  const location = qIndex < 0 ? rest.slice(2) : rest.slice(2, qIndex);
  const query = qIndex < 0 ? '' : rest.slice(qIndex + 1);
  const slash = location.indexOf('/');
  if (slash < 0) throw bad(url, 'the database name is missing (//host[:port]/database)');
  const authority = location.slice(0, slash);
  const database = decodeURIComponent(location.slice(slash + 1));
  if (authority.includes('@')) {
    throw bad(url, 'credentials in the url are not supported; set jdbc.user and jdbc.password');
  }
  if (authority.includes(',')) throw bad(url, 'only one host is supported');
  if (database === '' || database.includes('/')) throw bad(url, 'the database name is missing or invalid');

  const m = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d*))?$/.exec(authority);
  if (!m) throw bad(url, 'the host is missing or invalid');
  const host = (m[1] ?? m[2])!;
  let port: number = DEFAULT_PORTS[dialect];
  if (m[3] !== undefined && m[3] !== '') {
    port = Number(m[3]);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw bad(url, `invalid port ${m[3]}`);
  }
  const params: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(query)) params[k] = v;
  return { dialect, host, port, database, params };
}

export interface OpenOptions {
  /**
   * Whether file contents will be stored in this database (the database
   * store is the default store). A new SQLite file then gets 64 KiB pages
   * (about twice the write speed of 4 KiB pages for chunks), else SQLite's
   * 4 KiB: every commit writes its changed pages whole into the WAL, and
   * metadata changes commit about twice as fast with small pages. The page
   * size of an existing file stays as it was created. Default: true.
   */
  fileChunks?: boolean;
}

/**
 * Opens the database of `config.url`. For PostgreSQL and MariaDB the
 * connection is tried once, so a wrong host or password fails here with a
 * clear message instead of at the first request.
 */
export async function openDatabase(config: DatabaseConfig, logger: Logger = silentLogger, options: OpenOptions = {}): Promise<Db> {
  const target = parseJdbcUrl(config.url);
  const log = logger;
  if (target.dialect === 'sqlite') return openSqlite(target.path, log, options.fileChunks ?? true);

  const user = config.user !== '' ? config.user : (target.params['user'] ?? '');
  const password = config.password !== '' ? config.password : (target.params['password'] ?? '');
  const where = { dialect: target.dialect, host: target.host, port: target.port, database: target.database, user };
  const dialect =
    target.dialect === 'postgres'
      ? await postgresDialect(target, user, password, log)
      : await mysqlDialect(target, user, password, log);
  const db = new Kysely<Database>({ dialect });
  try {
    await sql`select 1`.execute(db);
  } catch (e) {
    await db.destroy().catch(() => undefined);
    const reason = e instanceof Error ? e.message : String(e);
    throw new Error(
      `Cannot connect to the database ${redactJdbcUrl(config.url)} as user "${user}": ${scrub(reason, password)}`,
    );
  }
  log.info('Database opened', where);
  return wrap(db, target.dialect);
}

/** Driver messages do not normally contain the password; make sure. */
const scrub = (text: string, password: string): string =>
  password === '' ? text : text.split(password).join('***');

function wrap(db: Kysely<Database>, dialect: DialectName): Db {
  let closing: Promise<void> | undefined;
  return {
    db,
    dialect,
    close: () => (closing ??= db.destroy()),
  };
}

function openSqlite(path: string, log: Logger, fileChunks: boolean): Db {
  const memory = path === ':memory:';
  const file = memory ? path : resolve(path);
  let database: SqliteDatabase.Database;
  try {
    if (!memory) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      makePrivate(file);
    }
    const nativeBinding = sqliteBinding();
    database = new SqliteDatabase(file, nativeBinding === undefined ? {} : { nativeBinding });
    // first, so that the other pragmas wait for a process holding the file
    database.pragma('busy_timeout = 5000');
    // only takes effect on a new, empty file
    database.pragma(`page_size = ${fileChunks ? 65536 : 4096}`);
    database.pragma('journal_mode = WAL');
    // Safe in WAL mode: a power loss may drop the last commits, never corrupt the file.
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
  } catch (e) {
    throw new Error(`Cannot open the SQLite database ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  log.info('Database opened', { dialect: 'sqlite', path: file, pageSize: database.pragma('page_size', { simple: true }) });
  return wrap(new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) }), 'sqlite');
}

const MAX_STATEMENTS = 256;

/**
 * Kysely prepares every query anew; preparing costs more than running the
 * small reads every request makes (the account of a token). Statements are
 * kept per SQL text (bounded), and a statement still busy with an unfinished
 * iteration is not handed out twice.
 */
const withStatementCache = (database: SqliteDatabase.Database) => {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare: (text: string) => {
      const known = statements.get(text);
      if (known && !known.busy) return known;
      const statement = database.prepare(text);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
      statements.set(text, statement);
      return statement;
    },
  };
};

/**
 * The database holds password hashes and file contents: owner-only (0600), whatever
 * the umask. The file is created here, before SQLite opens it, because SQLite gives
 * the -wal and -shm files it creates the mode of the database file; files left by an
 * older version are made 0600 too. A file of another user (chmod refused) is left as
 * it is: whether to trust the data directory is decided at start-up.
 */
function makePrivate(file: string): void {
  if (process.platform === 'win32') return;
  closeSync(openSync(file, constants.O_CREAT | constants.O_RDWR, 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(f, 0o600);
    } catch (e) {
      if (!['ENOENT', 'EPERM'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
  }
}

const toNumber = (value: string): number => Number(value);

/** INT8 and NUMERIC as JS numbers (pg returns strings); for this pool only. */
const pgTypesOf = (types: typeof pg.types): pg.CustomTypesConfig => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if ((oid === 20 || oid === 1700) && format !== 'binary') return toNumber;
    return types.getTypeParser(oid, format ?? 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
});

/** The driver of a network database is loaded only when one is configured. */
async function postgresDialect(
  target: NetworkTarget,
  user: string,
  password: string,
  log: Logger,
): Promise<Dialect> {
  const { default: pg } = await import('pg');
  const { params } = target;
  const poolConfig: pg.PoolConfig = {
    host: target.host,
    port: target.port,
    database: target.database,
    user,
    password,
    types: pgTypesOf(pg.types),
    max: 10,
  };
  for (const [key, value] of Object.entries(params)) {
    switch (key.toLowerCase()) {
      case 'user':
      case 'password':
        break;
      case 'sslmode':
        if (value === 'require') poolConfig.ssl = { rejectUnauthorized: false };
        else if (value === 'verify-ca' || value === 'verify-full') poolConfig.ssl = true;
        break;
      case 'ssl':
        if (value === 'true' || value === '') poolConfig.ssl ??= true;
        break;
      case 'currentschema':
        poolConfig.options = `-c search_path=${value}`;
        break;
      case 'applicationname':
        poolConfig.application_name = value;
        break;
      case 'connecttimeout':
        poolConfig.connectionTimeoutMillis = Number(value) * 1000;
        break;
      default:
        log.warn('Ignoring unknown PostgreSQL url parameter', { parameter: key });
    }
  }
  const pool = new pg.Pool(poolConfig);
  // An idle client losing its connection must not crash the process.
  pool.on('error', (e) => log.warn('PostgreSQL connection error', { error: scrub(e.message, password) }));
  return new PostgresDialect({ pool });
}

async function mysqlDialect(
  target: NetworkTarget,
  user: string,
  password: string,
  log: Logger,
): Promise<Dialect> {
  const { default: mysql } = await import('mysql2');
  const options: PoolOptions = {
    host: target.host,
    port: target.port,
    database: target.database,
    user,
    password,
    charset: 'utf8mb4_bin',
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: true,
    connectionLimit: 10,
  };
  for (const [key, value] of Object.entries(target.params)) {
    switch (key.toLowerCase()) {
      case 'user':
      case 'password':
        break;
      case 'usessl':
        if (value === 'true' || value === '') options.ssl ??= {};
        break;
      case 'sslmode':
        if (value === 'trust') options.ssl = { rejectUnauthorized: false };
        else if (value === 'verify-ca' || value === 'verify-full') options.ssl = { rejectUnauthorized: true };
        break;
      case 'connecttimeout':
        options.connectTimeout = Number(value);
        break;
      default:
        log.warn('Ignoring unknown MariaDB url parameter', { parameter: key });
    }
  }
  return new MysqlDialect({ pool: mysql.createPool(options) });
}
