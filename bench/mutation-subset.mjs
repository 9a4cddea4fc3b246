#!/usr/bin/env node
// What the CRUXEval subset saves a mutation run (docs/dev/mutation.md, "How a run is set up"):
// test/semantics/corpus.test.ts runs once per mutant of src/semantics, so its time is the
// run's unit cost. Runs the file twice through vitest in this process's machine state:
//   baseline  all 800 traces (what npm test checks),
//   subset    STEPSCOPE_CORPUS_SUBSET=1 (what vitest.mutation.config.ts sets),
// and prints each test's time and the subset's as a ratio of the baseline's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'stepscope-bench-subset-'));

function run(name, env) {
  const file = join(out, `${name}.json`);
  const r = spawnSync(
    join(root, 'node_modules/.bin/vitest'),
    ['run', 'test/semantics/corpus.test.ts', '--reporter=json', `--outputFile=${file}`],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    },
  );
  if (r.status !== 0) throw new Error(`vitest (${name}) failed:\n${r.stdout}\n${r.stderr}`);
  const tests = JSON.parse(readFileSync(file, 'utf8')).testResults[0].assertionResults;
  return new Map(tests.map((t) => [t.title, t.duration]));
}

// The recording is made once and cached; a first run pays for it, so warm it up.
run('warm', {});
const base = run('baseline', { STEPSCOPE_CORPUS_SUBSET: '' });
const sub = run('subset', { STEPSCOPE_CORPUS_SUBSET: '1' });
const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
console.log('test'.padEnd(60), 'all 800 ms', 'subset ms', 'ratio');
for (const [title, ms] of base)
  console.log(
    title.slice(0, 58).padEnd(60),
    String(Math.round(ms)).padStart(10),
    String(Math.round(sub.get(title))).padStart(9),
    (sub.get(title) / ms).toFixed(2).padStart(6),
  );
console.log(
  'total'.padEnd(60),
  String(Math.round(total(base))).padStart(10),
  String(Math.round(total(sub))).padStart(9),
  (total(sub) / total(base)).toFixed(2).padStart(6),
);
