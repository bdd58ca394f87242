/**
 * Requests sent to a name that is none of this server's own
 * (`own-hosts.ts`) are answered with 421 Misdirected Request before anything
 * else runs: no body is read into a route, no session or cookie is looked at,
 * nothing is written. The API gets its generic result (the gateway its
 * envelope) through the one error mapping; every other path a short page
 * that names the key to set.
 */
import type { RequestHandler } from 'express';
import { AppError } from '../common/errors.js';
import type { Links } from './client-origin.js';

/** What the refusal says: the name, and the key under which an operator accepts it. */
export const misdirectedMessage = (host: string): string =>
  `This server does not answer to the name '${host}'. If it is one of its names, add it to allowed-hosts (service.restserver.allowed-hosts) in the configuration.`;

export const misdirected = (host: string): AppError => new AppError('misdirected', misdirectedMessage(host));

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (host: string): string =>
  '<!doctype html><html><head><meta charset="utf-8"><title>Misdirected request</title></head><body>' +
  `<h1>Misdirected request</h1><p>${escapeHtml(misdirectedMessage(host))}</p></body></html>`;

export const refuseForeignHosts =
  (links: Links): RequestHandler =>
  (req, res, next) => {
    const host = links.foreignHost(req);
    if (host === undefined) {
      next();
      return;
    }
    if (req.path.startsWith('/api/')) throw misdirected(host);
    res.status(421);
    res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page(host));
  };
