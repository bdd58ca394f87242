/**
 * What the process that hosts the server (its command line, the desktop
 * app's server process) sets up for its memory from inside, once, before the
 * server starts. What only acts at start-up (Node flags, glibc's limits) is
 * in `flags.ts`, for whoever starts the process. Code that only imports the
 * server (tests) leaves the process as it is.
 */
import { enableYoungCollections } from './young-collection.js';

export interface ProcessMemory {
  /** minor collections after every few MiB of dropped buffers (`young-collection.ts`) */
  youngCollections: boolean;
}

export const setUpProcessMemory = (): ProcessMemory => ({ youngCollections: enableYoungCollections() });
