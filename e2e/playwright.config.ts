// End-to-end tests of the explorer's web mode in Debian's Chromium (no browser download).
// The webServer builds everything, records a fresh temp corpus and runs `stepscope serve`.
import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The config is evaluated again in each worker: pick the port and corpus once, in the
// runner, and hand them down through the environment.
const freePort = () =>
  execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
if (!process.env.STEPSCOPE_E2E_PORT) {
  process.env.STEPSCOPE_E2E_PORT = freePort();
  // The one model server `serve` may ask (--model-server): overlay.spec.ts starts its fake there.
  process.env.STEPSCOPE_E2E_MODEL_PORT = freePort();
  // scripts/test-all.mjs may have made the corpus already (STEPSCOPE_E2E_PREPARED, e2e/server.mjs).
  process.env.STEPSCOPE_E2E_DB ??= join(mkdtempSync(join(tmpdir(), 'stepscope-e2e-')), 'corpus.db');
}
const port = Number(process.env.STEPSCOPE_E2E_PORT);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // The screenshots (shots.spec.ts) assert nothing: only `npm run screenshots` takes them.
  testIgnore: process.env.STEPSCOPE_SCREENSHOTS === '1' ? [] : ['shots.spec.ts'],
  timeout: 60_000,
  // Assertions wait for what the page will show; on a loaded CI machine a redraw after a reload
  // took more than the default 5 s (a ghost of the dashboard-compare test).
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? join(tmpdir(), 'stepscope-e2e.json') }],
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // Every spec runs against the indented trees; the specs that step and fold run again with
  // both trees in the graph shape (the renderer's default shape is read from localStorage),
  // but for their tests tagged @rows-only (indented rows only, or no tree involved).
  projects: [
    { name: 'rows' },
    {
      name: 'graph',
      testMatch: ['stepping.spec.ts', 'folding.spec.ts', 'bugs.spec.ts'],
      grepInvert: /@rows-only/,
      use: {
        storageState: {
          cookies: [],
          origins: [
            { origin: `http://127.0.0.1:${port}`, localStorage: [{ name: 'stepscope.shape', value: 'graph' }] },
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node e2e/server.mjs',
    cwd: join(import.meta.dirname, '..'),
    url: `http://127.0.0.1:${port}/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
});
