/**
 * The messages between the desktop app's main process and the server it runs in a
 * utility process (`hosted.ts`). Types only: main/ imports them without the server.
 */
import type { ServerEvent } from './core/events/events.js';

export type { ServerEvent } from './core/events/events.js';

/** Limits of the running configuration the tray needs (milliseconds). */
export interface HostLimits {
  defaultValidity: number;
  maxValidity: number;
}

/** From the host to the server. */
export type HostMessage =
  /** answer to `hello`: start now, creating this first admin when the database has no account */
  | { type: 'start'; initialAdmin: { login: string; password: string } | null }
  /** a session token for the desktop's own account, answered with the same `id` */
  | { type: 'token'; id: number; account: { id: string; login: string } }
  /** stop serving, close the database and exit */
  | { type: 'stop' };

/** From the server to the host. */
export type ServerMessage =
  /** the server listens for messages: the host answers with `start` */
  | { type: 'hello' }
  | { type: 'running'; port: number; limits: HostLimits }
  /** the server could not start (the process exits next) */
  | { type: 'failed'; reason: string }
  | { type: 'event'; event: ServerEvent }
  | { type: 'token'; id: number; token: string | null; error?: string };
