/**
 * A WebSocket's daemon session: one dedicated connection that idles while
 * nothing is asked. A command ends the idle with `noidle`, runs, and the
 * session idles again. Changes are reported as `IdleAnswer` only when the
 * list is not empty. Frames have no ids: answers come in command order.
 */
import type { Logger } from '../common/log.js';
import { convertReply, errorEnvelope, idleChanges, type Envelope } from './answers/convert.js';
import { mayRunAll, type PlayerCaller } from './command-classes.js';
import { checkCommand, type CommandInfo } from './commands.js';
import { DaemonError, type DaemonConnection } from './protocol/connection.js';

export interface SessionEvents {
  /** an envelope to send as a text frame */
  send(envelope: Envelope): void;
  /** the daemon connection is gone; close the socket with this reason */
  lost(reason: string): void;
}

export class PlayerSession {
  private readonly queue: CommandInfo[] = [];
  private closed = false;

  constructor(
    private readonly conn: DaemonConnection,
    private readonly timeoutMs: number,
    private readonly events: SessionEvents,
    private readonly log: Logger,
    private readonly caller: PlayerCaller,
  ) {
    conn.onClose((e) => this.lose(e.message));
    void this.loop();
  }

  /**
   * A text frame's command. Refused commands (malformed, not allowed to the
   * caller's class, and `close`, which belongs to the socket) get an `Error`
   * frame; the session goes on.
   */
  command(text: string): void {
    if (this.closed) return;
    const checked = checkCommand(text);
    if (!checked.ok) {
      this.events.send(errorEnvelope(checked.message));
      return;
    }
    if (checked.command.names.includes('close')) {
      this.events.send(errorEnvelope('Close the WebSocket to end the session.'));
      return;
    }
    const allowed = mayRunAll(checked.command.lines, this.caller.admin);
    if (!allowed.ok) {
      this.events.send(errorEnvelope(allowed.message));
      return;
    }
    this.queue.push(checked.command);
    this.conn.noidle();
  }

  /** Ends the session and its daemon connection (the socket closed). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.close();
  }

  private async loop(): Promise<void> {
    try {
      while (!this.closed) {
        const next = this.queue.shift();
        if (next) {
          const reply = await this.conn.send(next.text, this.timeoutMs);
          if (!this.closed) this.events.send(convertReply(next, reply));
          continue;
        }
        const reply = await this.conn.idle();
        const changes = idleChanges(reply);
        if (changes.length > 0 && !this.closed) this.events.send({ success: true, type: 'IdleAnswer', result: { changes } });
      }
    } catch (e) {
      if (this.closed) return;
      const reason = e instanceof DaemonError ? e.message : `The player session failed: ${String(e)}`;
      this.log.warn('Player session ended', { reason });
      this.lose(reason);
    }
  }

  private lose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.destroy();
    this.events.lost(reason);
  }
}
