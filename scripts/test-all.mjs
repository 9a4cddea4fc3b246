#!/usr/bin/env node
// Runs every suite (TypeScript unit/integration, Python recorder, the Electronegativity scan
// of the Electron shell, Playwright e2e) and ends with one plain `N passed, N failed` line,
// the line CI reads.
// Usage: node scripts/test-all.mjs [--only ts,py,eng,e2e]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? new Set(process.argv[i + 1].split(',')) : null;
})();
const want = (s) => !only || only.has(s);
const tmp = mkdtempSync(join(tmpdir(), 'stepscope-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const suites = [];

function run(cmd, args, env = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function record(name, passed, failed, skipped = 0) {
  suites.push(`${name}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
}

// 1. Build the core (the CLI tests run the compiled command).
if (run('npm', ['run', '--silent', 'build:core']) !== 0) record('build', 0, 1);

// 2. TypeScript suites (vitest).
if (want('ts')) {
  const out = join(tmp, 'vitest.json');
  const status = run(join(root, 'node_modules/.bin/vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    record('typescript', j.numPassedTests, j.numFailedTests + (j.numRuntimeErrorTests ?? 0) + (status !== 0 && j.numFailedTests === 0 ? 1 : 0), j.numPendingTests + j.numTodoTests);
  } else record('typescript', 0, 1);
}

// 3. Python recorder suites (unittest, standard library only).
if (want('py')) {
  const out = join(tmp, 'python.json');
  run('python3', ['python/run_tests.py', '--json', out]);
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    record('python', j.passed, j.failed, j.skipped);
  } else record('python', 0, 1);
}

// 4. Electronegativity on the Electron shell: main/ and the built app (scripts/electronegativity.mjs builds it).
if (want('eng')) {
  const out = join(tmp, 'electronegativity.json');
  run(process.execPath, ['scripts/electronegativity.mjs', '--json', out]);
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    record('electronegativity', j.passed, j.failed);
  } else record('electronegativity', 0, 1);
}

// 5. End-to-end suites (Playwright in Debian's Chromium against the web mode).
if (want('e2e') && existsSync(join(root, 'e2e/playwright.config.ts'))) {
  const out = join(tmp, 'e2e.json');
  const status = run(join(root, 'node_modules/.bin/playwright'), ['test', '-c', 'e2e/playwright.config.ts'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  if (existsSync(out)) {
    const s = JSON.parse(readFileSync(out, 'utf8')).stats;
    record('e2e', s.expected + (s.flaky ?? 0), s.unexpected + (status !== 0 && s.unexpected === 0 ? 1 : 0), s.skipped);
  } else record('e2e', 0, 1);
}

console.log('\n' + suites.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
