// The type of `window.pierSetup`, the global the preload gives the first-start window
// (a local page, resources/setup/), and its IPC channels. See desktop-api.ts for why
// the channels are a type.
import type { SettingsError } from './desktop-api.js';

export interface SetupDefaults {
  /** a suggested login for the admin account */
  login: string;
  /** a suggested received-files folder (another one is chosen with `pickFolder`) */
  receivedFolder: string;
  /** Windows asks whether Pier may use the network at its first start: say so beforehand */
  firewallNote: boolean;
}

export interface SetupInput {
  login: string;
  /** `null`: generate one (shown once in the answer) */
  password: string | null;
  receivedFolder: string;
}

export type SetupResult =
  | { success: true; login: string; generatedPassword: string | null }
  | { success: false; errors: SettingsError[] };

export interface SetupApi {
  defaults(): Promise<SetupDefaults>;
  pickFolder(): Promise<string | null>;
  /** Creates the admin account, saves the folder and starts the server. */
  complete(input: SetupInput): Promise<SetupResult>;
  /** Closes the first-start window and opens Pier. */
  finish(): Promise<void>;
}

export interface SetupChannels {
  defaults: 'setup:defaults';
  pickFolder: 'setup:pick-folder';
  complete: 'setup:complete';
  finish: 'setup:finish';
}

export type SetupChannel = SetupChannels[keyof SetupChannels];
