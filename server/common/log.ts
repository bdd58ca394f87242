/**
 * The logging interface the server code uses. Names are dotted and
 * hierarchical (`pier.http`, `pier.auth`); `logging.levels` sets a level per
 * name prefix. The implementation (pino) is wired in `server/logging/`.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** a logger named `<this name>.<name>` with its own level from `logging.levels` */
  child(name: string): Logger;
}

/** A logger that drops everything (for code paths that run before logging exists). */
export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
