import { Writable } from 'node:stream';
import logfmt from 'logfmt';
import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';
import type { LogFields, Logger } from '../common/log.js';
import type { LogFormat, LogLevel } from '../config/types.js';

export interface LoggingSettings {
  format: LogFormat;
  minimumLevel: LogLevel;
  levels: Record<string, LogLevel>;
}

const pinoLevel: Record<LogLevel, pino.Level> = {
  Trace: 'trace',
  Debug: 'debug',
  Info: 'info',
  Warn: 'warn',
  Error: 'error',
};

/**
 * The level of a logger: the entry of `levels` with the longest name that is
 * the logger's name or a dotted prefix of it, else `minimumLevel`.
 */
export const levelFor = (name: string, settings: Pick<LoggingSettings, 'minimumLevel' | 'levels'>): LogLevel => {
  let best: { len: number; level: LogLevel } | undefined;
  for (const [prefix, level] of Object.entries(settings.levels)) {
    if ((name === prefix || name.startsWith(`${prefix}.`)) && (!best || prefix.length > best.len)) {
      best = { len: prefix.length, level };
    }
  }
  return best?.level ?? settings.minimumLevel;
};

/** Turns pino's JSON lines into logfmt lines (nested values as JSON text). */
const logfmtStream = (out: NodeJS.WritableStream): Writable =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        const rec = JSON.parse(line) as Record<string, unknown>;
        const flat: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(rec)) {
          flat[k] = k === 'time' ? new Date(v as number).toISOString() : typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
        }
        out.write(`${logfmt.stringify(flat)}\n`);
      }
      done();
    },
  });

const destinationFor = (format: LogFormat, out: NodeJS.WritableStream): DestinationStream => {
  switch (format) {
    case 'Json':
      return out as DestinationStream;
    case 'Logfmt':
      return logfmtStream(out) as unknown as DestinationStream;
    case 'Fancy':
    case 'Plain':
      return pretty({
        colorize: format === 'Fancy',
        sync: true,
        destination: out,
        messageKey: 'msg',
        translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
        ignore: 'pid,hostname,logger',
        messageFormat: '{logger}: {msg}',
      });
  }
};

const wrap = (base: Pino, name: string, settings: LoggingSettings): Logger => {
  // Children are made from the base instance so the `logger` binding is never repeated.
  const p = base.child({ logger: name }, { level: pinoLevel[levelFor(name, settings)] });
  const call =
    (level: pino.Level) =>
    (msg: string, fields?: LogFields): void => {
      if (fields) p[level](fields, msg);
      else p[level](msg);
    };
  return {
    trace: call('trace'),
    debug: call('debug'),
    info: call('info'),
    warn: call('warn'),
    error: call('error'),
    child: (sub: string) => {
      return wrap(base, `${name}.${sub}`, settings);
    },
  };
};

/**
 * The root logger `pier` writing to `out` (stdout by default) in the
 * configured format. Every child gets its level from `levels`.
 */
export const createLogger = (settings: LoggingSettings, out: NodeJS.WritableStream = process.stdout): Logger => {
  const root = pino(
    {
      level: 'trace',
      base: null,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
    },
    destinationFor(settings.format, out),
  );
  return wrap(root, 'pier', settings);
};
