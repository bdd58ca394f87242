/**
 * Minor (young-generation) collections after every few MiB of buffers
 * allocated outside V8's heap and dropped soon after: the rows a database
 * driver returns, the chunks of a request body. V8 frees such a buffer only
 * when it collects the small object that holds it, and the young generation
 * fills with objects slowly when each one holds 1 MiB: tens of MB of dead
 * buffers piled up between collections. A minor collection costs a fraction
 * of a millisecond with a small young generation.
 *
 * Off until the process hosting the server turns it on
 * (`enableYoungCollections`): the command line and the desktop app do; code
 * that imports the server (tests) leaves V8 to collect as it would.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type MinorGc = (options: { type: 'minor' }) => void;

/** Bytes passed on between two collections. */
const YOUNG_COLLECTION_BYTES = 4 * 1024 * 1024;

let collect: (() => void) | undefined;
let since = 0;

/**
 * Turns young collections on for the whole process; false when V8 offers no
 * way to start one. Uses the `gc` of `--expose-gc` when the process has it;
 * otherwise the flag is switched on only while one new context is made, and
 * that context's `gc` is kept here: no `gc` global appears in the server's
 * own context, and a packaged desktop app (which takes no Node flags) gets
 * collections too.
 */
export const enableYoungCollections = (): boolean => {
  if (collect) return true;
  let gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as unknown;
    } catch {
      gc = undefined;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  if (typeof gc !== 'function') return false;
  const minor = gc as MinorGc;
  collect = () => minor({ type: 'minor' });
  return true;
};

/** Counts `bytes` of such buffers, from every stream of the process together, and collects after each `YOUNG_COLLECTION_BYTES`. */
export const droppedExternalBytes = (bytes: number): void => {
  if (!collect) return;
  since += bytes;
  if (since < YOUNG_COLLECTION_BYTES) return;
  since = 0;
  collect();
};
