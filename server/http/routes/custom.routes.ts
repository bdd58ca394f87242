/**
 * `/custom/<path>`: static files from `custom-content.directory` (`/custom/`
 * and folders answer their `index.html`). 404 when disabled, missing, or
 * when the path leads outside the directory (`..`, encoded or not, or a
 * symbolic link).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import express, { type Router } from 'express';
import type { Config } from '../../config/types.js';
import { checkInside, resolveInside } from '../../player/files/safe-path.js';
import { etagOf } from '../../player/covers/placeholder.js';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
};

export const customRouter = (config: Config['customContent']): Router => {
  const r = express.Router();
  r.get('/{*rest}', async (req, res, next) => {
    if (!config.enabled || !config.directory) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    let found = await resolveInside(config.directory, relative);
    if (found?.stats.isDirectory()) found = await checkInside(config.directory, join(found.path, 'index.html'));
    if (!found?.stats.isFile()) return next();
    const etag = etagOf(`${found.path}\0${found.stats.size}\0${found.stats.mtimeMs}`);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    if (req.get('if-none-match') === etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', types[extname(found.path).toLowerCase()] ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(found.stats.size));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // the file may have been replaced since: stream what is there now, never follow a new link out
    const again = await stat(found.path).catch(() => undefined);
    if (!again?.isFile()) return next();
    const stream = createReadStream(found.path);
    stream.on('error', (e) => (res.headersSent ? res.destroy(e) : next(e)));
    stream.pipe(res);
  });
  return r;
};
