/**
 * Every key under `service.restserver`: kebab-case HOCON path, type, default
 * and meaning. This one spec drives the defaults, the environment overrides
 * (`SERVICE_<PATH>`), the validation and `docs/configuration.md`
 * (`npm run docs:config`). Cross-key rules live in `rules.ts`.
 */
import {
  bool,
  duration,
  group,
  int,
  ints,
  listOf,
  mapOf,
  oneOf,
  size,
  str,
  strings,
  type Def,
  type ValueOf,
} from './spec-kit.js';

const logLevels = ['Trace', 'Debug', 'Info', 'Warn', 'Error'] as const;
/** A string key whose empty value means "not set"; `null` reads as empty. */
const optional = (d: Def<string>, doc: string, extra: Parameters<typeof str>[2] = {}) => str(d, doc, { ...extra, optional: true });
const port = (d: number, doc: string) => int(d, doc, { min: 0, max: 65535 });
const moduleOrder = (d: number) => int(d, 'Position among the login modules (ascending)');
const template = (subject: string, body: string, doc: string) =>
  group(doc, { subject: str(subject, 'Subject (mustache template)'), body: str(body, 'Body (mustache template)') });

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const signature = ['', 'Greetings,', '{{user}} via Pier'];
const downloadBody = lines(
  'Hello,',
  '',
  'there are some files for you to download. Visit this link:',
  '',
  '{{{url}}}',
  '',
  '{{#password}}The required password will be sent by other means.{{/password}}',
  ...signature,
);
const aliasBody = lines('Hello,', '', 'please use the following link to send files to me:', '', '{{{url}}}', ...signature);
const uploadNotifyBody = lines(
  'Hello {{user}},',
  '',
  "there have been files uploaded for you via the alias '{{aliasName}}'.",
  'View it here:',
  '',
  '{{{url}}}',
  '',
  'Greetings,',
  'Pier',
);

const downloadNotifyBody = lines(
  'Hello {{user}},',
  '',
  "your share '{{shareName}}' has been downloaded{{#what}}: {{what}}{{/what}}.",
  'See who got it:',
  '',
  '{{{url}}}',
  '',
  'Greetings,',
  'Pier',
);

const server = {
  'base-url': str(
    'http://localhost:9090',
    'External URL for absolute links and the cookie; no trailing slash, no path. Left at a local address, it is derived per request',
  ),
  bind: group('Listen address', {
    address: str('localhost', 'Bind host (`0.0.0.0` for every interface)'),
    port: port(9090, 'Bind port (0: a random free port)'),
  }),
  'data-dir': optional(
    ({ dataDir }) => dataDir,
    'Where the generated server secret, the embedded database, thumbnails and the default file-system store live. The default is the user’s data folder: `$XDG_DATA_HOME/pier` (else `~/.local/share/pier`) on Linux, `~/Library/Application Support/Pier` on macOS, `%LOCALAPPDATA%\\Pier` on Windows; the desktop app uses its user-data folder. Created with mode 0700; the secret, the database and stored files are 0600. Start-up refuses a directory or `server-secret` file that another user owns or that group or others can write (not checked on Windows, which has no POSIX modes)',
    { shownDefault: '<the user’s data folder>' },
  ),
  'max-page-size': int(100, 'Maximum size of result lists', { min: 1 }),
  'file-download': group('Downloads', {
    'download-chunk-size': size('4M', 'Amount of data returned for an open range request (`bytes=a-`)', { min: 1 }),
  }),
  'alias-member-enabled': bool(true, 'When false, searching users for alias membership is disabled and hidden in the web client'),
  'allowed-hosts': strings(
    [],
    'Names besides its own under which the server answers (a reverse proxy\'s public name, a DNS alias): `files.example.org`, `.example.org` for that domain and every name below it, `*` for any name. Its own names are always accepted: loopback names and addresses, the machine\'s addresses, its host name alone or with a domain a LAN router adds (`nas`, `nas.local`, `nas.lan`, `nas.fritz.box`) and the host of `base-url`. Any other name gets 421 (protection against DNS rebinding)',
  ),
  'trusted-proxies': strings(
    [],
    'Addresses of reverse proxies (IPs or CIDR ranges such as `10.0.0.0/8`) whose `X-Forwarded-*` headers and proxy-login headers are believed; empty: none',
  ),
};

