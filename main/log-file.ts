/**
 * The server's log file (`server.log` in the app's logs folder), bounded: past
 * `maxBytes` it is renamed to `server.log.1` (replacing the older one) and a new one
 * begins, so at most twice `maxBytes` stay on disk. Written synchronously in the order
 * the output arrives; the server logs little besides errors and starts.
 */
import { closeSync, fchmodSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export const LOG_MAX_BYTES = 5 * 1024 * 1024;

export interface LogFile {
  write(chunk: Buffer | string): void;
  close(): void;
}

export const openLogFile = (file: string, maxBytes = LOG_MAX_BYTES): LogFile => {
  mkdirSync(dirname(file), { recursive: true });
  let fd = openSync(file, 'a', 0o600);
  // a file an older version left readable to others is made private
  if (process.platform !== 'win32') fchmodSync(fd, 0o600);
  let size = fstatSync(fd).size;
  return {
    write(chunk) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (size > 0 && size + bytes.length > maxBytes) {
        closeSync(fd);
        renameSync(file, `${file}.1`);
        fd = openSync(file, 'a', 0o600);
        size = 0;
      }
      writeSync(fd, bytes);
      size += bytes.length;
    },
    close: () => closeSync(fd),
  };
};
