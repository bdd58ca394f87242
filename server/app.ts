/**
 * The composition root: configuration → database → services → HTTP. The only
 * place that knows every concrete implementation.
 */
import type { Clock } from './common/clock.js';
import type { Logger } from './common/log.js';
import type { Config } from './config/types.js';
import { createAccountService, type AccountService } from './core/accounts/account.service.js';
import { createAliasService } from './core/aliases/alias.service.js';
import { createActivityService } from './core/activity/activity.service.js';
import { createGuestUploads } from './core/aliases/guest-uploads.js';
import { createAuthService, type AuthService } from './core/auth/auth.service.js';
import { createCleanupJob, type CleanupJob } from './core/cleanup/cleanup.service.js';
import { buildLoginModules } from './core/auth/login-modules/index.js';
import { createOAuthService } from './core/auth/oauth.service.js';
import { createDatabaseHitStore, createMemoryHitStore } from './core/auth/hit-store.repository.js';
import { createAddressLimiter, createRateLimiter } from './core/auth/rate-limiter.js';
import { createTokenService } from './core/auth/token.js';
import { createChecksumQueue } from './core/checksums/checksum.queue.js';
import { createDownloadService } from './core/downloads/download.service.js';
import { createServerEvents, type ServerEventBus } from './core/events/events.js';
import { readVersionInfo } from './core/info/version.js';
import { createMailService } from './core/mail/mail.service.js';
import type { MailTransport } from './core/mail/mail-transport.js';
import { createSmtpTransport } from './core/mail/smtp-transport.js';
import { createRoomService } from './core/rooms/room.service.js';
import { createShareService } from './core/shares/share.service.js';
import { createSignupService } from './core/signup/signup.service.js';
import { createPendingUploads } from './core/uploads/pending-uploads.js';
import { createUploadService } from './core/uploads/upload.service.js';
import type { StoreRegistry } from './core/stores/binary-store.js';
import { copyFiles } from './core/stores/copy-files.js';
import { createStoreRegistry } from './core/stores/registry.js';
import { openDatabase, type Db } from './db/connect.js';
import { migrateToLatest } from './db/migrations/index.js';
import { createClientOrigin, createLinks } from './http/client-origin.js';
import { createHttpApp, type HttpApp } from './http/http-app.js';
import { createCoverService } from './player/covers/covers.service.js';
import { createPlayerGateway } from './player/gateway.service.js';
import { tcpDialer } from './player/protocol/socket.js';

export interface App {
  db: Db;
  http: HttpApp;
  auth: AuthService;
  accounts: AccountService;
  stores: StoreRegistry;
  cleanup: CleanupJob;
  close(): Promise<void>;
}

/** What the host may hand in instead of the defaults. */
export interface AppParts {
  /** server events (the host subscribes before start); default: a bus nobody listens to */
  events?: ServerEventBus;
  /** default: SMTP with `backend.mail.smtp` */
  mailTransport?: MailTransport;
}