const logging = group(
  'Logs go to stdout',
  {
    format: oneOf(['Json', 'Logfmt', 'Fancy', 'Plain'], 'Fancy', 'Log line format'),
    'minimum-level': oneOf(logLevels, 'Warn', 'Level for loggers without an entry in `levels`'),
    levels: mapOf('Logger name (prefix, e.g. `pier.http`) to level', oneOf(logLevels, 'Info', 'Level'), { pier: 'Info' }),
  },
  'Logging',
);

const webapp = group(
  'Settings of the web client',
  {
    'app-name': str('Pier', 'Text in the top right corner'),
    'app-icon': optional('', 'URL of the image next to the name (light mode); empty: built-in'),
    'app-icon-dark': optional('', 'URL of the image next to the name (dark mode); empty: built-in'),
    'app-logo': optional('', 'URL of the image on the login and register pages (light mode); empty: built-in'),
    'app-logo-dark': optional('', 'URL of the image on the login and register pages (dark mode); empty: built-in'),
    'app-footer': optional('', 'Markdown footer; empty renders a link to the project'),
    'app-footer-visible': bool(true, 'Show the footer'),
    'chunk-size': size('10M', 'Amount the client sends in one upload request; the server re-chunks smaller', { min: 1 }),
    'retry-delays': ints(
      [0, 3000, 6000, 12000, 24000, 48000],
      'Milliseconds the client waits before each upload retry; the length is the number of retries. After the last one the page keeps trying as often as the last delay (5 to 30 s) and continues by itself when the server answers',
      { min: 0 },
    ),
    'welcome-message': optional('', 'Markdown shown on the login page'),
    'default-language': str('gb', 'Language of the client for visitors who have not chosen one and whose browser names none of its languages: `gb`, `de`, `es`, `fr`, `it`, or `cz`, `br`, `ja` (shown in English until translated); anything else falls back to `gb`'),
    'auth-renewal': duration('4 minutes', 'Interval for fetching a new token; at least 30 seconds below `backend.auth.session-valid`', { min: 1 }),
    'initial-page': oneOf(['home', 'uploads', 'share'], 'home', 'Page shown after login'),
    'default-validity': duration('7 days', 'Preselected validity of a new share; at most `backend.share.max-validity`', { min: 1 }),
    'initial-theme': oneOf(['light', 'dark'], 'light', 'Theme for visitors who have not chosen one and whose browser does not ask for dark'),
    'oauth-auto-redirect': bool(true, 'When a single OAuth provider (or only proxy auth) is configured, skip the login page'),
    'custom-head': optional('', 'HTML for the head section, or the path of a local file holding it; empty: the default favicons'),
    'default-timezone': optional('', 'IANA time zone for dates in the client; empty: UTC'),
    'publish-on-upload': bool(
      true,
      'Publish a new share as its upload finishes, so its owner gets the link at once (each user can turn this off for their browser in the settings)',
    ),
    'auto-publish-enabled': optional(
      '',
      "Sharry's name for `publish-on-upload`: when a file or the environment sets it (`true` or `false`), its value is used for `publish-on-upload`, with a warning",
      { shownDefault: 'not set' },
    ),
  },
  'Web client (`webapp`)',
);

const oauthEntry = group('An OAuth 2 provider', {
  enabled: bool(true, 'Show a login button for this provider'),
  name: optional('', 'Button text'),
  icon: optional('fa-openid', 'Icon class of the button (`fa-openid`, `fa-user`, `fa-right-to-bracket`, ...)'),
  scope: optional('', 'Requested scope (may be empty)'),
  'authorize-url': str('', 'Authorization endpoint'),
  'token-url': str('', 'Token endpoint (JSON or form-encoded response)'),
  'user-url': str('', 'User info endpoint (JSON)'),
  'user-id-key': str('', 'Dotted path into the user JSON giving the account name, read there only (`<name>@<provider id>`, case-insensitive); a value that is no ident (`A-Z a-z 0-9 - _ @ .`) is refused, never cleaned, so two users never share an account'),
  'user-email-key': optional('', 'Dotted path into the user JSON giving the e-mail, read there only; empty: none'),
  'client-id': str('', 'Client id registered at the provider'),
  'client-secret': str('', 'Client secret registered at the provider', { secret: true }),
});

