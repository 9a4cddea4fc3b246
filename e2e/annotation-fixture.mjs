// The labeling queue's e2e data: a cruxeval-output set over the corpus's CRUXEval traces and
// CodeLlama-7B's released generations for those tasks (test/data/cruxeval/generations,
// read in place; only the tasks recorded are written to a temp file), then the rules'
// pre-labels. Usage: node e2e/annotation-fixture.mjs CORPUS
//
// Execution checks: when `predictions import` leaves them pending (the execution engine is
// not wired into import in this build), the benchmark's own published verdicts
// (raw_scored_generations of the same file) are stored for the pending ones, so the failures
// are CRUXEval's failures either way.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const db = resolve(process.argv[2]);
const scored = resolve(root, 'test/data/cruxeval/generations/sample_scored_codellama-7b_temp0.2_output.json');
const cli = (args) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/stepscope.js'), ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`stepscope ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
};

const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
let corpus = openCorpus(db, { readonly: true });
// The overlay's fixture (make-corpus.mjs) may have made the set and run already: reuse them.
const made = corpus.getEvalSet('crux-out');
corpus.close();
if (!made) cli(['evalset', 'create', '--db', db, '--name', 'crux-out', '--task', 'cruxeval-output']);
corpus = openCorpus(db, { readonly: true });
const set = corpus.getEvalSet('crux-out');
const hasRun = !!corpus.getRun(set.id, 'codellama-7b');
const keys = [...corpus.iterateItems(set.id)].map((it) => it.key);
corpus.close();

const released = JSON.parse(readFileSync(scored, 'utf8'));
const gens = Object.fromEntries(keys.map((k) => [k, released.raw_generations[k]]));
const file = join(mkdtempSync(join(tmpdir(), 'stepscope-e2e-gens-')), 'codellama-7b_output.json');
writeFileSync(file, JSON.stringify(gens));
if (!hasRun) cli(['predictions', 'import', file, '--db', db, '--set', 'crux-out', '--model', 'codellama-7b']);

corpus = openCorpus(db);
const run = corpus.getRun(set.id, 'codellama-7b');
const byItem = new Map([...corpus.iterateItems(set.id)].map((it) => [it.id, it.key]));
const pending = new Map(corpus.pendingChecks(run.id).map((p) => [p.id, p]));
const updates = [];
for (const p of corpus.iteratePredictions({ setId: set.id, runId: run.id })) {
  if (!pending.get(p.id)?.exec) continue;
  const ok = released.raw_scored_generations[byItem.get(p.itemId)][p.sample];
  updates.push({ id: p.id, exec: { status: ok ? 'pass' : 'fail', detail: 'published CRUXEval verdict', rule: false } });
}
corpus.setVerdicts(updates);
corpus.close();
process.stdout.write(cli(['annotations', 'prelabel', '--db', db, '--set', 'crux-out', '--model', 'codellama-7b']));
