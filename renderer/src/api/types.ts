// Shapes of the server's JSON answers used by the web client (see server/openapi.yml).

export interface OAuthItem {
  id: string;
  name: string;
  icon: string;
}

/** `GET /api/v2/open/info/appconfig`: the client settings. */
export interface AppConfig {
  appName: string;
  baseUrl: string;
  logoUrl: string;
  logoUrlDark: string;
  iconUrl: string;
  iconUrlDark: string;
  footerText: string;
  footerVisible: boolean;
  signupMode: 'open' | 'invite' | 'closed';
  oauthConfig: OAuthItem[];
  chunkSize: number;
  maxValidity: number;
  maxSize: number;
  authRefreshTime: number;
  defaultValidity: number;
  zipMaxSize: number;
  retryDelays: number[];
  mailEnabled: boolean;
  oauthOnly: boolean;
  aliasMemberEnabled: boolean;
  playerEnabled: boolean;
  oauthAutoRedirect: boolean;
  proxyAuthEnabled: boolean;
  proxyOnly: boolean;
  hideLoginForm: boolean;
  sharePasswordRequired: boolean;
  autoPublishEnabled: boolean;
  welcomeMessage: string;
  defaultLanguage: string;
  initialTheme: 'light' | 'dark';
  defaultTimezone: string;
  initialPage: 'home' | 'uploads' | 'share';
  /** fewest characters of a new password */
  passwordMinLength: number;
}

export interface AuthResult {
  id: string;
  user: string;
  admin: boolean;
  success: boolean;
  message: string;
  /** the outcome as a machine code, shown in the user's language (`messages.<code>`) */
  code: string;
  token: string | null;
  validMs: number;
}

export interface IdResult {
  success: boolean;
  message: string;
  code: string;
  id: string;
}

export interface ShareListItem {
  id: string;
  name: string | null;
  aliasName: string | null;
  /** the alias the share was uploaded through (its name is `aliasName`) */
  aliasInfo: { id: string; name: string } | null;
  validity: number;
  maxViews: number;
  password: boolean;
  created: number;
  files: number;
  size: number;
  /** null: never or not currently published; true: published and valid; false: expired */
  published: boolean | null;
  /** views counted so far; 0 when never published */
  views: number;
  /** end of the current publication (epoch ms); null when not published */
  publishUntil: number | null;
}

export interface SharePublish {
  id: string;
  enabled: boolean;
  views: number;
  publishDate: number;
  publishUntil: number;
  expired: boolean;
  lastAccess: number | null;
}

export interface ShareFile {
  id: string;
  filename: string;
  size: number;
  mimetype: string;
  /** lower-case SHA-256 hex, `''` while not yet known */
  checksum: string;
  storedSize: number;
  created: number;
}

export interface ShareDetail {
  id: string;
  name: string | null;
  aliasId: string | null;
  aliasName: string | null;
  validity: number;
  maxViews: number;
  password: boolean;
  descriptionRaw: string | null;
  /** markdown with the mustache file references filled in; rendered by MarkdownView */
  description: string | null;
  created: number;
  publishInfo: SharePublish | null;
  files: ShareFile[];
}

export interface ShareProperties {
  name: string | null;
  validity: number;
  description: string | null;
  maxViews: number;
  password: string | null;
}

/** `GET /api/v2/sec/info/addresses`: where other devices on the network reach the server */
export interface Addresses {
  /** whether other devices can reach it at all */
  lan: boolean;
  /** base URLs, the one to use first */
  urls: string[];
}

/** `GET /api/v2/open/alias/{id}` */
export interface AliasInfo {
  id: string;
  name: string;
  enabled: boolean;
  validity: number;
  /** bytes one send (share) may hold: the link's own limit, at most the server's */
  maxSize: number;
  /** the owner's login: whose link it is */
  owner: string;
  /** how many members see the uploads besides the owner */
  members: number;
  /** the owner's message for guests, plain text */
  message: string | null;
  /** epoch ms after which the link takes no uploads */
  expires: number | null;
}

export interface MailTemplate {
  subject: string;
  body: string;
}