const auth = group(
  'Authentication: tokens and login modules (tried in ascending `order`)',
  {
    'server-secret': optional(
      '',
      'Token signing key: `hex:<hex>`, `b64:<base64>` or plain UTF-8. Empty: 32 random bytes generated once and kept in `<data-dir>/server-secret`. Servers sharing users need the same secret',
      { secret: true },
    ),
    'session-valid': duration('8 minutes', 'Token lifetime', { min: 1 }),
    'session-max': duration('7 days', 'Renewal never extends a session beyond this time from its login', { min: 1 }),
    'password-min-length': int(
      8,
      'Fewest characters of a password set through sign-up, the admin pages or the settings; also of the `fixed` login password (start-up refuses a shorter one)',
      { min: 1, max: 1024 },
    ),
    fixed: group('A fixed admin account from the configuration', {
      enabled: bool(false, 'Enable the module'),
      user: optional('', 'Login of the admin account'),
      password: optional('', 'Its password (plain text)', { secret: true }),
      order: moduleOrder(10),
    }),
    http: group('Ask an HTTP endpoint; its status decides', {
      enabled: bool(false, 'Enable the module'),
      url: str('http://localhost:1234/auth?user={{user}}&password={{pass}}', 'URL (mustache: `{{user}}`, `{{pass}}`, values percent-encoded)'),
      method: str('POST', 'HTTP method'),
      body: optional('', 'Request body for POST (mustache: `{{user}}`, `{{pass}}`, values escaped for `content-type`: JSON, form-urlencoded, XML; as they are for other types)'),
      'content-type': optional('', 'Content type of the body (POST only)'),
      order: moduleOrder(20),
    }),
    'http-basic': group('Send a request with Basic authorization; any 2xx means success', {
      enabled: bool(false, 'Enable the module'),
      url: str('http://localhost:2345/path', 'URL'),
      method: str('GET', 'HTTP method'),
      order: moduleOrder(30),
    }),
    command: group('Run a program (no shell); its exit code decides', {
      enabled: bool(false, 'Enable the module'),
      program: strings(
        ['/path/to/someprogram', '{{user}}', '{{pass}}'],
        'Program and arguments (mustache: `{{user}}`, `{{pass}}`, each value one argument, no shell). A login or password that would start an argument with `-` (an option, e.g. `--help`) fails without running the program, unless the argument comes after a `--` argument (put `--` before them when the program ends its options there)',
      ),
      success: int(0, 'Exit code meaning success'),
      order: moduleOrder(40),
      timeout: duration('10 seconds', 'The program is killed after this time', { min: 1 }),
    }),
    internal: group('Accounts in the database', {
      enabled: bool(true, 'Enable the module (disable sign-up too when disabling it)'),
      order: moduleOrder(50),
    }),
    oauth: mapOf('Provider id (used in URLs) to provider', oauthEntry, {
      github: {
        enabled: false,
        name: 'GitHub',
        icon: 'fa-github',
        scope: '',
        'authorize-url': 'https://github.com/login/oauth/authorize',
        'token-url': 'https://github.com/login/oauth/access_token',
        'user-url': 'https://api.github.com/user',
        'user-id-key': 'login',
        'user-email-key': 'email',
        'client-id': '',
        'client-secret': '',
      },
    }),
    proxy: group('Trust headers of a reverse proxy at `/open/auth/proxy`, only from `trusted-proxies` (401 from anyone else)', {
      enabled: bool(false, 'Enable proxy login'),
      'user-header': str('X-Valid-User', 'Header carrying the login'),
      'email-header': optional('X-User-Email', 'Header carrying the e-mail; empty: none'),
    }),
  },
  'Authentication (`backend.auth`)',
);

const storeEntry = group('A binary store', {
  enabled: bool(true, 'Stores with `enabled = false` are removed'),
  type: oneOf(['default-database', 'file-system', 's3'], 'default-database', 'Kind of store', { required: true }),
  directory: optional('', '(`file-system`) base directory; each file is one plain file below it'),
  'clean-empty-dirs': bool(true, '(`file-system`) remove directories left empty after a delete'),
  endpoint: optional('', '(`s3`) endpoint URL'),
  'access-key': optional('', '(`s3`) access key'),
  'secret-key': optional('', '(`s3`) secret key', { secret: true }),
  bucket: optional('', '(`s3`) bucket'),
  region: str('us-east-1', '(`s3`) region'),
});

