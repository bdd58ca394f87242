/**
 * Turns a daemon reply into the gateway's answer envelope: the typed answer
 * of a known command, `GenericAnswer` otherwise, `Ack` for an ACK.
 */
import type { CommandInfo } from '../commands.js';
import type { Ack, Reply, ReplyLine } from '../protocol/reply.js';
import { toGeneric } from './generic.js';
import { isEmptyCommand, typedAnswer, type Typed } from './typed.js';

export { UnreadableAnswerError } from './typed.js';

export type Envelope =
  | { success: true; type: string; result: unknown }
  | { success: false; type: 'Ack'; ack: Ack; result?: { answers: Typed[] } }
  | { success: false; type: 'Error'; error: { message: string } };

export const errorEnvelope = (message: string): Envelope => ({ success: false, type: 'Error', error: { message } });

const answer = (name: string, sub: string, hasArgs: boolean, lines: ReplyLine[]): Typed =>
  typedAnswer(name, sub, hasArgs, lines) ?? { type: 'GenericAnswer', result: toGeneric(lines) };

/** The answers of the first `count` commands of a `command_list_ok_begin` list: its reply cut at each `list_OK`. */
const listAnswers = (c: CommandInfo, lines: ReplyLine[], count: number): Typed[] => {
  const parts: ReplyLine[][] = [[]];
  for (const l of lines) {
    if (l.key === 'list_OK' && l.value === '') parts.push([]);
    else parts[parts.length - 1]!.push(l);
  }
  return c.names.slice(0, count).map((name, i) => answer(name, c.subs[i]!, c.hasArgs[i]!, parts[i] ?? []));
};

const envelope = (t: Typed): Envelope => ({ success: true, type: t.type, result: t.result });

/**
 * The answer to a command. For `command_list_ok_begin` the reply is cut at
 * each `list_OK` and every command gets its own answer (`CommandListAnswer`).
 * A plain `command_list_begin` reply cannot be cut, so it is decoded as the
 * last command's answer when all others answer nothing, else as a `GenericAnswer`.
 * Throws `UnreadableAnswerError` for a reply the gateway cannot read.
 */
export const convertReply = (c: CommandInfo, reply: Reply): Envelope => {
  if (!reply.ok) {
    // In a `command_list_ok_begin` list the commands before the failing one ran: their answers go along.
    if (c.list === 'ok') return { success: false, type: 'Ack', ack: reply.ack, result: { answers: listAnswers(c, reply.lines, reply.ack.position) } };
    return { success: false, type: 'Ack', ack: reply.ack };
  }
  const last = c.names.length - 1;
  if (c.list === 'none') return envelope(answer(c.names[0]!, c.subs[0]!, c.hasArgs[0]!, reply.lines));
  if (c.list === 'ok') return { success: true, type: 'CommandListAnswer', result: { answers: listAnswers(c, reply.lines, c.names.length) } };
  if (c.names.slice(0, last).every(isEmptyCommand)) return envelope(answer(c.names[last]!, c.subs[last]!, c.hasArgs[last]!, reply.lines));
  return envelope({ type: 'GenericAnswer', result: toGeneric(reply.lines) });
};

/** The `IdleAnswer` of an idle reply: the changed subsystems, in order. */
export const idleChanges = (reply: Reply): string[] =>
  reply.ok ? reply.lines.filter((l) => l.key.toLowerCase() === 'changed').map((l) => l.value) : [];
