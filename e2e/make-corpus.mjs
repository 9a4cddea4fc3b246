#!/usr/bin/env node
// Builds a fresh e2e corpus at argv[2]: the demo programs (through `stepscope demo` when the
// store provides it), the fixture programs of e2e/fixtures/ and the first CRUXEval tasks,
// recorded with the Python recorder and ingested with the store's Corpus, then sampled
// trajectories (`stepscope sample`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const db = resolve(process.argv[2]);
const work = mkdtempSync(join(tmpdir(), 'stepscope-e2e-rec-'));
const cruxeval = resolve(root, '../shared/data/cruxeval/cruxeval.jsonl');

function must(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

const recorder = (args) => must('python3', ['-m', 'stepscope_recorder', ...args], { cwd: join(root, 'python') });
const files = [];
for (const f of readdirSync(join(root, 'e2e/fixtures')).filter((f) => f.endsWith('.py')).sort()) {
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
if (existsSync(join(root, 'dist/cli/commands/demo.js'))) must(process.execPath, [join(root, 'bin/stepscope.js'), 'demo', '--db', db]);
// Sampled trajectories for the trajectories view (both directions, reproducible seed).
if (existsSync(join(root, 'dist/cli/commands/sample.js'))) {
  must(process.execPath, [join(root, 'bin/stepscope.js'), 'sample', '--db', db, '--per-trace', '2', '--direction', 'both', '--seed', '7']);
}
// The labeling queue's data: CodeLlama-7B's CRUXEval output predictions with pre-labels.
if (existsSync(join(root, 'dist/labeling/prelabel-run.js'))) must(process.execPath, [join(root, 'e2e/annotation-fixture.mjs'), db]);
console.log(`e2e corpus ready: ${db}`);