const backend = group('Server internals', {
  auth,
  jdbc: group(
    'The database',
    {
      url: str(
        ({ dataDir }) => `jdbc:sqlite:${dataDir}/pier.db`,
        '`jdbc:sqlite:<file>` (embedded), `jdbc:postgresql://host:port/db` or `jdbc:mariadb://host:port/db`',
      ),
      user: str('sa', 'Database user'),
      password: optional('', 'Database password', { secret: true }),
    },
    'Database (`backend.jdbc`)',
  ),
  files: group(
    'Where file contents are stored',
    {
      'default-store': str('database', 'Id of the enabled store new files go to'),
      stores: mapOf('Store id to store', storeEntry, ({ dataDir }) => ({
        database: { enabled: true, type: 'default-database' },
        filesystem: { enabled: false, type: 'file-system', directory: `${dataDir}/files` },
        s3: { enabled: false, type: 's3', endpoint: 'http://localhost:9000', bucket: 'pier' },
      })),
      'copy-files': group('Copy every file between stores at start-up, before serving (the source is kept)', {
        enable: bool(false, 'Run the copy'),
        source: str('database', 'Store id to copy from'),
        target: optional('', 'Store id to copy to'),
        parallel: int(2, 'Files copied in parallel', { min: 1 }),
      }),
    },
    'File stores (`backend.files`)',
  ),
  'compute-checksum': group(
    'SHA-256 checksums computed in the background',
    {
      enable: bool(true, 'Compute checksums'),
      capacity: int(5000, 'Queue size; uploads wait while it is full', { min: 1 }),
      parallel: int(0, 'Checksums computed in parallel (> 0 when `use-default` is false)', { min: 0 }),
      'use-default': bool(true, 'Ignore `parallel` and use the number of cores minus 1 (at least 1)'),
      lease: duration('30 seconds', 'How long a queued checksum stays with the server that queued it without that server renewing it; then any server sharing the database takes it over (one whose server died)', { min: 1 }),
    },
    'Checksums (`backend.compute-checksum`)',
  ),
  share: group(
    'Limits of shares',
    {
      'chunk-size': size('512K', 'Size of the rows a file is stored in by a `default-database` store; the `file-system` and `s3` stores do not use it (S3 objects are 8 MiB)', { min: 1 }),
      'max-size': size('1.5G', 'Maximum total size of a share', { min: 1 }),
      'max-validity': duration('365 days', 'Maximum validity of shares and aliases', { min: 1 }),
      'zip-max-size': size('1.5G', 'Largest share offered as a ZIP download; 0 disables ZIP; capped to `max-size`'),
      'require-share-password': bool(false, 'Owner uploads need a password (guest uploads through aliases do not)'),
      'database-domain-checks': listOf(
        'Database errors containing `native` (case-insensitive) answer 422 with `message`',
        group('A domain check', {
          enabled: bool(true, 'Use this check'),
          native: str('', 'Text of the database error', { required: true }),
          message: str('', 'Message for the client', { required: true }),
        }),
        { snakeoil: { enabled: false, native: 'domain safe_bytea violates check constraint', message: 'The uploaded file contains a virus!' } },
      ),
    },
    'Shares (`backend.share`)',
  ),
  signup: group(
    'Who may create an account',
    {
      mode: oneOf(['open', 'invite', 'closed'], 'open', 'Sign-up mode'),
      'invite-time': duration('14 days', 'Validity of invitation keys', { min: 1 }),
      'invite-password': optional(
        '',
        'Password an admin gives to create invitation keys. Empty: in `invite` mode, one generated once per install and kept in `<data-dir>/invite-password` (0600), where the operator reads it; Sharry\'s example `generate-invite` counts as empty',
        { secret: true, shownDefault: '<generated>' },
      ),
    },
    'Sign-up (`backend.signup`)',
  ),
  cleanup: group(
    'Periodic removal of expired data',
    {
      enabled: bool(true, 'Run the cleanup job'),
      interval: duration('14 days', 'Time between runs; the first one a minute after start, or one interval when that is shorter', { min: 1 }),
      'invalid-age': duration('7 days', 'Age past expiry before a share is removed'),
    },
    'Cleanup (`backend.cleanup`)',
  ),
  mail: group(
    'Outgoing e-mail; when disabled nothing is sent',
    {
      enabled: bool(false, 'Send e-mail'),
      smtp: group('The SMTP server', {
        host: str('localhost', 'SMTP host'),
        port: int(25, 'SMTP port', { min: 1, max: 65535 }),
        user: optional('', 'User; empty: no authentication'),
        password: optional('', 'Password', { secret: true }),
        'ssl-type': oneOf(['none', 'starttls', 'ssl'], 'starttls', 'Transport security'),
        'check-certificates': bool(true, 'Verify certificates (false for self-signed ones)'),
        timeout: duration('10 seconds', 'Timeout for mail commands', { min: 1 }),
        'default-from': optional('', 'From address; empty: the e-mail of the current user'),
        'list-id': optional('Pier', 'List-Id header; empty: no header'),
      }),
      templates: group('Mustache templates', {
        download: template(
          'Download ready.',
          downloadBody,
          'Download link (`url`, section `password`, `user`)',
        ),
        alias: template(
          'Link for Upload',
          aliasBody,
          'Alias link (`url`, `user`)',
        ),
        'upload-notify': template(
          '[Pier] Files arrived',
          uploadNotifyBody,
          'Upload notification (`user`, `aliasName`, `url`)',
        ),
        'download-notify': template(
          '[Pier] Your share was downloaded',
          downloadNotifyBody,
          'Download notification, at most one per share and hour, for shares whose owner asked for it (`user`, `shareName`, `what`, `url`)',
        ),
      }),
    },
    'Mail (`backend.mail`)',
  ),
});

