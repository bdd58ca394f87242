/**
 * What the music player daemon (MPD) says back, framed line by line: zero or
 * more `key: value` lines (with binary chunks after `binary: N`), ended by a
 * line equal to `OK` or by one line starting with `ACK `. Nothing else ends a
 * reply, so a tag value that happens to end in "OK" cannot cut it short.
 */
import { isUtf8 } from 'node:buffer';
import { isSafeArgument, UnsafeCommandError, unsafeArgumentMessage, type Framing } from './command-line.js';

/**
 * One line of a reply. `data` holds the raw bytes that followed a `binary: N`
 * line; `raw` the value's bytes when they are not valid UTF-8 (a file name in
 * another encoding: `value` then shows U+FFFD where `raw` has the original).
 */
export interface ReplyLine {
  key: string;
  value: string;
  data?: Buffer;
  raw?: Buffer;
}

/** The JSON form of an ACK line `ACK [code@position] {command} message`. */
export interface Ack {
  code: { value: number; name: string };
  position: number;
  command: string;
  message: string;
}

export type Reply = { ok: true; lines: ReplyLine[] } | { ok: false; lines: ReplyLine[]; ack: Ack };

const ackNames: Record<number, string> = {
  1: 'not_list',
  2: 'invalid_argument',
  3: 'invalid_password',
  4: 'auth',
  5: 'unknown_command',
  50: 'file_not_found',
  51: 'playlist_max',
  52: 'system',
  53: 'playlist_load',
  54: 'busy',
  55: 'not_playing',
  56: 'file_exists',
};

const ackPattern = /^ACK \[(\d+)@(\d+)\] \{([^}]*)\}\s?(.*)$/;

/** Parses an `ACK ...` line; a line that does not follow the pattern keeps its text as the message. */
export const parseAck = (line: string): Ack => {
  const m = ackPattern.exec(line);
  if (!m) return { code: { value: 0, name: 'unknown_ack' }, position: 0, command: '', message: line.slice(4).trim() };
  const value = Number(m[1]);
  return {
    code: { value, name: ackNames[value] ?? 'unknown_ack' },
    position: Number(m[2]),
    command: m[3] ?? '',
    message: (m[4] ?? '').trim(),
  };
};

/**
 * Splits a line at its first `:`; one space after it is part of the
 * separator. Keys never contain a colon, values may (`Title: a: b`) and may be
 * empty (`Date: `). A line without a colon is all key.
 */
export const splitLine = (line: string): ReplyLine => {
  const i = line.indexOf(':');
  if (i < 0) return { key: line, value: '' };
  return { key: line.slice(0, i), value: line.charCodeAt(i + 1) === 32 ? line.slice(i + 2) : line.slice(i + 1) };
};

/** Malformed daemon output (a binary length that is not a number, a chunk without its newline). */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/**
 * Incremental reader: feed it the bytes as they arrive; it calls `onReply`
 * once per complete reply. Binary chunks are read by length, never scanned
 * for line ends.
 */
export class ReplyReader {
  private buf: Buffer = Buffer.alloc(0);
  private lines: ReplyLine[] = [];
  /** bytes still to read for the current `binary: N` line (plus its newline) */
  private pendingBinary: ReplyLine | undefined;
  private pendingLength = 0;
  /** the framing of each reply still to come, in order */
  private readonly framings: Framing[] = [];
  /** the command of the current reply that is answering (advances at each `list_OK`) */
  private segment = 0;

  /**
   * With `onGreeting`, the first line must be the daemon's greeting
   * `OK MPD <protocol version>`; it is handed over instead of being a reply.
   */
  constructor(
    private readonly onReply: (reply: Reply) => void,
    private onGreeting?: (version: string) => void,
  ) {}

  /** Announces the next reply's framing; call once per command written, in order. */
  expect(framing: Framing): void {
    this.framings.push(framing);
  }

  /** Bytes received that are not yet part of a complete reply. */
  get buffered(): number {
    return this.buf.length;
  }

  /** Throws `ProtocolError` on garbage; the connection is then unusable. */
  push(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    let pos = 0;
    const buf = this.buf;
    for (;;) {
      if (this.pendingBinary) {
        if (buf.length - pos < this.pendingLength + 1) break;
        this.pendingBinary.data = buf.subarray(pos, pos + this.pendingLength);
        if (buf[pos + this.pendingLength] !== 10) throw new ProtocolError('binary chunk not followed by a newline');
        pos += this.pendingLength + 1;
        this.pendingBinary = undefined;
        continue;
      }
      const nl = buf.indexOf(10, pos);
      if (nl < 0) break;
      const lineStart = pos;
      const line = buf.toString('utf8', pos, nl);
      pos = nl + 1;
      if (this.onGreeting) {
        if (!line.startsWith('OK MPD ')) throw new ProtocolError(`unexpected greeting ${JSON.stringify(line.slice(0, 80))}`);
        const greet = this.onGreeting;
        this.onGreeting = undefined;
        greet(line.slice(7).trim());
      } else if (line === 'OK') {
        const lines = this.endReply();
        this.onReply({ ok: true, lines });
      } else if (line.startsWith('ACK ')) {
        const lines = this.endReply();
        this.onReply({ ok: false, lines, ack: parseAck(line) });
      } else {
        const l = splitLine(line);
        if (line.includes('\uFFFD') && !isUtf8(buf.subarray(lineStart, nl))) l.raw = rawValue(buf.subarray(lineStart, nl));
        if (l.key === 'list_OK') this.segment++;
        const previous = this.lines[this.lines.length - 1];
        this.lines.push(l);
        if (l.key === 'binary' && this.binaryFollows(previous)) {
          const n = Number(l.value);
          if (!Number.isSafeInteger(n) || n < 0) throw new ProtocolError(`invalid binary length ${JSON.stringify(l.value)}`);
          this.pendingBinary = l;
          this.pendingLength = n;
        }
      }
    }
    // Keep only the unread tail; copy it so the big chunk can be freed.
    this.buf = pos >= buf.length ? Buffer.alloc(0) : pos === 0 ? buf : Buffer.from(buf.subarray(pos));
  }

  private endReply(): ReplyLine[] {
    const lines = this.lines;
    this.lines = [];
    this.framings.shift();
    this.segment = 0;
    return lines;
  }

  /**
   * Whether a `binary: N` line is followed by N bytes: only in the answer of a
   * command that sends binary data. In a plain command list the answers run
   * together, so there it must also come where those answers put it (after
   * `size` or `type`).
   */
  private binaryFollows(previous: ReplyLine | undefined): boolean {
    const f = this.framings[0];
    if (!f) return false;
    if (f.list !== 'plain') return f.binary[this.segment] === true;
    return f.binary.includes(true) && (previous?.key === 'size' || previous?.key === 'type');
  }
}

/** The value part of a line's bytes (after the first `:` and one space), copied. */
const rawValue = (bytes: Buffer): Buffer => {
  const i = bytes.indexOf(58);
  if (i < 0) return Buffer.alloc(0);
  return Buffer.from(bytes.subarray(bytes[i + 1] === 32 ? i + 2 : i + 1));
};

/**
 * Quotes one argument for a command line: always double-quoted, with `\`
 * and `"` escaped, so any value (spaces, quotes, a leading dash) is one argument.
 * Throws `UnsafeCommandError` for a value with a line feed, CR or NUL, which
 * no quoting keeps inside the line; callers refuse such input first.
 */
export const quoteArg = (value: string): string => {
  if (!isSafeArgument(value)) throw new UnsafeCommandError(unsafeArgumentMessage('A daemon command argument'));
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
};
