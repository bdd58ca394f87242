/**
 * `size=N` thumbnails: a cover larger than N (either side) is centre-cropped
 * and resized to exactly N×N, written once under the thumbnail directory
 * (temp file + rename, so a reader never sees half a file) and reused; the
 * key is the source path, its modification time and N. At most
 * `maxParallel` resizes run at once; the same thumbnail is made only once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Logger } from '../../common/log.js';

export interface Source {
  path: string;
  mtimeMs: number;
}

class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}
  async use<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

export class Thumbnailer {
  private readonly limit: Semaphore;
  private readonly inFlight = new Map<string, Promise<string | undefined>>();
  /** keys of sources already known to be small enough (bounded) */
  private readonly small = new Set<string>();

  constructor(
    private readonly dir: string,
    maxParallel: number,
    private readonly log: Logger,
  ) {
    this.limit = new Semaphore(Math.max(1, maxParallel));
  }

  /** The thumbnail file, or undefined when the original should be served (small enough, or resizing failed). */
  async get(source: Source, size: number): Promise<string | undefined> {
    const key = createHash('sha256').update(`${source.path}\0${source.mtimeMs}\0${size}`).digest('hex');
    if (this.small.has(key)) return undefined;
    const file = join(this.dir, `${key}-${size}.jpg`);
    try {
      await stat(file);
      return file;
    } catch {
      // not made yet
    }
    let p = this.inFlight.get(key);
    if (!p) {
      p = this.limit.use(() => this.make(source, size, key, file)).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, p);
    }
    return p;
  }

  private async make(source: Source, size: number, key: string, file: string): Promise<string | undefined> {
    const tmp = join(this.dir, `.tmp-${randomBytes(8).toString('hex')}.jpg`);
    try {
      const meta = await sharp(source.path).metadata();
      const w = meta.autoOrient?.width ?? meta.width ?? 0;
      const h = meta.autoOrient?.height ?? meta.height ?? 0;
      if (w <= size && h <= size) {
        if (this.small.size > 10_000) this.small.clear();
        this.small.add(key);
        return undefined;
      }
      await mkdir(this.dir, { recursive: true });
      await sharp(source.path)
        .rotate()
        .resize(size, size, { fit: 'cover', position: 'centre' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 85 })
        .toFile(tmp);
      await rename(tmp, file);
      return file;
    } catch (e) {
      this.log.warn('Could not make a thumbnail; serving the original', { source: source.path, size, error: String(e) });
      await rm(tmp, { force: true });
      return undefined;
    }
  }
}
