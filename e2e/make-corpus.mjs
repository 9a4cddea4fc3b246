#!/usr/bin/env node
// Builds a fresh e2e corpus at argv[2]: the demo programs (through `stepscope demo` when the
// store provides it), the fixture programs of e2e/fixtures/ and the first CRUXEval tasks,
// recorded with the Python recorder and ingested with the store's Corpus, then sampled
// trajectories (`stepscope sample`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
const db = resolve(process.argv[2]);
const work = mkdtempSync(join(tmpdir(), 'stepscope-e2e-rec-'));
const cruxeval = resolve(root, 'resources/cruxeval/cruxeval.jsonl');

function must(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

const recorder = (args) => must('python3', ['-m', 'stepscope_recorder', ...args], { cwd: join(root, 'python') });
const files = [];
for (const f of readdirSync(join(root, 'e2e/fixtures'))
  .filter((f) => f.endsWith('.py'))
  .sort()) {
  const out = join(work, f.replace(/\.py$/, '.jsonl'));
  recorder(['record', join(root, 'e2e/fixtures', f), '-o', out]);
  files.push(out);
}
const crux = join(work, 'cruxeval.jsonl');
recorder(['record-cruxeval', '--limit', '25', '-o', crux, cruxeval]);
files.push(crux);

const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const corpus = openCorpus(db, { create: true });
try {
  for (const f of files) await corpus.ingest(f);
} finally {
  corpus.close();
}
// The demo programs, when the store's demo command exists in this build.
if (existsSync(join(root, 'dist/cli/commands/demo.js')))
  must(process.execPath, [join(root, 'bin/stepscope.js'), 'demo', '--db', db]);
// Sampled trajectories for the trajectories view (both directions, reproducible seed).
if (existsSync(join(root, 'dist/cli/commands/sample.js'))) {
  must(process.execPath, [
    join(root, 'bin/stepscope.js'),
    'sample',
    '--db',
    db,
    '--per-trace',
    '2',
    '--direction',
    'both',
    '--seed',
    '7',
  ]);
}
// Evaluation sets and runs (the dashboard's tests).
if (existsSync(join(root, 'dist/cli/commands/evalset.js')))
  must(process.execPath, [join(root, 'e2e/make-predictions.mjs'), db]);
// Predictions for the overlay (e2e/overlay.spec.ts): CRUXEval's released CodeLlama-7B output
// generations for the recorded tasks (the benchmark's texts, checked by execution), and a
// breakpoint set answered in serialized states: right, one local changed, or unreadable.
if (existsSync(join(root, 'dist/cli/commands/evalset.js'))) {
  const cli = (...args) => must(process.execPath, [join(root, 'bin/stepscope.js'), ...args]);
  // crux-out with CodeLlama-7B's released output generations of these tasks is made above (make-predictions.mjs).
  cli('evalset', 'create', '--db', db, '--name', 'crux-bp', '--task', 'cruxeval-output-breakpoint');
  const exported = (name) => {
    cli('evalset', 'export', '--db', db, '--name', name, '-o', join(work, `${name}.jsonl`));
    return readFileSync(join(work, `${name}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  };
  const lines = exported('crux-bp').map((it, i) => {
    let completion = it.target;
    if (i % 3 === 1) completion = it.target.replace(/": "([^"]*)"/, (_m, v) => `": "${v}7"`);
    if (i % 3 === 2) completion = it.target.slice(0, 20) + '{broken';
    return JSON.stringify({ id: it.id, completion });
  });
  writeFileSync(join(work, 'mutant.jsonl'), lines.join('\n') + '\n');
  cli('predictions', 'import', join(work, 'mutant.jsonl'), '--db', db, '--set', 'crux-bp', '--model', 'mutant');
  // A second run to compare with: every answer the true target.
  writeFileSync(
    join(work, 'oracle.jsonl'),
    exported('crux-bp')
      .map((it) => JSON.stringify({ id: it.id, completion: it.target }))
      .join('\n') + '\n',
  );
  cli('predictions', 'import', join(work, 'oracle.jsonl'), '--db', db, '--set', 'crux-bp', '--model', 'oracle');
}
// A rollout set (e2e/rollouts.spec.ts): two fixture traces, short trajectories, rolled out by the fake model server
// with a wrong state injected at step 2 (right again after it), and the teacher-forced run of the same label on the
// next-state set of its prefixes.
if (existsSync(join(root, 'dist/cli/commands/rollouts.js'))) {
  const cli = (...args) => must(process.execPath, [join(root, 'bin/stepscope.js'), ...args]);
  writeFileSync(join(work, 'ro-traces.txt'), 'long_loop.py\ncalls.py\n');
  const traces = ['--traces-from', join(work, 'ro-traces.txt')];
  cli(
    'evalset',
    'create',
    '--db',
    db,
    '--name',
    'ro',
    '--task',
    'rollout',
    '--max-steps',
    '6',
    '--seed',
    '3',
    ...traces,
  );
  cli('evalset', 'create', '--db', db, '--name', 'ro-tf', '--task', 'next-state', '--prefixes-of', 'ro');
  const file = join(work, 'ro.jsonl');
  cli('evalset', 'export', '--db', db, '--name', 'ro', '-o', file);
  const server = spawn(
    process.execPath,
    [join(root, 'scripts/fake-model-server.mjs'), '--rollouts', file, '--rollout-errors', '2:right'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const first = await new Promise((done) => createInterface({ input: server.stdout }).once('line', done));
    const url = /listening on (http:\/\/\S+)$/.exec(first)[1];
    for (const set of ['ro', 'ro-tf'])
      await new Promise((done, fail) => {
        const args = ['predict', '--db', db, '--set', set, '--endpoint', url, '--model', 'fake-model'];
        const p = spawn(process.execPath, [join(root, 'bin/stepscope.js'), ...args, '--label', 'fake'], {
          cwd: root,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        p.stderr.on('data', (d) => (err += d));
        p.on('close', (code) => (code === 0 ? done() : fail(new Error(`predict --set ${set} failed:\n${err}`))));
      });
  } finally {
    server.kill();
  }
}
// The labeling queue's data: CodeLlama-7B's CRUXEval output predictions with pre-labels.
if (existsSync(join(root, 'dist/labeling/prelabel-run.js')))
  must(process.execPath, [join(root, 'e2e/annotation-fixture.mjs'), db]);
console.log(`e2e corpus ready: ${db}`);
