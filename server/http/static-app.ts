import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

/** The built web client: `dist/renderer` seen from the sources or from the compiled server. */
const rendererDir = (): string | undefined =>
  [new URL('../../dist/renderer/', import.meta.url), new URL('../../renderer/', import.meta.url)]
    .map((u) => fileURLToPath(u))
    // a build has Vite's manifest; the source folder `renderer/` has an index.html too
    .find((d) => existsSync(`${d}/index.html`) && existsSync(`${d}/.vite/manifest.json`));

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pier</title></head>
<body><h1>Pier is running</h1><p>The web client is not built. Run <code>npm run build</code>.</p></body></html>`;

/**
 * `webapp.custom-head`: the content of the file it names, or the value itself
 * as HTML; empty leaves the page's own head alone. Set by the administrator.
 */
export const customHeadHtml = (value: string): string => {
  if (!value.trim()) return '';
  try {
    if (!value.includes('<') && existsSync(value) && statSync(value).isFile()) return readFileSync(value, 'utf8');
  } catch {
    // not a readable file: the value is the snippet
  }
  return value;
};

/** index.html with the custom head inserted before `</head>`. */
const indexPage = (dir: string, customHead: string): string => {
  const html = readFileSync(`${dir}/index.html`, 'utf8');
  const extra = customHeadHtml(customHead);
  return extra ? html.replace('</head>', `${extra}\n</head>`) : html;
};

/**
 * `/app` and every path below it answer the single-page app; files that exist
 * in the build (scripts, styles, images) are served as they are.
 */
export const webAppRouter = (customHead = ''): Router => {
  const r = express.Router();
  const dir = rendererDir();
  const page = dir ? indexPage(dir, customHead) : notBuilt;
  if (dir) r.use(express.static(dir, { index: false }));
  r.get('/{*rest}', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  });
  return r;
};
