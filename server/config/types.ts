/**
 * The loaded, validated, frozen configuration. Keys mirror the HOCON keys under
 * `service.restserver` in camelCase (`bind.port` → `bind.port`,
 * `webapp.app-name` → `webapp.appName`). Durations are milliseconds, sizes are
 * bytes. Every key, its default and its meaning: `docs/configuration.md`
 * (generated from `server/config/spec.ts`).
 */
export type LogFormat = 'Json' | 'Logfmt' | 'Fancy' | 'Plain';
export type LogLevel = 'Trace' | 'Debug' | 'Info' | 'Warn' | 'Error';
export type SignupMode = 'open' | 'invite' | 'closed';
export type StoreType = 'default-database' | 'file-system' | 's3';
export type SslType = 'none' | 'starttls' | 'ssl';
export type PlayerAccess = 'open' | 'user' | 'admin';

export interface LoginModuleBase {
  enabled: boolean;
  order: number;
}

export interface OAuthProviderConfig {
  enabled: boolean;
  name: string;
  icon: string;
  scope: string;
  authorizeUrl: string;
  tokenUrl: string;
  userUrl: string;
  userIdKey: string;
  userEmailKey: string;
  clientId: string;
  clientSecret: string;
}

export interface StoreConfig {
  enabled: boolean;
  type: StoreType;
  /** file-system */
  directory: string;
  cleanEmptyDirs: boolean;
  /** s3 */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export interface DomainCheck {
  enabled: boolean;
  native: string;
  message: string;
}

export interface MailTemplate {
  subject: string;
  body: string;
}

export interface PlayerConnectionConfig {
  host: string;
  port: number;
  password: string;
  title: string;
  musicDirectory: string;
  maxConnections: number;
  timeout: number;
}

export interface Config {
  baseUrl: string;
  /** true when `base-url` was left at a local address: derive it per request */
  baseUrlIsLocal: boolean;
  bind: { address: string; port: number };
  dataDir: string;
  maxPageSize: number;
  fileDownload: { downloadChunkSize: number };
  aliasMemberEnabled: boolean;
  /** host names (`.domain` for a domain, `*` for any) answered besides the server's own */
  allowedHosts: string[];
  /** addresses or CIDR ranges of reverse proxies whose forwarding headers are believed */
  trustedProxies: string[];
  logging: { format: LogFormat; minimumLevel: LogLevel; levels: Record<string, LogLevel> };
  webapp: {
    appName: string;
    appIcon: string;
    appIconDark: string;
    appLogo: string;
    appLogoDark: string;
    appFooter: string;
    appFooterVisible: boolean;
    chunkSize: number;
    retryDelays: number[];
    welcomeMessage: string;
    defaultLanguage: string;
    authRenewal: number;
    initialPage: 'home' | 'uploads' | 'share';
    defaultValidity: number;
    initialTheme: 'light' | 'dark';
    oauthAutoRedirect: boolean;
    customHead: string;
    defaultTimezone: string;
    publishOnUpload: boolean;
    /** Sharry's name for `publishOnUpload` as configured, `''` when not set; already applied to `publishOnUpload` */
    autoPublishEnabled: string;
  };
  backend: {
    auth: {
      /** the resolved secret bytes (configured, or generated and kept in data-dir) */
      serverSecret: Uint8Array;
      sessionValid: number;
      sessionMax: number;
      passwordMinLength: number;
      fixed: LoginModuleBase & { user: string; password: string };
      http: LoginModuleBase & { url: string; method: string; body: string; contentType: string };
      httpBasic: LoginModuleBase & { url: string; method: string };
      command: LoginModuleBase & { program: string[]; success: number; timeout: number };
      internal: LoginModuleBase;
      oauth: Record<string, OAuthProviderConfig>;
      proxy: { enabled: boolean; userHeader: string; emailHeader: string };
    };
    jdbc: { url: string; user: string; password: string };
    files: {
      defaultStore: string;
      /** only the enabled stores */
      stores: Record<string, StoreConfig>;
      copyFiles: { enable: boolean; source: string; target: string; parallel: number };
    };
    computeChecksum: { enable: boolean; capacity: number; parallel: number; useDefault: boolean; lease: number };
    share: {
      chunkSize: number;
      maxSize: number;
      maxValidity: number;
      zipMaxSize: number;
      requireSharePassword: boolean;
      databaseDomainChecks: DomainCheck[];
    };
    signup: { mode: SignupMode; inviteTime: number; invitePassword: string };
    cleanup: { enabled: boolean; interval: number; invalidAge: number };
    mail: {
      enabled: boolean;
      smtp: {
        host: string;
        port: number;
        user: string;
        password: string;
        sslType: SslType;
        checkCertificates: boolean;
        timeout: number;
        defaultFrom: string;
        listId: string;
      };
      templates: { download: MailTemplate; alias: MailTemplate; uploadNotify: MailTemplate; downloadNotify: MailTemplate };
    };
  };
  player: {
    enabled: boolean;
    access: PlayerAccess;
    musicDirectory: string;
    connections: Record<string, PlayerConnectionConfig>;
    cover: { names: string[]; extensions: string[] };
    booklet: { names: string[]; extensions: string[] };
    thumbnails: { enabled: boolean; sizes: number[]; directory: string; maxParallel: number };
    placeholderUrl: string;
    cacheSize: number;
    rooms: { joinsPerAddressPerHour: number; guestsPerRoom: number; addsPerGuestPerMinute: number };
  };
  customContent: { enabled: boolean; directory: string };
  rateLimit: {
    enabled: boolean;
    loginFailures: number;
    sharePasswordFailures: number;
    allAddresses: number;
    rememberSuccess: number;
    signups: number;
    window: number;
  };
  limits: {
    filesPerShare: number;
    sharesPerAliasPerHour: number;
    sharesPerGuestPerHour: number;
    aliasMailsPerHour: number;
    mailsPerAccountPerHour: number;
    descriptionLength: number;
    /** entries kept per share in the activity log */
    activityEntries: number;
    websocketsPerUser: number;
    websockets: number;
    connections: number;
    connectionsPerAddress: number;
    anonymousConnectionsPerAddress: number;
    /** bytes a second; 0: no minimum */
    minBodyRate: number;
    bodyRateWindow: number;
    headerTimeout: number;
    idleTimeout: number;
    uploadLockWait: number;
    uploadIdleTimeout: number;
  };
}