const connectionEntry = group('A music player daemon', {
  host: str('127.0.0.1', 'Daemon host'),
  port: port(6600, 'Daemon port'),
  password: optional('', 'Daemon password', { secret: true }),
  title: optional('', 'Name shown in the client; empty: the id'),
  'music-directory': optional('', "The daemon's music directory; empty: `player.music-directory`"),
  'max-connections': int(5, 'Size of the connection pool', { min: 1 }),
  timeout: duration('5 seconds', 'Timeout for connecting and for each answer, counted once the command has a connection (waiting for a free one of the pool does not count; that wait is bounded by four times this); a WebSocket whose daemon does not answer in time gets an Error frame and is closed (1011)', { min: 1 }),
});

const player = group(
  'The music player gateway (`/api/v1`)',
  {
    enabled: bool(true, 'Serve the gateway'),
    access: oneOf(['open', 'user', 'admin'], 'user', 'Who may use it'),
    'music-directory': optional('', 'Music directory (as configured in the daemon) for covers and booklets'),
    connections: mapOf('Connection id to daemon; `default` is mandatory', connectionEntry, {
      default: { host: '127.0.0.1', port: 6600, password: '', title: 'Default', 'music-directory': '', 'max-connections': 5, timeout: '5 seconds' },
    }),
    cover: group('Cover files next to the songs', {
      names: strings(['cover', 'folder', 'front', 'artwork', 'Cover', 'Folder'], 'Base names tried in this order'),
      extensions: strings(['jpg', 'jpeg', 'png', 'webp', 'gif'], 'Extensions tried for each name'),
    }),
    booklet: group('Booklet files next to the songs', {
      names: strings(['booklet'], 'Base names tried in this order'),
      extensions: strings(['pdf'], 'Extensions tried for each name'),
    }),
    thumbnails: group('Resized covers (`size=N`)', {
      enabled: bool(true, 'Resize covers; when false `size` is ignored'),
      sizes: ints(
        [128, 256, 512, 1024],
        'The only sizes kept on disk; an answer of `size=N` is scaled down from the smallest kept size of at least N, or made from the original (not kept) when N is above them all',
        { min: 1 },
      ),
      directory: str(({ dataDir }) => `${dataDir}/thumbnails`, 'Where thumbnails are kept'),
      'max-parallel': int(2, 'Resizes running at once', { min: 1 }),
    }),
    'placeholder-url': optional('', 'Empty: a placeholder is drawn from the album name; else a mustache URL (`{{name}}`) fetched instead'),
    'cache-size': int(3000, 'Entries of the cover path cache', { min: 0 }),
    rooms: group('Rooms: links that let guests add songs (`/api/v1/rooms`, `/app/room/<id>`)', {
      'joins-per-address-per-hour': int(20, 'Joins of rooms one client address may make per hour; more get 429', { min: 1 }),
      'guests-per-room': int(50, 'Guests one room may have; more joins get 429', { min: 1 }),
      'adds-per-guest-per-minute': int(6, 'Songs one guest may add per minute (beside the room\'s own songs-per-guest limit); more get 429', { min: 1 }),
    }),
  },
  'Music player (`player`)',
);