export const buildApp = async (config: Config, log: Logger, clock: Clock, parts: AppParts = {}): Promise<App> => {
  const files = config.backend.files;
  const db = await openDatabase(config.backend.jdbc, log.child('db'), { fileChunks: files.stores[files.defaultStore]?.type === 'default-database' });
  let stores: StoreRegistry;
  try {
    await migrateToLatest(db, log.child('db'));
    const storeLog = log.child('stores');
    stores = await createStoreRegistry(config.backend.files, {
      db: db.db,
      dialect: db.dialect,
      chunkSize: config.backend.share.chunkSize,
      log: storeLog,
    });
    // before serving; a store that is not reachable stops the copy, not the start
    await copyFiles(stores, db.db, config.backend.files.copyFiles, storeLog.child('copy-files'));
  } catch (e) {
    await db.close();
    throw e;
  }
  const authLog = log.child('auth');
  const { auth: authCfg } = config.backend;
  const tokens = createTokenService(authCfg.serverSecret, { sessionValidMs: authCfg.sessionValid, sessionMaxMs: authCfg.sessionMax }, clock);
  // servers sharing a network database share their counts; one server on SQLite counts in memory
  const hits = db.dialect === 'sqlite' ? createMemoryHitStore(clock) : createDatabaseHitStore(db.db, clock);
  const rl = config.rateLimit;
  const limiterOf = (name: string, limit: number) =>
    createRateLimiter({ enabled: rl.enabled, limit, allAddresses: rl.allAddresses, windowMs: rl.window, rememberMs: rl.rememberSuccess, name, store: hits, clock });
  const limiter = limiterOf('login', rl.loginFailures);
  const { passwordMinLength } = config.backend.auth;
  const accounts = createAccountService({ db: db.db, clock, log: log.child('accounts'), passwordMinLength });
  const auth = createAuthService({
    db: db.db,
    tokens,
    sessionMaxMs: authCfg.sessionMax,
    changePassword: accounts.changePassword,
    modules: buildLoginModules(authCfg, db.db, authLog),
    limiter,
    clock,
    log: authLog,
  });
  const oauth = createOAuthService({ providers: authCfg.oauth, secret: authCfg.serverSecret, auth, clock, log: authLog.child('oauth') });
  const signup = createSignupService({
    db: db.db,
    clock,
    log: log.child('signup'),
    settings: config.backend.signup,
    passwordMinLength,
    limiter: createAddressLimiter({ enabled: rl.enabled, limit: rl.signups, windowMs: 3_600_000, name: 'signup', store: hits, clock }),
  });
  // what multipart requests of a killed server left behind goes before anyone sees it;
  // with a store not reachable, the cleanup job's periodic recovery finishes the job
  const pending = createPendingUploads({ db: db.db, stores, clock, log: log.child('uploads') });
  await pending.recoverAbandoned().catch((e: unknown) => log.child('uploads').warn('Could not remove interrupted uploads yet', { error: String(e) }));
  const cleanup = createCleanupJob({
    db: db.db,
    stores,
    pending,
    clock,
    log: log.child('cleanup'),
    settings: {
      ...config.backend.cleanup,
      maxValidity: config.backend.share.maxValidity,
      inviteTime: config.backend.signup.inviteTime,
    },
  });
  const shareCfg = config.backend.share;
  const shares = createShareService({
    db: db.db,
    clock,
    log: log.child('shares'),
    stores,
    rules: { maxValidity: shareCfg.maxValidity, requireSharePassword: shareCfg.requireSharePassword, sharesPerAliasPerHour: config.limits.sharesPerAliasPerHour, sharesPerGuestPerHour: config.limits.sharesPerGuestPerHour, descriptionLength: config.limits.descriptionLength },
    maxPageSize: config.maxPageSize,
    serverSecret: authCfg.serverSecret,
    limiter: limiterOf('share', rl.sharePasswordFailures),
  });
  const downloads = createDownloadService({ db: db.db, stores, zipMaxSize: shareCfg.zipMaxSize });
  const checksums = createChecksumQueue({ db: db.db, stores, settings: config.backend.computeChecksum, log: log.child('checksums') });
  checksums.start();
  const mailTransport = parts.mailTransport ?? createSmtpTransport(config.backend.mail.smtp);
  const mail = createMailService({ db: db.db, transport: mailTransport, settings: config.backend.mail, limits: config.limits, clock, log: log.child('mail') });
  const aliases = createAliasService({
    db: db.db,
    clock,
    log: log.child('aliases'),
    maxValidity: shareCfg.maxValidity,
    maxSize: shareCfg.maxSize,
    maxPageSize: config.maxPageSize,
    memberSearchEnabled: config.aliasMemberEnabled,
    serverSecret: authCfg.serverSecret,
  });
  const events = parts.events ?? createServerEvents(log.child('events'));
  const naming = { language: config.webapp.defaultLanguage, timeZone: config.webapp.defaultTimezone };
  const activity = createActivityService({
    db: db.db,
    clock,
    log: log.child('activity'),
    events,
    mail,
    keep: config.limits.activityEntries,
    maxPageSize: config.maxPageSize,
  });
  const guestUploads = createGuestUploads({ db: db.db, events, mail, activity, log: log.child('aliases'), naming });
  // one upload service for the /sec and /alias mounts, with guest multipart uploads announced
  const uploads = guestUploads.withEvents(
    createUploadService({ db: db.db, stores, clock, log: log.child('uploads'), share: shareCfg, limits: config.limits, checksums, pending }),
  );
  const gateway = config.player.enabled ? createPlayerGateway({ config: config.player, dialer: tcpDialer, clock, log: log.child('player') }) : undefined;
  const player = gateway && { gateway, covers: createCoverService({ config: config.player, gateway, log: log.child('player.covers') }) };
  const rooms = gateway
    ? createRoomService({ db: db.db, gateway, events, clock, log: log.child('rooms'), limits: config.player.rooms, maxValidity: shareCfg.maxValidity })
    : undefined;
  rooms?.start();
  const origin = createClientOrigin(config.trustedProxies);
  const http = createHttpApp({ config, log, clock, version: readVersionInfo(), origin, links: createLinks(config, clock, origin), auth, oauth, accounts, signup, stores, shares, activity, downloads, uploads, aliases, guestUploads, mail, player, rooms });
  return {
    db,
    http,
    auth,
    accounts,
    stores,
    cleanup,
    close: async () => {
      http.sockets.close();
      rooms?.stop();
      gateway?.close();
      mailTransport.close();
      await cleanup.stop();
      await uploads.locks.releaseAll().catch(() => undefined);
      await checksums.stop();
      await stores.close?.();
      await db.close();
    },
  };
};
