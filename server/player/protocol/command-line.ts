/**
 * What may be written to a daemon. The protocol is line based: a line feed
 * ends a command, so a line feed inside an argument starts a new command of
 * the sender's choosing (`kill`, `add http://...`). CR and NUL have no place
 * in a command either. The only multi-line form is a command list.
 */
import { AppError } from '../../common/errors.js';

/** A command that would not be read by the daemon as the one command (or command list) meant. */
export class UnsafeCommandError extends AppError {
  constructor(message: string) {
    super('bad-request', message, { field: 'command' });
    this.name = 'UnsafeCommandError';
  }
}

const forbidden = /[\n\r\0]/;
const listBegin = new Set(['command_list_begin', 'command_list_ok_begin']);
const listWords = new Set([...listBegin, 'command_list_end']);

/** True when `value` can be (part of) one argument: no line feed, CR or NUL. */
export const isSafeArgument = (value: string): boolean => !forbidden.test(value);

/** The message for a refused argument, naming the parameter. */
export const unsafeArgumentMessage = (what: string): string => `${what} must not contain a line break, carriage return or NUL character.`;

const firstWord = (line: string): string => (line.trim().split(/[ \t]/, 1)[0] ?? '').toLowerCase();

/**
 * The text of `input` (bytes read one character each, so every line feed,
 * CR and NUL stays visible) when it is one command line, or a command list:
 * `command_list_begin` or `command_list_ok_begin`, one non-empty command per
 * line, `command_list_end` (without the final line feed). No line may hold a
 * CR or NUL. Throws `UnsafeCommandError` otherwise.
 */
export const assertCommandLine = (input: string | Buffer): string => {
  const command = typeof input === 'string' ? input : input.toString('latin1');
  if (command.includes('\r') || command.includes('\0')) throw new UnsafeCommandError('A daemon command must not contain a carriage return or NUL character.');
  if (!command.includes('\n')) {
    if (command.trim() === '') throw new UnsafeCommandError('A daemon command must not be empty.');
    return command;
  }
  const lines = command.split('\n');
  if (!listBegin.has(firstWord(lines[0]!)) || firstWord(lines[lines.length - 1]!) !== 'command_list_end' || lines.length < 3) {
    throw new UnsafeCommandError('A daemon command must not contain a line break (only a command list spans several lines).');
  }
  for (const line of lines.slice(1, -1)) {
    const word = firstWord(line);
    if (word === '') throw new UnsafeCommandError('A command list must not contain an empty line.');
    if (listWords.has(word)) throw new UnsafeCommandError('A command list must not contain another list keyword.');
  }
  return command;
};

/** Commands whose answer carries a binary chunk after its `binary: N` line. */
const binaryCommands = new Set(['albumart', 'readpicture']);

/**
 * Where a reply may hold binary chunks: per command of the reply (one for a
 * single command, one per command of a command list), whether that command
 * sends one. For any other command a `binary` line is an ordinary value
 * (a comment key named `binary`).
 */
export interface Framing {
  binary: boolean[];
  /** `ok`: the answers are separated by `list_OK`; `plain`: a list whose answers cannot be told apart */
  list: 'none' | 'plain' | 'ok';
}

/** The framing of a command, given as the text `assertCommandLine` returned. */
export const framingOf = (command: string): Framing => {
  if (!command.includes('\n')) return { binary: [binaryCommands.has(firstWord(command))], list: 'none' };
  const lines = command.split('\n');
  return {
    binary: lines.slice(1, -1).map((l) => binaryCommands.has(firstWord(l))),
    list: firstWord(lines[0]!) === 'command_list_ok_begin' ? 'ok' : 'plain',
  };
};
