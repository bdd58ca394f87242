import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Pier API</title>
  <link rel="stylesheet" href="/api/doc/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/doc/assets/swagger-ui-bundle.js"></script>
  <script src="/api/doc/init.js"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/api/doc/openapi.yml', dom_id: '#swagger-ui', deepLinking: true });`;

/**
 * The page's own script and styles only (Swagger UI sets inline styles), the
 * API file from this server, and no framing by any page (clickjacking).
 */
const policy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** `/api/doc`: the interactive API page; `/api/doc/openapi.yml`: the raw file. */
export const docsRouter = (openApiText: string): Router => {
  const r = express.Router();
  r.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  r.get('/', (_req, res) => {
    res.type('html').send(page);
  });
  r.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  r.get('/openapi.yml', (_req, res) => {
    res.type('application/yaml').send(openApiText);
  });
  r.use('/assets', express.static(swaggerDir, { index: false, fallthrough: false }));
  return r;
};
