/**
 * Sends bytes `[start, end)` of a binary to a response with positioned reads
 * into one buffer that is reused for the whole answer: the buffer is read
 * into again only once the socket has taken its bytes. Nothing is allocated
 * per read, so a download costs neither page faults nor garbage collection,
 * and memory per download stays at one buffer however many run at once.
 * Reading from the page cache is fast next to sending, so a second buffer
 * to read ahead gains nothing.
 */
import type { ServerResponse } from 'node:http';
import { endOut, writeOut } from '../common/write-out.js';
import type { BinaryReader } from '../core/stores/binary-store.js';

/** The size of one read. */
export const PUMP_BYTES = 1024 * 1024;

/**
 * Sends `[start, end)` from `reader` and ends `res`; always closes the
 * reader. Rejects when a read fails, the binary ends early or the client
 * went away.
 */
export const pump = async (res: ServerResponse, reader: BinaryReader, start: number, end: number): Promise<void> => {
  const buffer = Buffer.allocUnsafeSlow(Math.min(PUMP_BYTES, end - start));
  try {
    for (let position = start; position < end; ) {
      const n = await reader.read(buffer.subarray(0, Math.min(buffer.length, end - position)), position);
      if (n === 0) throw new Error(`The binary ended at byte ${position} of ${end}.`);
      position += n;
      await writeOut(res, buffer.subarray(0, n));
    }
    await endOut(res);
  } finally {
    await reader.close();
  }
};
