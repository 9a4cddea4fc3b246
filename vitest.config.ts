import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { ISOLATED } from './test/helpers/mocking.js';
import SlowFirst from './test/helpers/slow-first.js';

const root = import.meta.dirname;
// The renderer's `@core/…` imports (renderer/tsconfig.json, electron.vite.config.ts).
const resolveCore = { alias: { '@core': resolve(root, 'src') } };

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one: a single worker on two cores, which
    // leaves a core idle while a file waits on its child processes (the compiled CLI, Python).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The slowest files first (test/helpers/slow-first.ts), so none is left to run alone at the end.
    sequence: { sequencer: SlowFirst },
    // dist/ built once before the files run side by side (test/helpers/build-once.ts).
    globalSetup: ['test/helpers/build-once.ts'],
    projects: [
      {
        resolve: resolveCore,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/components/**', ...ISOLATED],
          // toThrow / rejects.toThrow pass only when a real Error was thrown (test/helpers/strict-throw.ts).
          setupFiles: ['test/helpers/strict-throw.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // better-sqlite3 is native: forks, not threads. Each fork runs file after file
          // with the modules it loaded already (not a fresh process and module graph per
          // file): 100 s of CPU less in a run, a sixth of the whole. So a file must leave
          // nothing behind (environment, working folder, listeners, open corpora), and one
          // that replaces a module (vi.mock) or counts its process's threads goes in the
          // project below (test/helpers/mocking.ts).
          pool: 'forks',
          isolate: false,
        },
      },
      {
        // The files that need a process of their own (test/helpers/mocking.ts).
        resolve: resolveCore,
        test: {
          name: 'node-isolated',
          include: ISOLATED,
          setupFiles: ['test/helpers/strict-throw.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        // Svelte components of the renderer in happy-dom (CodeMirror needs its layout APIs),
        // mounted with a fake data source (test/renderer/components/fake-source.ts).
        resolve: resolveCore,
        plugins: [svelte({ configFile: resolve(root, 'renderer/svelte.config.js') }), svelteTesting()],
        test: {
          name: 'components',
          include: ['test/renderer/components/**/*.test.ts'],
          environment: 'happy-dom',
          // The files share a worker's modules rather than each loading Svelte, CodeMirror,
          // d3 and the renderer again (half the project's CPU time). Each test mounts its own
          // components over its own app state (setup.ts: harness), and none mocks a module.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
