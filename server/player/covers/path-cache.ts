/**
 * The bounded cache of cover and booklet lookups, shared by covers and
 * booklets: least recently used entries are evicted when full; misses expire
 * after `missTtlMs` so a cover added later is found without a restart.
 */
export type CachedSource = { kind: 'file'; path: string } | { kind: 'none' };

interface Entry {
  source: CachedSource;
  at: number;
}

export class PathCache {
  private readonly map = new Map<string, Entry>();

  constructor(
    private readonly capacity: number,
    private readonly missTtlMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): CachedSource | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.source.kind === 'none' && this.now() - e.at > this.missTtlMs) {
      this.map.delete(key);
      return undefined;
    }
    // refresh its place in the eviction order
    this.map.delete(key);
    this.map.set(key, e);
    return e.source;
  }

  set(key: string, source: CachedSource): void {
    if (this.capacity <= 0) return;
    this.map.delete(key);
    this.map.set(key, { source, at: this.now() });
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
    }
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
