// Builds the web client into dist/renderer, which the server serves at /app.
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

/** Where `vite dev` sends API calls: a Pier server running locally. */
const devServerTarget = 'http://localhost:9090';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [vue()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // .vite/manifest.json: read by scripts/check-bundle-budget.mjs (not served: a dot folder)
    manifest: true,
  },
  server: {
    proxy: {
      '/api': { target: devServerTarget, ws: true },
      '/custom': devServerTarget,
    },
  },
});
