// The type of `window.desktop`, the one global the preload script gives the desktop
// window, and the IPC channels behind it. The web client imports these types (and
// STORED_PASSWORD); at run time it feature-detects `window.desktop`, which browsers
// do not have.

/**
 * The path of the desktop settings page. `window.desktop` exists on every page of the
 * server in the desktop window (so the web client can tell it is in the desktop app),
 * but its methods work only while the page is this one: the preload checks at each
 * call, and main/ checks the sender's current URL.
 */
export type DesktopPagePath = '/app/desktop';

/**
 * Stands for a stored password in the settings main/ sends to the page: passwords
 * never go back to a page. Sent back unchanged, it keeps the stored password (for the
 * same mail server or player host only); `""` means no password. It contains a NUL
 * character, which no real password setting may contain, so it cannot be mistaken
 * for one.
 */
export const STORED_PASSWORD = '\u0000stored\u0000';

export type SignupMode = 'open' | 'invite' | 'closed';
export type PlayerAccess = 'open' | 'user' | 'admin';
export type SslType = 'none' | 'starttls' | 'ssl';

/** Outgoing e-mail (SMTP) of the hosted server. */
export interface MailSettings {
  enabled: boolean;
  host: string;
  port: number;
  user: string;
  /** from main/: `STORED_PASSWORD` when one is stored, else `""` */
  password: string;
  sslType: SslType;
  /** empty: the e-mail of the signed-in user */
  defaultFrom: string;
}

/** One music player daemon (MPD); the id `default` is the one the player opens with. */
export interface PlayerConnection {
  /** an ident (`A-Z a-z 0-9 - _ @ .`), unique */
  id: string;
  title: string;
  host: string;
  port: number;
  /** from main/: `STORED_PASSWORD` when one is stored, else `""` */
  password: string;
}

/** The desktop settings the settings page (`/app/desktop`) shows and edits. */
export interface EditableSettings {
  /** 1–65535, or 0 for a random free port (links then change at every start) */
  port: number;
  /** true: listen on every network interface (guests on the LAN can reach Pier); false: this computer only */
  lan: boolean;
  /** absolute path of the folder received and shared files are kept in (one plain file each) */
  receivedFolder: string;
  signupMode: SignupMode;
  playerEnabled: boolean;
  playerAccess: PlayerAccess;
  playerConnections: PlayerConnection[];
  mail: MailSettings;
  /** absolute path of a HOCON/JSON file with further server settings; empty: none */
  extraConfigFile: string;
  startAtLogin: boolean;
  /** a desktop notification when a guest upload arrives */
  notifications: boolean;
  /** a desktop notification when a guest joins a room (default off) */
  roomNotifications: boolean;
}

/** A refused setting: the field (dotted path, e.g. `mail.host`) and why. */
export interface SettingsError {
  field: string;
  message: string;
}

export type SettingsResult =
  | { success: true; settings: EditableSettings }
  | { success: false; errors: SettingsError[] };

/** A QR code, generated locally. */
export interface QrData {
  /** the encoded text */
  text: string;
  /** an `<svg>` document */
  svg: string;
  /** the same as a `data:image/svg+xml;base64,...` URL, for an `<img src>` */
  dataUrl: string;
}

/** One way to reach the server. */
export interface ServerAddress {
  /** `localhost` or the interface name (`eth0`, `Wi-Fi`, ...) */
  name: string;
  url: string;
}

/**
 * `window.desktop`. Every method rejects unless the document was loaded as the
 * desktop settings page (`DesktopPagePath`) of the server and still shows it.
 */
export interface DesktopApi {
  /** Always true: lets the web client tell the desktop window from a browser. */
  readonly isDesktop: true;
  /** The desktop app's version (package.json `version`). */
  readonly version: string;
  /** The current settings; stored passwords are `STORED_PASSWORD`. */
  getSettings(): Promise<EditableSettings>;
  /**
   * Changes some settings. Every field is validated; when one is refused nothing
   * changes and every error is returned. A change the server depends on restarts it
   * (the window reloads on the new address when the port changes).
   */
  setSettings(patch: Partial<EditableSettings>): Promise<SettingsResult>;
  /** A folder picker; `null` when cancelled. Only a folder chosen here may become `receivedFolder`. */
  pickFolder(): Promise<string | null>;
  /** A picker for a HOCON file; `null` when cancelled. Only a file chosen here may become `extraConfigFile`. */
  pickConfigFile(): Promise<string | null>;
  /** Opens the received-files folder in the system's file manager. */
  openFolder(): Promise<void>;
  /** The local address and every LAN address (IPv4, non-internal) the server answers on. */
  lanAddresses(): Promise<ServerAddress[]>;
  /** A QR code of `text` (at most 2,000 characters). */
  qrData(text: string): Promise<QrData>;
}

/**
 * The IPC channels of `window.desktop` (method → channel). main/ipc.ts answers exactly
 * these and refuses every other channel; the preload invokes them. A type, not a value:
 * a sandboxed preload cannot import local modules at run time, so both sides spell the
 * channel names out and the compiler checks them against this table.
 */
export interface DesktopChannels {
  getSettings: 'desktop:settings-get';
  setSettings: 'desktop:settings-set';
  pickFolder: 'desktop:pick-folder';
  pickConfigFile: 'desktop:pick-config-file';
  openFolder: 'desktop:open-folder';
  lanAddresses: 'desktop:lan-addresses';
  qrData: 'desktop:qr-data';
}

export type DesktopChannel = DesktopChannels[keyof DesktopChannels];
