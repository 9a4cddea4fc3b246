#!/usr/bin/env node
// Runs every suite (TypeScript unit/integration, Python recorder, the Electronegativity scan
// of the Electron shell, Playwright e2e, and the lint phase: ESLint, Prettier, the type checks)
// and ends with one plain `N passed, N failed` line, the line CI reads.
// Usage: node scripts/test-all.mjs [--only ts,py,eng,e2e,lint]
//
// Order, for a short wall time on two cores (every phase keeps both busy, so what counts is
// the CPU time of all of it): the core is compiled once (tsc) while CRUXEval is recorded once
// for both suites that read it; then vitest, the Python suite and the e2e preparation (the
// renderer's build, then the e2e corpus and the Electronegativity scan of that build) run side
// by side; Playwright runs last, against what was prepared (e2e/server.mjs builds nothing when
// STEPSCOPE_E2E_PREPARED is set), in two shards of about equal time at once
// (scripts/e2e-shards.mjs), each with its own server and its own copy of the corpus.
// The output of the side jobs is printed whole when each ends; every suite's time is printed.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileFilters, shardFiles, specFiles } from './e2e-shards.mjs';

const root = new URL('..', import.meta.url).pathname;
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? new Set(process.argv[i + 1].split(',')) : null;
})();
const want = (s) => !only || only.has(s);
const tmp = mkdtempSync(join(tmpdir(), 'stepscope-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const suites = [];
const times = [];
const bin = (name) => join(root, 'node_modules/.bin', name);

/**
 * Runs a command to its end: its output straight through (`live`) or kept and printed in one
 * block when it ends, so side-by-side jobs do not interleave. Resolves to the exit status.
 */
function run(label, cmd, args, { env = {}, live = false } = {}) {
  const started = Date.now();
  if (live) console.log(`\n$ ${cmd} ${args.join(' ')}`);
  return new Promise((done) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const out = [];
    if (!live) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => out.push(d));
    const end = (status) => {
      const secs = (Date.now() - started) / 1000;
      times.push(`${label} ${secs.toFixed(0)}s`);
      if (!live) console.log(`\n$ ${cmd} ${args.join(' ')}\n${Buffer.concat(out).toString()}`);
      console.log(`(${label}: ${secs.toFixed(0)}s, exit ${status})`);
      done(status);
    };
    child.on('error', (e) => {
      out.push(Buffer.from(String(e)));
      end(1);
    });
    child.on('close', (code) => end(code ?? 1));
  });
}

