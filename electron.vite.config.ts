// Builds the three parts of the desktop app into out/: main (Electron main process),
// preload (the one bridge the renderer gets) and renderer (the Svelte UI, also served
// as static files by `stepscope serve` in web mode).
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // better-sqlite3 is native and stays external (electron-vite's default externalizeDeps).
      rollupOptions: { input: { index: resolve(root, 'main/index.ts') } },
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
      rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
    plugins: [svelte({ configFile: resolve(root, 'renderer/svelte.config.js') })],
  },
});
