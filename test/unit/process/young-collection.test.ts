import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { droppedExternalBytes, enableYoungCollections } from '../../../server/process/young-collection.js';
import { minorCollectionsDuring } from '../../support/minor-collections.js';

const MiB = 1024 * 1024;
const dropped = (times: number, bytes: number) => () => {
  for (let i = 0; i < times; i++) droppedExternalBytes(bytes);
};

describe('young collections', () => {
  it('are off until the hosting process turns them on, then run once per 4 MiB of dropped buffers, counted across calls', async () => {
    expect((globalThis as { gc?: unknown }).gc, 'this test needs a process without --expose-gc').toBeUndefined();
    expect(await minorCollectionsDuring(dropped(10, 4 * MiB))).toBeLessThanOrEqual(2);

    expect(enableYoungCollections()).toBe(true);
    expect(await minorCollectionsDuring(dropped(10, 4 * MiB))).toBeGreaterThanOrEqual(10);
    const quarter = await minorCollectionsDuring(dropped(40, MiB));
    expect(quarter).toBeGreaterThanOrEqual(10);
    expect(quarter).toBeLessThanOrEqual(12);
  });

  it('come without a gc global and leave --expose-gc off for contexts made afterwards', () => {
    expect(enableYoungCollections()).toBe(true);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(() => runInNewContext('gc')).toThrow(/gc is not defined/);
  });
});
