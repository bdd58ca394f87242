import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server, type ServerOptions as ServerOptionsOfHttp, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { weakFixedPassword } from './config/rules.js';
import { buildApp, type App } from './app.js';
import { systemClock, type Clock } from './common/clock.js';
import type { Logger } from './common/log.js';
import type { CleanupReport } from './core/cleanup/cleanup.service.js';
import { createServerEvents, type ServerEvents } from './core/events/events.js';
import type { MailTransport } from './core/mail/mail-transport.js';
import type { Config } from './config/types.js';
import { createClientOrigin } from './http/client-origin.js';
import { limitConnectionsPerAddress } from './http/connection-limits.js';
import { cutSlowBodies } from './http/slow-bodies.js';
import { createLogger } from './logging/logger.js';

export type { Config } from './config/types.js';
export type { ServerEvent, ServerEvents } from './core/events/events.js';

/** What to do about the first admin account of an empty database. */
export type InitialAdmin =
  | { kind: 'none' }
  /** create `admin` with a random password and hand it to `onCreated` (the CLI prints it once) */
  | { kind: 'generate'; onCreated: (login: string, password: string) => void }
  | { kind: 'given'; login: string; password: string };

export interface ServerOptions {
  logger?: Logger;
  clock?: Clock;
  initialAdmin?: InitialAdmin;
  /** how mail is sent; default: SMTP with `backend.mail.smtp` */
  mailTransport?: MailTransport;
}

export interface PierServer {
  /** Opens the database, migrates it and listens; resolves with the address. */
  start(): Promise<{ url: string; port: number }>;
  /** Stops listening, ends open connections and closes the database. */
  stop(): Promise<void>;
  /** Runs one cleanup pass now (also runs periodically when `cleanup.enabled`). */
  runCleanup(): Promise<CleanupReport>;
  /**
   * Server events (`guest-upload-completed`). One stream for the life of this
   * object: subscriptions made before `start()` or across a stop and start
   * keep receiving.
   */
  events: ServerEvents;
  /**
   * A session token for an account, for the process hosting the server (the
   * desktop app); checked at use like any other. Rejects when not running.
   */
  hostToken(account: { id: string; login: string }): Promise<string>;
}

/**
 * The login modules besides `internal` that let someone in without an
 * account made here: with any of them the operator has their own way to the
 * admin, and a generated `admin` would only stand in its way.
 */
const otherSignIns = (auth: Config['backend']['auth']): string[] => [
  ...(auth.fixed.enabled ? [`fixed (user '${auth.fixed.user}')`] : []),
  ...(auth.proxy.enabled ? ['proxy'] : []),
  ...Object.entries(auth.oauth)
    .filter(([, p]) => p.enabled)
    .map(([id]) => `oauth.${id}`),
  ...(auth.http.enabled ? ['http'] : []),
  ...(auth.httpBasic.enabled ? ['http-basic'] : []),
  ...(auth.command.enabled ? ['command'] : []),
];

const ensureInitialAdmin = async (app: App, config: Config, initial: InitialAdmin, log: Logger): Promise<void> => {
  if (initial.kind === 'none' || !config.backend.auth.internal.enabled) return;
  const others = otherSignIns(config.backend.auth);
  if (initial.kind === 'generate' && others.length > 0) {
    log.info(`No admin account is generated: sign in through ${others.join(', ')}`);
    return;
  }
  const login = initial.kind === 'given' ? initial.login : 'admin';
  const password = initial.kind === 'given' ? initial.password : randomBytes(12).toString('base64url');
  if (await app.accounts.createInitialAdmin(login, password)) {
    log.info('Created the first admin account', { login });
    if (initial.kind === 'generate') initial.onCreated(login, password);
  }
};

/** Idle keep-alive connections between requests (browsers reuse them; a slow client gets a new one). */
const KEEP_ALIVE_MS = 5_000;
/**
 * An idle connection stays open this much longer than the `Keep-Alive:
 * timeout` announced to clients. A client that sends its next request on a
 * connection just as the server closes it sees that request fail (Node's
 * `fetch` does not send it again), and a busy client's timers run late.
 */
const KEEP_ALIVE_GRACE_MS = 3_000;

