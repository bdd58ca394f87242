/**
 * `size=N` thumbnails: a cover larger than N (either side) is centre-cropped
 * and resized to N×N, never enlarged: when its shorter side is below N, it
 * is cropped to a square of that side. What is kept on disk is bounded: only the
 * configured bucket sizes (`player.thumbnails.sizes`) are written, once per
 * source (temp file + rename, so a reader never sees half a file), keyed by
 * the source path and its modification time; a bucket file is never larger
 * than the source's shorter side. N is served from the smallest kept size of
 * at least N (or of at least the shorter side, when that is below N), scaled
 * down when that file is larger than N; above the largest kept size it is
 * made from the original and not kept. At most `maxParallel` resizes run at
 * once; the same bucket file is made only once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../common/log.js';
import { loadSharp } from './sharp.js';

export interface Source {
  path: string;
  mtimeMs: number;
}

/** A kept bucket file, or a thumbnail made for this answer only. */
export type Thumbnail = { kind: 'file'; path: string } | { kind: 'bytes'; data: Buffer };

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

const MAX_KNOWN = 10_000;

/** The square crop of `input`, `size`×`size`, as JPEG (transparent parts on white). */
const square = async (input: string, size: number) =>
  (await loadSharp())(input).rotate().resize(size, size, { fit: 'cover', position: 'centre' }).flatten({ background: '#ffffff' }).jpeg({ quality: 85 });

export class Thumbnailer {
  private readonly limit: Semaphore;
  private readonly buckets: number[];
  private readonly inFlight = new Map<string, Promise<string | undefined>>();
  /** width and height of sources already read (bounded) */
  private readonly dimensions = new Map<string, { w: number; h: number }>();

  constructor(
    private readonly dir: string,
    maxParallel: number,
    /** the sizes kept on disk */
    sizes: readonly number[],
    private readonly log: Logger,
  ) {
    this.limit = new Semaphore(Math.max(1, maxParallel));
    this.buckets = [...new Set(sizes)].filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b);
  }

  /**
   * The `size`×`size` thumbnail of `source`, or undefined when the original
   * should be served (it fits in `size`×`size`, or resizing failed).
   */
  async get(source: Source, size: number): Promise<Thumbnail | undefined> {
    const key = createHash('sha256').update(`${source.path}\0${source.mtimeMs}`).digest('hex');
    try {
      const dim = await this.dimensionsOf(source, key);
      if (dim.w <= size && dim.h <= size) return undefined;
      const short = Math.min(dim.w, dim.h);
      const bucket = this.buckets.find((b) => b >= Math.min(size, short));
      if (bucket === undefined) return { kind: 'bytes', data: await this.limit.use(async () => (await square(source.path, Math.min(size, short))).toBuffer()) };
      const file = await this.bucketFile(source, key, bucket, Math.min(bucket, short));
      if (file === undefined) return undefined;
      if (bucket === size || short <= size) return { kind: 'file', path: file };
      return { kind: 'bytes', data: await this.limit.use(async () => (await square(file, size)).toBuffer()) };
    } catch (e) {
      this.log.warn('Could not make a thumbnail; serving the original', { source: source.path, size, error: String(e) });
      return undefined;
    }
  }

  private async dimensionsOf(source: Source, key: string): Promise<{ w: number; h: number }> {
    const known = this.dimensions.get(key);
    if (known) return known;
    const meta = await (await loadSharp())(source.path).metadata();
    const dim = { w: meta.autoOrient?.width ?? meta.width ?? 0, h: meta.autoOrient?.height ?? meta.height ?? 0 };
    if (this.dimensions.size >= MAX_KNOWN) this.dimensions.clear();
    this.dimensions.set(key, dim);
    return dim;
  }

  /**
   * The kept file of one bucket size, `side`×`side` (the bucket size, or the
   * source's shorter side when that is smaller), made when missing; undefined
   * when it cannot be made. The name's version tells files that may be
   * enlarged (made by earlier versions) from these.
   */
  private async bucketFile(source: Source, key: string, bucket: number, side: number): Promise<string | undefined> {
    const id = `${key}-${bucket}`;
    const file = join(this.dir, `${id}-v2.jpg`);
    if (await stat(file).then(() => true, () => false)) return file;
    let p = this.inFlight.get(id);
    if (!p) {
      p = this.limit.use(() => this.make(source, side, file)).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, p);
    }
    return p;
  }

  private async make(source: Source, size: number, file: string): Promise<string | undefined> {
    const tmp = join(this.dir, `.tmp-${randomBytes(8).toString('hex')}.jpg`);
    try {
      await mkdir(this.dir, { recursive: true });
      await (await square(source.path, size)).toFile(tmp);
      await rename(tmp, file);
      return file;
    } catch (e) {
      this.log.warn('Could not make a thumbnail; serving the original', { source: source.path, size, error: String(e) });
      await rm(tmp, { force: true });
      return undefined;
    }
  }
}
