/**
 * Checks a command sent by a client before it goes to the daemon unchanged,
 * and tells what kind of answer to expect. The gateway refuses only what
 * would break its bookkeeping of the connection or make the daemon read
 * something else than the one command sent: line breaks and NUL outside a
 * command list, other control characters (the daemon reads them as spaces,
 * so `idle\fplayer` would start an `idle`), empty commands, a command word
 * the daemon answers by dropping the connection (one that does not start
 * with `a`-`z` or holds a character other than letters, digits and `_`), a
 * line longer than the daemon reads, `idle`/`noidle`, `close` inside a
 * command list, unfinished command lists. Any other word goes to the
 * daemon, which answers an unknown one with its own ACK.
 */

/** The longest command line the daemon reads (its input buffer holds 8 KiB, line feed included). */
const MAX_LINE_BYTES = 8191;

export interface CommandInfo {
  /** the text to send (the client's text without a trailing line break); for checks and answers */
  text: string;
  /** the bytes to send instead of `text` when the client sent bytes (`commandRaw`) */
  bytes?: Buffer;
  /** the command lines, one per command (a list has several; without the list keywords) */
  lines: string[];
  /** the names of the commands as sent (the daemon's names are case-sensitive), one per command (a list has several) */
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

/** The words of a line `malformed` accepted. */
const words = (line: string): { name: string; sub: string; hasArgs: boolean } => {
  const parts = line.trim().split(/[ \t]+/, 3);
  const name = parts[0] ?? '';
  const second = parts[1] ?? '';
  return { name, sub: /^[A-Za-z_]+$/.test(second) ? second.toLowerCase() : '', hasArgs: parts.length > 1 };
};

const refuseIdle = (name: string): string | undefined =>
  name === 'idle' || name === 'noidle' ? `The ${name} command cannot be used with this API.` : undefined;

/**
 * The daemon reads a command word as a letter, then letters, digits or `_`,
 * up to a space or tab; it drops the connection for a line that does not
 * start with `a`-`z` and for any other character in the word.
 */
const commandLine = /^[a-z][A-Za-z0-9_]*(?:[ \t]|$)/;

/** Whether `line` holds a control character other than tab; the daemon reads them as spaces between words. */
const hasControlCharacter = (line: string): boolean => {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x20 && c !== 0x09) return true;
  }
  return false;
};

/** Why the daemon would not read `line` as one command, or undefined. `bytes` is its length in bytes. */
const malformed = (line: string, bytes: number): string | undefined => {
  if (bytes > MAX_LINE_BYTES) return `A command line must not be longer than ${MAX_LINE_BYTES} bytes.`;
  if (line === '') return 'A command list must not contain empty lines.';
  if (hasControlCharacter(line)) return 'A command must not contain control characters other than tab (the daemon reads them as spaces between words).';
  if (!commandLine.test(line)) {
    return 'A command must start with its name (a lower-case letter a-z, then letters, digits or _), followed by a space or tab before any argument.';
  }
  return undefined;
};

/**
 * A client's command: text (`command`), or its bytes (`commandRaw`, for
 * names that are not valid UTF-8). Bytes are read one character per byte
 * for the checks, so every byte that matters to them is seen as it is.
 */
export const checkCommand = (input: string | Buffer): CommandCheck => {
  const raw = typeof input === 'string' ? undefined : input;
  const checked = checkText(raw ? raw.toString('latin1') : input as string, raw !== undefined);
  if (!checked.ok || !raw) return checked;
  const end = checked.command.text.length;
  return { ok: true, command: { ...checked.command, bytes: end === raw.length ? raw : raw.subarray(0, end) } };
};

const checkText = (input: string, oneBytePerChar: boolean): CommandCheck => {
  if (input.includes('\0')) return { ok: false, message: 'A command must not contain a NUL character.' };
  if (input.includes('\r')) return { ok: false, message: 'A command must not contain a line break.' };
  const text = input.replace(/\n+$/, '');
  if (text.trim() === '') return { ok: false, message: 'Command required.' };
  const byteLength = (line: string) => (oneBytePerChar ? line.length : Buffer.byteLength(line));
  for (const line of text.split('\n')) {
    const bad = malformed(line, byteLength(line));
    if (bad) return { ok: false, message: bad };
  }
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
  const first = lines[0]!.trim();
  const last = lines[lines.length - 1]!.trim();
  if ((first !== 'command_list_begin' && first !== 'command_list_ok_begin') || last !== 'command_list_end') {
    return { ok: false, message: 'A command must not contain a line break (except a command list: command_list_begin, one command per line, command_list_end).' };
  }
  const inner = lines.slice(1, -1).map(words);
  if (inner.length === 0) return { ok: false, message: 'The command list is empty.' };
  for (const w of inner) {
    const idle = refuseIdle(w.name);
    if (idle) return { ok: false, message: idle };
    // the daemon would end the connection in the middle of the list
    if (w.name === 'close') return { ok: false, message: 'The close command cannot be used inside a command list.' };
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

/**
 * The command of a request body or WebSocket frame: `{"command": text}`, or
 * `{"commandRaw": base64}` for a command whose bytes are not valid UTF-8
 * (a name given back as `fileRaw`). Undefined when the value is neither.
 */
export const playerCommandOf = (body: unknown): string | Buffer | undefined => {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { command?: unknown; commandRaw?: unknown };
  if (typeof b.command === 'string' && b.commandRaw === undefined) return b.command;
  if (typeof b.commandRaw === 'string' && b.command === undefined && /^[A-Za-z0-9+/]*={0,2}$/.test(b.commandRaw)) return Buffer.from(b.commandRaw, 'base64');
  return undefined;
};
