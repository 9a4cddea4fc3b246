#!/usr/bin/env node
// Playwright's webServer: build the core and the renderer, make a fresh temp corpus, serve it.
// Env: STEPSCOPE_E2E_PORT and STEPSCOPE_E2E_MODEL_PORT (set by the config), STEPSCOPE_E2E_DB (the corpus path);
// STEPSCOPE_E2E_PREPARED=1: the builds and the corpus are already made (scripts/test-all.mjs
// makes them while the other suites run), so only serve.
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (process.env.STEPSCOPE_E2E_PREPARED !== '1') {
  step('npm', ['run', '--silent', 'build:core']);
  step(resolve(root, 'node_modules/.bin/electron-vite'), ['build']);
  step(process.execPath, [resolve(root, 'e2e/make-corpus.mjs'), process.env.STEPSCOPE_E2E_DB]);
}
const child = spawn(
  process.execPath,
  [
    resolve(root, 'bin/stepscope.js'),
    'serve',
    '--db',
    process.env.STEPSCOPE_E2E_DB,
    '--port',
    process.env.STEPSCOPE_E2E_PORT,
    // "Ask the model" may ask only this server (overlay.spec.ts starts a fake one there).
    '--model-server',
    `e2e-model=http://127.0.0.1:${process.env.STEPSCOPE_E2E_MODEL_PORT}`,
  ],
  { cwd: root, stdio: 'inherit' },
);
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => process.exit(code ?? 0));
