/**
 * What the process that hosts the server (the command line, the desktop app's
 * main process) sets up for its memory, once, before the server starts.
 * Code that only imports the server (tests) leaves the process as it is.
 */
import { tuneMalloc, type MallocTuning } from './malloc-tuning.js';
import { enableYoungCollections } from './young-collection.js';

export interface ProcessMemory {
  /** minor collections after every few MiB of dropped buffers (`young-collection.ts`) */
  youngCollections: boolean;
  /** glibc's malloc limits (`malloc-tuning.ts`) */
  malloc: MallocTuning;
}

export const setUpProcessMemory = (): ProcessMemory => ({ youngCollections: enableYoungCollections(), malloc: tuneMalloc() });
