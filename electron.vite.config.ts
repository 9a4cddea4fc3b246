// Builds the three parts of the desktop app into out/: main (the Electron main process, and
// beside it the API process it forks and that process's worker thread), preload (the one
// bridge the renderer gets) and renderer (the Svelte UI, also served as static files by
// `stepscope serve` in web mode).
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { CSP_META } from './src/contract/transport.ts';

const root = import.meta.dirname;

/** index.html's CSP <meta> is the one policy of src/contract/transport.ts, written in at build time. */
const cspMeta: Plugin = {
  name: 'stepscope-csp-meta',
  transformIndexHtml(html) {
    if (!html.includes('%STEPSCOPE_CSP%'))
      throw new Error('renderer/index.html: expected the %STEPSCOPE_CSP% placeholder');
    return html.replace('%STEPSCOPE_CSP%', CSP_META);
  },
};

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // better-sqlite3 is native and stays external (electron-vite's default externalizeDeps).
      rollupOptions: {
        input: {
          index: resolve(root, 'main/index.ts'),
          'api-process': resolve(root, 'main/api-process.ts'),
          'api-worker': resolve(root, 'src/api/host/worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require anything from node_modules: bundle it whole, as CJS.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    base: './',
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves the renderer unminified; minified, the page has about half the
      // script to fetch and parse before it draws (docs/explorer.md, Scale). Source maps only
      // for scripts/bundle-sizes.mjs, which says which module fills each chunk.
      minify: true,
      sourcemap: process.env.STEPSCOPE_SOURCEMAP === '1',
      rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
    // `@core/…` is the plain-Node core in src/ (the pure folders the renderer may import; test/layering.test.ts).
    resolve: { alias: { '@core': resolve(root, 'src') } },
    plugins: [svelte({ configFile: resolve(root, 'renderer/svelte.config.js') }), cspMeta],
  },
});
