/**
 * `/custom/<path>`: static files from `custom-content.directory` (`/custom/`
 * and folders answer their `index.html`). 404 when disabled, missing, or
 * when the path leads outside the directory (`..`, encoded or not, or a
 * symbolic link), and for dot-files and anything in a dot-folder (`.env`,
 * `.git/`, `.htpasswd`: what a folder holds but never publishes). Files are
 * sent by `send-file.ts`, never cached without asking again (`no-cache`).
 * The operator's pages may frame one another, no other site may frame them
 * (`frame-ancestors 'self'`); what they load and run is the operator's choice.
 */
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import express, { type Router } from 'express';
import type { Logger } from '../../common/log.js';
import type { Config } from '../../config/types.js';
import { checkInside, resolveInside } from '../../player/files/safe-path.js';
import { etagOf } from '../../player/covers/placeholder.js';
import { sendFile } from '../send-file.js';

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

export const customRouter = (config: Config['customContent'], log: Logger): Router => {
  const r = express.Router();
  r.get('/{*rest}', async (req, res, next) => {
    if (!config.enabled || !config.directory) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (relative.split(/[/\\]/).some((segment) => segment.startsWith('.'))) return next();
    res.setHeader('Content-Security-Policy', "frame-ancestors 'self'");
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    let found = await resolveInside(config.directory, relative);
    if (found?.stats.isDirectory()) found = await checkInside(config.directory, join(found.path, 'index.html'));
    if (!found?.stats.isFile()) return next();
    const path = found.path;
    // the file may have been replaced since it was resolved: never follow a new link out
    if (!(await lstat(path).catch(() => undefined))?.isFile()) return next();
    await sendFile(
      req,
      res,
      {
        size: found.stats.size,
        type: types[extname(path).toLowerCase()] ?? 'application/octet-stream',
        etag: etagOf(`${path}\0${found.stats.size}\0${found.stats.mtimeMs}`),
        cacheControl: 'no-cache',
        open: (start, end) => createReadStream(path, { start, end: end - 1 }),
      },
      log,
    );
  });
  return r;
};