/** The idle keep-alive time of a connection, never more than `idle-timeout`. */
const keepAliveMs = (limits: Config['limits']): number => Math.min(KEEP_ALIVE_MS + KEEP_ALIVE_GRACE_MS, limits.idleTimeout);

/** The `Keep-Alive` header: the grace less than what the server keeps, at least a second. */
const keepAliveHeader = (limits: Config['limits']): string => `timeout=${Math.max(1, Math.floor((keepAliveMs(limits) - KEEP_ALIVE_GRACE_MS) / 1000))}`;

/**
 * Timeouts of the node:http server. No limit on a whole request: a phone on a
 * slow network uploading a large file takes as long as it takes, and the idle
 * timeout (`server.setTimeout`) ends one that stops sending. Headers must be
 * complete within `header-timeout`, however slowly they trickle in.
 */
const httpOptions = (limits: Config['limits']): ServerOptionsOfHttp => ({
  requestTimeout: 0,
  headersTimeout: limits.headerTimeout,
  keepAliveTimeout: keepAliveMs(limits),
  // the header timeout is checked at this interval (Node's default of 30 s would let it overrun by that much)
  connectionsCheckingInterval: Math.max(50, Math.min(1000, limits.headerTimeout / 2)),
});

/** The headless server: HTTP API, web client and background work for one configuration. */
export const createServer = (config: Config, options: ServerOptions = {}): PierServer => {
  const log = options.logger ?? createLogger(config.logging);
  const clock = options.clock ?? systemClock;
  let app: App | undefined;
  let server: Server | undefined;
  const events = createServerEvents(log.child('events'));

  return {
    events: { subscribe: (listener) => events.subscribe(listener) },
    async start() {
      if (server) throw new Error('The server is already running.');
      app = await buildApp(config, log, clock, { events, ...(options.mailTransport ? { mailTransport: options.mailTransport } : {}) });
      await ensureInitialAdmin(app, config, options.initialAdmin ?? { kind: 'none' }, log);
      const s = createHttpServer({ ...httpOptions(config.limits), ...app.http.classes }, app.http.app);
      // before the app, so that every answer announces the shorter time
      const keepAlive = keepAliveHeader(config.limits);
      s.prependListener('request', (_req, res: ServerResponse) => res.setHeader('Keep-Alive', keepAlive));
      // over the cap a new connection is closed at once; the timeouts reap idle ones so new clients get in
      s.maxConnections = config.limits.connections;
      limitConnectionsPerAddress(s, {
        perAddress: config.limits.connectionsPerAddress,
        anonymousPerAddress: config.limits.anonymousConnectionsPerAddress,
        trustedProxies: config.trustedProxies,
      });
      // a body that trickles in keeps its connection busy without ever being idle
      const origin = createClientOrigin(config.trustedProxies);
      cutSlowBodies(s, { minRate: config.limits.minBodyRate, window: config.limits.bodyRateWindow }, log.child('http'), (req) => origin.clientAddress(req));
      // a connection that sends and receives nothing for this long is closed; every byte either way restarts it
      s.setTimeout(config.limits.idleTimeout);
      // the player WebSocket (`/api/v1/player[/<id>]`) shares this server
      s.on('upgrade', app.http.sockets.upgrade);
      try {
        await new Promise<void>((resolve, reject) => {
          s.once('error', reject);
          s.listen(config.bind.port, config.bind.address, () => {
            s.off('error', reject);
            resolve();
          });
        });
      } catch (e) {
        await app.close();
        app = undefined;
        throw e;
      }
      server = s;
      const { port } = s.address() as AddressInfo;
      const host = config.bind.address.includes(':') ? `[${config.bind.address}]` : config.bind.address;
      const url = `http://${host}:${port}`;
      log.info(`Pier is listening on ${url}`);
      const weak = weakFixedPassword(config.backend.auth);
      if (weak) log.error(weak);
      app.cleanup.start();
      return { url, port };
    },
    async hostToken(account) {
      if (!app) throw new Error('The server is not running.');
      return app.auth.hostToken(account);
    },
    async runCleanup() {
      if (!app) throw new Error('The server is not running.');
      return app.cleanup.runOnce();
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s) {
        // upgraded sockets are not HTTP connections: close them first, or close() would wait for them
        app?.http.sockets.close();
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      await app?.close();
      app = undefined;
    },
  };
};
