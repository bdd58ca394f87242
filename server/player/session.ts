/**
 * A WebSocket's daemon session: one dedicated connection that idles while
 * nothing is asked. A command ends the idle with `noidle`, runs, and the
 * session idles again. Changes are reported as `IdleAnswer` only when the
 * list is not empty. Frames have no ids: answers come in command order.
 */
import type { Logger } from '../common/log.js';
import { convertReply, errorEnvelope, idleChanges, UnreadableAnswerError, type Envelope } from './answers/convert.js';
import { mayRunAll, type PlayerCaller } from './command-classes.js';
import { checkCommand, type CommandInfo } from './commands.js';
import { DaemonError, type DaemonConnection } from './protocol/connection.js';
import type { Reply } from './protocol/reply.js';

export interface SessionEvents {
  /** an envelope to send as a text frame */
  send(envelope: Envelope): void;
  /** the session is over (daemon connection lost or slow, or `revoked` access); close the socket with this reason */
  lost(reason: string, revoked: boolean): void;
}

/**
 * The socket's caller as of now (access is checked again before every
 * command); `refused` when access was revoked since the socket opened.
 */
export type SessionAccess = () => Promise<{ caller: PlayerCaller } | { refused: string }>;

/** Frames a socket may have waiting (for their answer or their `Error` frame); more are refused. */
export const MAX_WAITING_COMMANDS = 64;

/** `count` frames refused with the same `Error` frame, answered together when their turn comes. */
interface Refusal {
  refusal: Envelope;
  count: number;
}

/** A command to run, or refused frames to answer once the answers of earlier frames are out. */
type Queued = CommandInfo | Refusal;

export class PlayerSession {
  private readonly queue: Queued[] = [];
  /** a command of the queue is with the daemon */
  private running = false;
  /** the steps of frames taken (access check, refusal), in arrival order */
  private checking: Promise<void> = Promise.resolve();
  /** frames whose answer or `Error` frame is not out yet */
  private waiting = 0;
  /**
   * The frames refused for the bound since the last frame taken, while their
   * `Error` frames are not out: the next refused frame joins them, so a flood
   * of frames costs one entry, and is still answered in order.
   */
  private overflow: Refusal | undefined;
  private closed = false;

  constructor(
    private readonly conn: DaemonConnection,
    private readonly timeoutMs: number,
    private readonly events: SessionEvents,
    private readonly log: Logger,
    private readonly access: SessionAccess,
  ) {
    conn.onClose((e) => this.lose(e.message));
    void this.loop();
  }

  /**
   * A text frame's command (text, or bytes for names that are not valid
   * UTF-8). Refused commands (malformed, not allowed to the caller's class,
   * and `close`, which belongs to the socket) get an `Error` frame; the
   * session goes on. When access was revoked, the command gets an `Error`
   * frame and the session ends.
   */
  command(input: string | Buffer): void {
    if (this.closed) return;
    this.waiting++;
    if (this.waiting > MAX_WAITING_COMMANDS) {
      if (this.overflow) this.overflow.count++;
      else {
        const refused = { refusal: errorEnvelope(`Too many commands are waiting (at most ${MAX_WAITING_COMMANDS}); wait for their answers.`), count: 1 };
        this.overflow = refused;
        this.inOrder(() => this.answer(refused));
      }
      return;
    }
    this.overflow = undefined;
    const checked = checkCommand(input);
    if (!checked.ok) {
      this.inOrder(() => this.refuse(checked.message));
      return;
    }
    if (checked.command.list === 'none' && checked.command.names[0] === 'close') {
      this.inOrder(() => this.refuse('Close the WebSocket to end the session.'));
      return;
    }
    const access = this.access();
    this.inOrder(async () => {
      const now = await access;
      if (this.closed) return;
      if ('refused' in now) {
        this.lose(now.refused, true);
        return;
      }
      const allowed = mayRunAll(checked.command.lines, now.caller.admin, now.caller.room === true);
      if (!allowed.ok) {
        this.refuse(allowed.message);
        return;
      }
      this.queue.push(checked.command);
      this.conn.noidle(this.timeoutMs);
    });
  }

  /** Ends the session and its daemon connection (the socket closed). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.close();
  }

  /** An `Error` frame for a refused command, after the answers of the commands before it. */
  private refuse(message: string): void {
    this.answer({ refusal: errorEnvelope(message), count: 1 });
  }

  /** Sends the `Error` frames of refused frames now when nothing runs or waits, else queues them behind the commands before. */
  private answer(refused: Refusal): void {
    if (this.queue.length === 0 && !this.running) this.sendRefusal(refused);
    else this.queue.push(refused);
  }

  /** Sends the `Error` frame of every frame of `refused`; they no longer wait. */
  private sendRefusal(refused: Refusal): void {
    // frames refused from now on start a group of their own
    if (this.overflow === refused) this.overflow = undefined;
    this.waiting -= refused.count;
    for (let i = 0; i < refused.count && !this.closed; i++) this.events.send(refused.refusal);
  }

  /** Runs `step` after the steps of earlier frames, so answers keep the order of the frames. */
  private inOrder(step: () => void | Promise<void>): void {
    this.checking = this.checking.then(step).catch((e: unknown) => {
      this.lose(`The player session failed: ${String(e)}`);
    });
  }

  private async loop(): Promise<void> {
    try {
      while (!this.closed) {
        const next = this.queue.shift();
        if (next && 'refusal' in next) {
          this.sendRefusal(next);
          continue;
        }
        if (next) {
          this.running = true;
          const reply = await this.conn.send(next.bytes ?? next.text, this.timeoutMs);
          this.running = false;
          this.waiting--;
          if (!this.closed) this.events.send(this.envelope(next, reply));
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

  /** The answer's frame; an `Error` frame in its place when the gateway cannot read it (the session goes on). */
  private envelope(command: CommandInfo, reply: Reply): Envelope {
    try {
      return convertReply(command, reply);
    } catch (e) {
      if (!(e instanceof UnreadableAnswerError)) throw e;
      this.log.warn('Player command failed', { error: e.message });
      return errorEnvelope(e.message);
    }
  }

  /** Ends the session: an `Error` frame with the reason, then the socket closes with it. */
  private lose(reason: string, revoked = false): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.destroy();
    this.events.send(errorEnvelope(reason));
    this.events.lost(reason, revoked);
  }
}
