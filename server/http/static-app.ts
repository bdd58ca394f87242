import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

/** The built web client: `dist/renderer` seen from the sources or from the compiled server. */
const rendererDir = (): string | undefined =>
  [new URL('../../dist/renderer/', import.meta.url), new URL('../../renderer/', import.meta.url)]
    .map((u) => fileURLToPath(u))
    .find((d) => existsSync(`${d}/index.html`));

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pier</title></head>
<body><h1>Pier is running</h1><p>The web client is not built. Run <code>npm run build</code>.</p></body></html>`;

/**
 * `/app` and every path below it answer the single-page app; files that exist
 * in the build (scripts, styles, images) are served as they are.
 */
export const webAppRouter = (): Router => {
  const r = express.Router();
  const dir = rendererDir();
  if (dir) r.use(express.static(dir, { index: false }));
  r.get('/{*rest}', (_req, res) => {
    if (dir) res.sendFile('index.html', { root: dir });
    else res.type('html').send(notBuilt);
  });
  return r;
};
