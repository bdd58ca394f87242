/**
 * The music gateway: one bounded connection pool per configured daemon,
 * commands passed through unchanged and answered with typed envelopes.
 * Knows nothing of HTTP; `http/error-mapping.ts` maps `outcome` to a status code.
 */
import type { Clock } from '../common/clock.js';
import type { Logger } from '../common/log.js';
import type { Config } from '../config/types.js';
import { convertReply, errorEnvelope, UnreadableAnswerError, type Envelope } from './answers/convert.js';
import { mayRunAll, type PlayerCaller } from './command-classes.js';
import { checkCommand, type CommandInfo } from './commands.js';
import { DaemonError } from './protocol/connection.js';
import { DaemonPool } from './protocol/pool.js';
import type { Reply } from './protocol/reply.js';
import type { DaemonDialer } from './protocol/socket.js';
import { PlayerSession, type SessionAccess, type SessionEvents } from './session.js';

export type { PlayerCaller } from './command-classes.js';

/** `ok`: the daemon said OK; `ack`: it said ACK; the others are the gateway's own refusals and failures. */
export type Outcome = 'ok' | 'ack' | 'bad-request' | 'forbidden' | 'unavailable' | 'timeout';

export interface GatewayAnswer {
  outcome: Outcome;
  body: Envelope;
}

export interface ConnectionInfo {
  id: string;
  title: string;
}

export interface PlayerGateway {
  /** The configured connections, `default` first. */
  connections(): ConnectionInfo[];
  has(id: string): boolean;
  /** The music directory of a connection (its own, or `player.music-directory`). */
  musicDirectory(id: string): string;
  /**
   * Any caller allowed by `player.access`: checks the command (refusals →
   * `bad-request`) and the caller's right to every command in it (a
   * non-admin sending an admin command → `forbidden`), runs it unchanged
   * on a pooled connection and converts the answer.
   */
  execute(id: string, command: string | Buffer, caller: PlayerCaller): Promise<GatewayAnswer>;
  /**
   * Internal lookups (covers): runs a command built by the server and
   * returns the raw reply. Throws `DaemonError` when the daemon is unreachable or slow.
   */
  query(id: string, command: string): Promise<Reply>;
  /**
   * A WebSocket's session: a dedicated daemon connection in an idle loop;
   * each command is checked against the class of the caller `access()`
   * gives just before it runs (`refused`: access was revoked, the command is
   * refused and the session ends). Throws `DaemonError`.
   */
  openSession(id: string, events: SessionEvents, access: SessionAccess): Promise<PlayerSession>;
  close(): void;
}

export interface GatewayDeps {
  config: Config['player'];
  dialer: DaemonDialer;
  clock: Clock;
  log: Logger;
}

const failure = (e: unknown): GatewayAnswer => {
  if (e instanceof DaemonError) return { outcome: e.kind, body: errorEnvelope(e.message) };
  throw e;
};

export const createPlayerGateway = ({ config, dialer, clock, log }: GatewayDeps): PlayerGateway => {
  const pools = new Map<string, DaemonPool>();
  const ids = Object.keys(config.connections).sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b)));
  for (const id of ids) {
    const c = config.connections[id]!;
    pools.set(id, new DaemonPool({ dialer, clock, host: c.host, port: c.port, password: c.password, timeoutMs: c.timeout, max: c.maxConnections }));
  }
  const pool = (id: string): DaemonPool => {
    const p = pools.get(id);
    if (!p) throw new Error(`unknown player connection ${id}`);
    return p;
  };

  const run = async (id: string, c: CommandInfo): Promise<GatewayAnswer> => {
    // `close` would only end a pooled connection; there is nothing to pass on.
    if (c.list === 'none' && c.names[0] === 'close') return { outcome: 'ok', body: { success: true, type: 'Empty', result: {} } };
    try {
      const reply = await pool(id).run(c.bytes ?? c.text, c.reusable);
      return { outcome: reply.ok ? 'ok' : 'ack', body: convertReply(c, reply) };
    } catch (e) {
      // an answer the gateway cannot read is the daemon's failure, like garbage in its framing
      if (e instanceof UnreadableAnswerError) {
        log.warn('Player command failed', { connection: id, kind: 'unavailable', error: e.message });
        return { outcome: 'unavailable', body: errorEnvelope(e.message) };
      }
      if (e instanceof DaemonError) log.warn('Player command failed', { connection: id, kind: e.kind, error: e.message });
      return failure(e);
    }
  };

  return {
    connections: () => ids.map((id) => ({ id, title: config.connections[id]!.title || id })),
    has: (id) => pools.has(id),
    musicDirectory: (id) => config.connections[id]?.musicDirectory || config.musicDirectory,
    async execute(id, command, caller) {
      const checked = checkCommand(command);
      if (!checked.ok) return { outcome: 'bad-request', body: errorEnvelope(checked.message) };
      const allowed = mayRunAll(checked.command.lines, caller.admin, caller.room === true);
      if (!allowed.ok) return { outcome: allowed.status, body: errorEnvelope(allowed.message) };
      return run(id, checked.command);
    },
    query: (id, command) => pool(id).run(command),
    async openSession(id, events, access) {
      const c = config.connections[id];
      if (!c) throw new Error(`unknown player connection ${id}`);
      const conn = await pool(id).dedicated();
      return new PlayerSession(conn, c.timeout, events, log.child('session'), access);
    },
    close() {
      for (const p of pools.values()) p.close();
    },
  };
};
