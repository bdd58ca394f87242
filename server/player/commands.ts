/**
 * Checks a command sent by a client before it goes to the daemon unchanged,
 * and tells what kind of answer to expect. The gateway refuses what would
 * break its bookkeeping of the connection: line breaks and NUL outside a
 * command list, empty commands, `idle`/`noidle`, unfinished command lists.
 */

export interface CommandInfo {
  /** the text to send (the client's text without a trailing line break) */
  text: string;
  /** the command lines, one per command (a list has several; without the list keywords) */
  lines: string[];
  /** lower-case names of the commands, one per command (a list has several) */
  names: string[];
  /** the second word of each command, lower-case (`sticker get` → `get`), or '' */
  subs: string[];
  /** whether each command had arguments */
  hasArgs: boolean[];
  /** `plain` for `command_list_begin`, `ok` for `command_list_ok_begin` */
  list: 'none' | 'plain' | 'ok';
  /** false when a command changes the connection's state, so it must not be reused */
  reusable: boolean;
}

export type CommandCheck = { ok: true; command: CommandInfo } | { ok: false; message: string };

/** Commands that change the state of the connection they run on. */
const stateful = new Set(['password', 'binarylimit', 'partition', 'subscribe', 'unsubscribe', 'protocol', 'close']);
const listWords = new Set(['command_list_begin', 'command_list_ok_begin', 'command_list_end']);

const words = (line: string): { name: string; sub: string; hasArgs: boolean } => {
  const parts = line.trim().split(/[ \t]+/, 3);
  const name = (parts[0] ?? '').toLowerCase();
  const second = parts[1] ?? '';
  return { name, sub: /^[A-Za-z_]+$/.test(second) ? second.toLowerCase() : '', hasArgs: parts.length > 1 };
};

const refuseIdle = (name: string): string | undefined =>
  name === 'idle' || name === 'noidle' ? `The ${name} command cannot be used with this API.` : undefined;

export const checkCommand = (input: string): CommandCheck => {
  if (input.includes('\0')) return { ok: false, message: 'A command must not contain a NUL character.' };
  if (input.includes('\r')) return { ok: false, message: 'A command must not contain a line break.' };
  const text = input.replace(/\n+$/, '');
  if (text.trim() === '') return { ok: false, message: 'Command required.' };
  if (!text.includes('\n')) {
    const w = words(text);
    const idle = refuseIdle(w.name);
    if (idle) return { ok: false, message: idle };
    if (listWords.has(w.name)) return { ok: false, message: 'A command list must be sent whole, one command per line, ending with command_list_end.' };
    return {
      ok: true,
      command: {
        text,
        lines: [text],
        names: [w.name],
        subs: [w.sub],
        hasArgs: [w.hasArgs],
        list: 'none',
        reusable: !stateful.has(w.name) && !(w.name === 'tagtypes' && w.hasArgs),
      },
    };
  }
  const lines = text.split('\n');
  const first = lines[0]!.trim().toLowerCase();
  const last = lines[lines.length - 1]!.trim().toLowerCase();
  if ((first !== 'command_list_begin' && first !== 'command_list_ok_begin') || last !== 'command_list_end') {
    return { ok: false, message: 'A command must not contain a line break (except a command list: command_list_begin, one command per line, command_list_end).' };
  }
  const inner = lines.slice(1, -1).map(words);
  if (inner.length === 0) return { ok: false, message: 'The command list is empty.' };
  for (const w of inner) {
    if (w.name === '') return { ok: false, message: 'A command list must not contain empty lines.' };
    const idle = refuseIdle(w.name);
    if (idle) return { ok: false, message: idle };
    if (listWords.has(w.name)) return { ok: false, message: 'Command lists cannot be nested.' };
  }
  return {
    ok: true,
    command: {
      text,
      lines: lines.slice(1, -1),
      names: inner.map((w) => w.name),
      subs: inner.map((w) => w.sub),
      hasArgs: inner.map((w) => w.hasArgs),
      list: first === 'command_list_ok_begin' ? 'ok' : 'plain',
      reusable: inner.every((w) => !stateful.has(w.name) && !(w.name === 'tagtypes' && w.hasArgs)),
    },
  };
};