/** The spec of `service.restserver`. */
export const restserverSpec = group('service.restserver', {
  ...server,
  logging,
  webapp,
  backend,
  player,
  'custom-content': group(
    'Static files below `/custom/`',
    { enabled: bool(false, 'Serve the directory'), directory: optional('', 'Directory to serve') },
    'Custom content (`custom-content`)',
  ),
  'rate-limit': group(
    'Per client address (IPv6 addresses grouped by their /64 network) and per login or share; an attempt counts before it is checked; over the limit the answer is 429 with `Retry-After`. Servers sharing a PostgreSQL or MariaDB database share their counts; a server on SQLite counts in memory',
    {
      enabled: bool(true, 'Limit failed attempts'),
      'login-failures': int(10, 'Login attempts per window, per client address', { min: 1 }),
      'share-password-failures': int(10, 'Share-password attempts per window, per client address', { min: 1 }),
      'all-addresses': int(30, 'Attempts on one login, or on one share\'s password, per window from every client address together; beyond it only addresses where that login or share password succeeded before get in', { min: 1 }),
      'remember-success': duration('30 days', 'How long an address where a login or share password succeeded is let in while others are held back by `all-addresses`', { min: 1 }),
      signups: int(10, 'Sign-up attempts per client address per hour', { min: 1 }),
      window: duration('1 minute', 'Length of the window', { min: 1 }),
    },
    'Rate limits (`rate-limit`)',
  ),
  limits: group(
    'Bounds on what one client can make the server do or keep',
    {
      'files-per-share': int(1000, 'Files one share may hold', { min: 1 }),
      'shares-per-alias-per-hour': int(30, 'Shares guests may create through one upload link (alias) per hour; shares that never received a byte do not count', { min: 1 }),
      'shares-per-guest-per-hour': int(10, 'Shares one guest address (IPv6: its /64 network) may create through one upload link per hour, empty ones included', { min: 1 }),
      'alias-mails-per-hour': int(10, 'Notification mails triggered by guests of one upload link per hour (and one per share)', { min: 0 }),
      'mails-per-account-per-hour': int(30, 'Recipients one account may mail through `/sec/mail/send` per hour (at most 50 per mail); 0 disables sending', { min: 0 }),
      'description-length': int(20000, 'Characters a share description may have', { min: 1 }),
      'activity-entries': int(500, "Entries kept in one share's activity log (views, downloads, uploads); beyond it the oldest are folded into a count", { min: 10 }),
      'websockets-per-user': int(4, 'Player WebSockets open at once per user (per client address for anonymous access)', { min: 1 }),
      websockets: int(32, 'Player WebSockets open at once in all; keep it below the daemon\'s `max_connections`', { min: 1 }),
      connections: int(512, 'HTTP connections open at once; more are closed at once', { min: 1 }),
      'connections-per-address': int(64, 'HTTP connections one client address may hold at once (trusted proxies excepted); more are closed at once', { min: 1 }),
      'anonymous-connections-per-address': int(
        16,
        'Of those, connections that have not yet signed in (sent a valid token or session cookie); more are closed at once. Loopback addresses (this machine: the desktop window, a local reverse proxy) and trusted proxies are excepted',
        { min: 1 },
      ),
      'min-body-rate': size('1K', 'Bytes a second a request body must average over `body-rate-window`; a slower one gets 408 and its connection is closed. Time in which the server itself does not read is not counted. 0: no minimum', { min: 0 }),
      'body-rate-window': duration('60 seconds', 'Window over which `min-body-rate` is measured', { min: 1 }),
      'header-timeout': duration('20 seconds', 'Time a client has to send a request\'s headers', { min: 1 }),
      'idle-timeout': duration('60 seconds', 'A connection that sends and receives nothing for this long is closed (a slow upload that keeps sending is not)', { min: 1 }),
      'upload-lock-wait': duration('20 seconds', 'Time a tus request waits for an upload that another request or server is writing; then it gets 423 Locked (tus clients retry). Longer than `upload-idle-timeout`, so a request outlasts a stalled writer or a dead server\'s lock', { min: 1 }),
      'upload-idle-timeout': duration('15 seconds', 'A tus write whose client sends nothing for this long is ended and frees its upload, so the client can go on at once through another server; a server that dies frees its uploads after the same time', { min: 1 }),
    },
    'Limits (`limits`)',
  ),
});

export type RestserverSpec = typeof restserverSpec;

/** The root every key lives under. */
export const ROOT = 'service.restserver';

/** What `service.restserver` loads into before the secret is resolved (matches `Config`). */
export type SpecValue = ValueOf<RestserverSpec>;