function record(name, passed, failed, skipped = 0) {
  suites.push(`${name}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
}

/**
 * When `python3` on PATH is a version manager's shim (pyenv's is a bash script that runs a
 * dozen more processes, ~0.6 s of CPU a start on two busy cores, 20 times the interpreter's
 * own start-up) and not the interpreter, puts the interpreter's folder first on PATH, as
 * `pyenv exec` itself does: the suites start Python hundreds of times. Same interpreter.
 */
function skipPythonShim() {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const exe = r.status === 0 ? r.stdout.trim() : '';
  if (!exe) return; // no python3: the Python suite says so
  const first = (process.env.PATH ?? '')
    .split(delimiter)
    .map((d) => join(d, 'python3'))
    .find((f) => existsSync(f));
  if (first && realpathSync(first) === realpathSync(exe)) return;
  process.env.PATH = `${dirname(exe)}${delimiter}${process.env.PATH}`;
  console.log(`python3 on PATH (${first}) is not the interpreter: ${dirname(exe)} put first on PATH`);
}
skipPythonShim();

const started = Date.now();

// 1. Build the core once (the CLI tests run the compiled command; so does the e2e server),
// and meanwhile record CRUXEval once for both suites that read all 800 traces.
// The benchmark bundled in the repository, the file the tests read (test/semantics/helpers.ts).
const cruxevalData = join(root, 'resources/cruxeval/cruxeval.jsonl');
const cruxevalTraces = join(tmp, 'cruxeval.jsonl');

/**
 * All 800 CRUXEval tasks recorded once (~90 s of CPU, a fresh interpreter per task) for the
 * TypeScript suite (test/semantics/helpers.ts: cruxevalRecording) and the recorder's own
 * test (python/tests/test_cruxeval.py), which would each record them again: the command's
 * stderr is kept beside the traces for the recorder test's checks of its summary. Either
 * suite records them itself when this failed (STEPSCOPE_TEST_CRUXEVAL is then not set).
 */
async function recordCruxeval() {
  if (!(want('ts') || want('py'))) return;
  const started = Date.now();
  const child = spawn(
    'python3',
    ['-m', 'stepscope_recorder', 'record-cruxeval', cruxevalData, '-o', cruxevalTraces, '--jobs', '2'],
    {
      cwd: join(root, 'python'),
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const err = [];
  child.stderr.on('data', (d) => err.push(d));
  const status = await new Promise((done) => {
    child.on('error', (e) => (err.push(Buffer.from(String(e))), done(1)));
    child.on('close', (code) => done(code ?? 1));
  });
  const stderr = Buffer.concat(err).toString();
  writeFileSync(`${cruxevalTraces}.stderr`, stderr);
  times.push(`cruxeval recording ${((Date.now() - started) / 1000).toFixed(0)}s`);
  if (status === 0) process.env.STEPSCOPE_TEST_CRUXEVAL = cruxevalTraces;
  else
    console.log(
      `\nrecording CRUXEval once for the suites failed (exit ${status}); each suite records it itself:\n${stderr}`,
    );
}
const cruxevalRecorded = recordCruxeval();

const built = (await run('build:core', 'npm', ['run', '--silent', 'build:core'], { live: true })) === 0;
if (!built) record('build', 0, 1);

// 2. Side by side: vitest (live output), the Python suite, the e2e preparation and the
// Electronegativity scan, and the lint phase.
async function typescript() {
  const out = join(tmp, 'vitest.json');
  const status = await run(
    'vitest',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile=${out}`],
    { live: true },
  );
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    record(
      'typescript',
      j.numPassedTests,
      j.numFailedTests + (j.numRuntimeErrorTests ?? 0) + (status !== 0 && j.numFailedTests === 0 ? 1 : 0),
      j.numPendingTests + j.numTodoTests,
    );
  } else record('typescript', 0, 1);
}

async function python() {
  const out = join(tmp, 'python.json');
  await run('python', 'python3', ['python/run_tests.py', '--pythons', '--json', out]);
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    record('python', j.passed, j.failed, j.skipped);
  } else record('python', 0, 1);
}

const e2e = want('e2e') && existsSync(join(root, 'e2e/playwright.config.ts'));
const e2eDb = join(mkdtempSync(join(tmpdir(), 'stepscope-e2e-')), 'corpus.db');

/**
 * Electronegativity on the Electron shell: main/ and the built app (`app`: built already; otherwise the scan builds
 * it).
 */
async function electronegativity(app) {
  const out = join(tmp, 'electronegativity.json');
  await run('electronegativity', process.execPath, [
    'scripts/electronegativity.mjs',
    '--json',
    out,
    ...(app ? ['--no-build'] : []),
  ]);
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    record('electronegativity', j.passed, j.failed);
  } else record('electronegativity', 0, 1);
}

/**
 * The app's build (what e2e/server.mjs would otherwise make), then side by side the e2e corpus
 * and the Electronegativity scan of that build. Resolves to whether the e2e tests are prepared.
 */
async function prepareE2e() {
  const app = built && (e2e || want('eng')) && (await run('e2e build', bin('electron-vite'), ['build'])) === 0;
  const [prepared] = await Promise.all([
    e2e &&
      app &&
      run('e2e corpus', process.execPath, [join(root, 'e2e/make-corpus.mjs'), e2eDb]).then((status) => status === 0),
    want('eng') ? electronegativity(app) : null,
  ]);
  return prepared;
}

