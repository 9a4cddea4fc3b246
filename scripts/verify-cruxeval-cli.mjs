#!/usr/bin/env node
// The published CRUXEval figures through the command line, as a user gets them: record the
// 800 tasks (or take a recording with --traces), ingest, `evalset create` a cruxeval-output
// and a cruxeval-input set, `predictions import` every released file of
// test/data/cruxeval (generations/ and leaderboard/) under its file stem, and compare
// `scores --json` with the released pass@1 and pass@5 (GPT-4 input: 69.6875 under seed 0,
// sample_664's set of strings depends on the hash order). Too slow for `npm test`:
// test/predictions/cruxeval-cli.test.ts runs GPT-4's output file this way.
// Usage: npm run build:core && node scripts/verify-cruxeval-cli.mjs [--traces FILE] [--db FILE] [name-substring…]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const data = join(root, 'test/data/cruxeval');
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const dir = mkdtempSync(join(tmpdir(), 'stepscope-verify-'));
let traces = option('--traces');
const db = option('--db') ?? join(dir, 'crux.db');
const filters = args;
const cli = (...a) =>
  execFileSync(process.execPath, [join(root, 'bin/stepscope.js'), ...a], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 28,
  });

const underSeed0 = { 'gpt-4-0613_temp0.2_input': 69.6875 };
const started = Date.now();
if (!existsSync(db)) {
  if (!traces) cli('record-cruxeval', '-o', (traces = join(dir, 'crux.jsonl')), '--jobs', '2');
  cli('ingest', traces, '--db', db);
}
const sets = cli('evalset', 'list', '--db', db, '--json')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l).name);
if (!sets.includes('crux-output'))
  cli('evalset', 'create', '--db', db, '--name', 'crux-output', '--task', 'cruxeval-output');
if (!sets.includes('crux-input'))
  cli('evalset', 'create', '--db', db, '--name', 'crux-input', '--task', 'cruxeval-input');

const files = ['generations', 'leaderboard']
  .flatMap((d) =>
    readdirSync(join(data, d))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(data, d, f)),
  )
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
const fmt = (x) => (x === null ? 'null' : x.toFixed(4));
let bad = 0;
for (const f of files) {
  const stem = basename(f, '.json').replace(/^sample_scored_/, '');
  const mode = stem.endsWith('_input') ? 'input' : 'output';
  const label = stem.replace(/_(input|output)$/, '');
  const t0 = Date.now();
  cli('predictions', 'import', f, '--db', db, '--set', `crux-${mode}`, '--model', label);
  const line = JSON.parse(cli('scores', '--db', db, '--set', `crux-${mode}`, '--model', label, '--json'));
  const released = JSON.parse(readFileSync(f, 'utf8'));
  const want = underSeed0[stem];
  const same =
    want !== undefined
      ? Math.abs(line['pass@1'] - want) < 1e-9
      : Math.abs(line['pass@1'] - released.pass_at_1) < 1e-9 && Math.abs(line['pass@5'] - released.pass_at_5) < 1e-9;
  if (!same) bad++;
  console.log(
    `${stem}: released pass@1 ${fmt(released.pass_at_1)} pass@5 ${fmt(released.pass_at_5)}${want !== undefined ? ` (seed 0: ${fmt(want)})` : ''}` +
      `; scores --json pass@1 ${fmt(line['pass@1'])} pass@5 ${fmt(line['pass@5'])} pass@10 ${fmt(line['pass@10'])}  ${same ? 'SAME' : 'DIFFERENT'} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
}
console.log(
  `\n${files.length - bad} of ${files.length} files reproduce the released figures through the CLI (${((Date.now() - started) / 1000).toFixed(0)} s; corpus ${db})`,
);
process.exit(bad ? 1 : 0);
