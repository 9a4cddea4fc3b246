#!/usr/bin/env node
// Evaluation sets and runs for the dashboard's e2e tests, in the e2e corpus at argv[2] (made
// by make-corpus.mjs, with the first CRUXEval tasks): CRUXEval output and input sets with the
// released CodeLlama-7B (T=0.2) and GPT-4 generations of those tasks (read from
// test/data/cruxeval/, filtered to the corpus's tasks in a temp file), and a next-state and
// a horizon set answered by two made-up models that get chosen items wrong (wrong locals, an
// unreadable completion), so every plot has data.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const db = resolve(process.argv[2]);
const work = mkdtempSync(join(tmpdir(), 'stepscope-e2e-pred-'));
const released = resolve(root, 'test/data/cruxeval');
const cli = (...args) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/stepscope.js'), ...args, '--db', db], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`stepscope ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
};
const exported = (set) =>
  cli('evalset', 'export', '--name', set)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

// CRUXEval: the released generations of the tasks this corpus holds.
const runs = {
  'codellama-7b': (mode) => join(released, `generations/sample_scored_codellama-7b_temp0.2_${mode}.json`),
  'gpt-4': (mode) => join(released, `leaderboard/gpt-4-0613_temp0.2_${mode}.json`),
};
for (const [set, task, mode] of [
  ['crux-out', 'cruxeval-output', 'output'],
  ['crux-in', 'cruxeval-input', 'input'],
]) {
  cli('evalset', 'create', '--name', set, '--task', task);
  const tasks = new Set(exported(set).map((it) => it.name));
  for (const [label, file] of Object.entries(runs)) {
    const gens = JSON.parse(readFileSync(file(mode), 'utf8')).raw_generations;
    const out = join(work, `${label}-${mode}.json`);
    writeFileSync(out, JSON.stringify(Object.fromEntries(Object.entries(gens).filter(([k]) => tasks.has(k)))));
    cli('predictions', 'import', out, '--set', set, '--model', label);
  }
}

// Made-up models over state targets: `every` decides which items each gets wrong, and how.
function answer(it, i, model) {
  if (i % model.unreadable === 0) return 'I think the next line runs';
  if (i % model.wrongLocals === 0 && it.target.includes('{'))
    return it.target.replace(/"([^"]*)": "([^"]*)"/, '"$1": "$2$2"');
  return it.target;
}
const models = { 'model-a': { unreadable: 7, wrongLocals: 3 }, 'model-b': { unreadable: 5, wrongLocals: 4 } };
for (const [set, args] of [
  ['ns', ['--task', 'next-state', '--per-action', '6', '--seed', '3']],
  ['hz', ['--task', 'horizon', '--per-action', '5']],
]) {
  cli('evalset', 'create', '--name', set, ...args);
  const items = exported(set);
  for (const [label, model] of Object.entries(models)) {
    const out = join(work, `${set}-${label}.jsonl`);
    writeFileSync(
      out,
      items
        .map((it, i) => JSON.stringify({ id: it.id, completions: [answer(it, i + 1, model), it.target] }))
        .join('\n'),
    );
    cli('predictions', 'import', out, '--set', set, '--model', label);
  }
}
console.log(`e2e predictions ready: ${db}`);