/**
 * The habits CI holds the code to, each check one test: ESLint and Prettier over the repository
 * (`npm run lint`), the two type checks (`npm run typecheck`, `npm run typecheck:ui`). One after
 * another (one core; the other suites keep the other busy). The migration files' order is a
 * vitest test (test/store/migrations-order.test.ts), run here too when the TypeScript suite is not.
 */
async function lint() {
  const checks = [
    ['eslint', bin('eslint'), ['.']],
    ['prettier', bin('prettier'), ['--check', '.']],
    ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
    ['typecheck:ui', 'npm', ['run', '--silent', 'typecheck:ui']],
  ];
  if (!want('ts')) checks.push(['migrations', bin('vitest'), ['run', 'test/store/migrations-order.test.ts']]);
  let passed = 0;
  let failed = 0;
  for (const [label, cmd, args] of checks) {
    if ((await run(label, cmd, args)) === 0) passed++;
    else failed++;
  }
  record('lint', passed, failed);
}

// The two suites start when CRUXEval is recorded; the e2e preparation does not wait for it.
const [, , prepared] = await Promise.all([
  want('ts') ? cruxevalRecorded.then(typescript) : null,
  want('py') ? cruxevalRecorded.then(python) : null,
  prepareE2e(),
  want('lint') ? lint() : null,
]);

// 3. End-to-end suites (Playwright in Debian's Chromium against the web mode). Prepared, the
// spec files run in shards of about equal time at once (scripts/e2e-shards.mjs; two, or
// STEPSCOPE_E2E_SHARDS), each with its own server (the config picks a free port per run),
// its own copy of the corpus (the tests write labels, predictions and exports into it) and
// its own output folder (Playwright empties it when a run starts).
if (e2e) {
  const wanted = prepared ? Number(process.env.STEPSCOPE_E2E_SHARDS) || Math.min(2, availableParallelism()) : 1;
  const shards = wanted > 1 ? shardFiles(specFiles(join(root, 'e2e')), wanted) : [null];
  const dbs = [e2eDb];
  for (let i = 1; i < shards.length; i++) {
    const db = join(mkdtempSync(join(tmpdir(), 'stepscope-e2e-')), 'corpus.db');
    for (const ext of ['', '-wal']) if (existsSync(e2eDb + ext)) copyFileSync(e2eDb + ext, db + ext);
    dbs.push(db);
  }
  const stats = await Promise.all(
    dbs.map(async (db, i) => {
      const out = join(tmp, `e2e-${i + 1}.json`);
      // Not prepared (a build or the corpus failed): the e2e server tries again and says why.
      const env = {
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        ...(prepared ? { STEPSCOPE_E2E_PREPARED: '1', STEPSCOPE_E2E_DB: db } : {}),
      };
      const files = shards[i];
      const shard = files ? [...fileFilters(files), '--output', `e2e/test-results/shard-${i + 1}`] : [];
      const label = files ? `e2e ${i + 1}/${shards.length}` : 'e2e';
      const status = await run(label, bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts', ...shard], {
        env,
        live: !files,
      });
      if (!existsSync(out)) return { passed: 0, failed: 1, skipped: 0 };
      const s = JSON.parse(readFileSync(out, 'utf8')).stats;
      return {
        passed: s.expected + (s.flaky ?? 0),
        failed: s.unexpected + (status !== 0 && s.unexpected === 0 ? 1 : 0),
        skipped: s.skipped,
      };
    }),
  );
  const sum = (k) => stats.reduce((n, s) => n + s[k], 0);
  record('e2e', sum('passed'), sum('failed'), sum('skipped'));
}

console.log(`\ntimes: ${times.join(', ')}; total ${((Date.now() - started) / 1000).toFixed(0)}s`);
console.log(suites.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
