/**
 * Where `cli-main.ts` and `main/server-host.ts` import the process set-up
 * from; it lives in `server/process/memory.ts`. `malloc` is never set: glibc's
 * limits come from the environment the process starts with
 * (`server/process/flags.ts`).
 */
import { setUpProcessMemory as setUp, type ProcessMemory as Memory } from '../process/memory.js';

export type ProcessMemory = Memory & { malloc?: string };

export const setUpProcessMemory = (): ProcessMemory => setUp();
