/**
 * The image for an album without a cover: drawn locally from the album name
 * (a symmetric 5×5 pattern in a colour derived from the name's hash, so every
 * album gets its own and the same one every time), or fetched from
 * `player.placeholder-url` when that is set (falling back to the local one).
 */
import { createHash } from 'node:crypto';
import Mustache from 'mustache';
import type { Logger } from '../../common/log.js';
import { loadSharp } from './sharp.js';

export interface Picture {
  data: Buffer;
  contentType: string;
  etag: string;
}

const DEFAULT_SIZE = 256;
const MAX_FETCH = 5 * 1024 * 1024;

const svgFor = (name: string, size: number): string => {
  const h = createHash('sha256').update(name, 'utf8').digest();
  const hue = ((h[0]! << 8) | h[1]!) % 360;
  const fg = `hsl(${hue},55%,50%)`;
  const bg = `hsl(${(hue + 180) % 360},30%,92%)`;
  const cell = size / 6;
  const rects: string[] = [];
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      if ((h[2 + y * 3 + x]! & 1) === 0) continue;
      for (const cx of new Set([x, 4 - x])) {
        rects.push(`<rect x="${(cell / 2 + cx * cell).toFixed(2)}" y="${(cell / 2 + y * cell).toFixed(2)}" width="${cell.toFixed(2)}" height="${cell.toFixed(2)}"/>`);
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="${bg}"/><g fill="${fg}">${rects.join('')}</g></svg>`;
};

export class Placeholders {
  private readonly cache = new Map<string, Picture>();

  constructor(
    private readonly urlTemplate: string,
    private readonly log: Logger,
    private readonly fetchTimeoutMs = 5000,
  ) {}

  /** The placeholder for an album name, `size`×`size` (default 256) when drawn locally. */
  async forName(name: string, size?: number): Promise<Picture> {
    const px = Math.min(Math.max(size ?? DEFAULT_SIZE, 16), 2048);
    const key = `${px}\0${name}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const fetched = this.urlTemplate ? await this.fetch(name) : undefined;
    const pic = fetched ?? (await this.draw(name, px));
    // a drawn stand-in for a failed fetch is not kept: the service may be back next time
    if (fetched || !this.urlTemplate) {
      if (this.cache.size >= 500) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, pic);
    }
    return pic;
  }

  private async draw(name: string, size: number): Promise<Picture> {
    const sharp = await loadSharp();
    const data = await sharp(Buffer.from(svgFor(name, size))).png().toBuffer();
    return { data, contentType: 'image/png', etag: etagOf(data) };
  }

  private async fetch(name: string): Promise<Picture | undefined> {
    // The name goes into the URL percent-encoded (mustache's escaping replaced by URL encoding).
    const url = Mustache.render(this.urlTemplate, { name }, {}, { escape: encodeURIComponent });
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(this.fetchTimeoutMs), redirect: 'follow' });
      const type = res.headers.get('content-type') ?? '';
      if (!res.ok || !type.startsWith('image/')) throw new Error(`status ${res.status}, type ${type || 'none'}`);
      const data = Buffer.from(await res.arrayBuffer());
      if (data.length > MAX_FETCH) throw new Error('the image is too large');
      return { data, contentType: type.split(';')[0]!.trim(), etag: etagOf(data) };
    } catch (e) {
      this.log.warn('Could not fetch the placeholder image; drawing one', { url, error: String(e) });
      return undefined;
    }
  }
}

export const etagOf = (data: Buffer | string): string => `"${createHash('sha256').update(data).digest('hex').slice(0, 40)}"`;
