import { describe, expect, it } from 'vitest';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../../../server/process/flags.js';

describe("the server process's Node flags and memory environment", () => {
  it('give the server a young generation of 1 MiB per semi-space and an old generation that grows to twice what it holds', () => {
    expect(SERVER_NODE_FLAGS).toEqual(['--max-semi-space-size=1', '--heap-growing-percent=100']);
  });

  it("limit glibc's malloc to two arenas and give memory above 4 MiB back, as names glibc reads at start-up", () => {
    expect(SERVER_MEMORY_ENV).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '4194304', MALLOC_TRIM_THRESHOLD_: '4194304' });
  });

  it('are frozen, so that no importer changes what the others start with', () => {
    expect(Object.isFrozen(SERVER_NODE_FLAGS)).toBe(true);
    expect(Object.isFrozen(SERVER_MEMORY_ENV)).toBe(true);
  });
});
