#!/usr/bin/env node
// Verifies the execution scorer against every released CRUXEval file in
// test/data/cruxeval (generations/ and leaderboard/): each file's generations are run
// under PYTHONHASHSEED=0 (never read from the verdicts), then compared with the released
// pass@1/pass@5 and, generation by generation, with the released verdicts. With
// --second-seed N every file is scored again under seed N and the flipped verdicts listed.
// Too slow for `npm test` (about 25,000 distinct runs); GPT-4's input file is in
// test/scoring/cruxeval-published.test.ts.
// Usage: npm run build:core && node scripts/verify-cruxeval.mjs [--second-seed 1] [name-substring…]
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const data = join(root, 'test/data/cruxeval');
const {
  ExecPool,
  readCruxevalTasks,
  readGenerations,
  readReleasedVerdicts,
  scoreCruxeval,
  compareWithReleased,
  seedFlips,
  summarise,
  scoreTask,
} = await import(join(root, 'dist/scoring/index.js'));
const { readFileSync } = await import('node:fs');

const args = process.argv.slice(2);
const seedAt = args.indexOf('--second-seed');
const secondSeed = seedAt >= 0 ? Number(args.splice(seedAt, 2)[1]) : null;
const filters = args;
const tasks = readCruxevalTasks(join(root, 'resources/cruxeval/cruxeval.jsonl'));
const files = ['generations', 'leaderboard']
  .flatMap((d) =>
    readdirSync(join(data, d))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(d, f)),
  )
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();

// Under seed 0 one released figure cannot be reached: sample_664's set of strings (hash order).
const underSeed0 = {
  'leaderboard/gpt-4-0613_temp0.2_input.json': { pass1: 69.6875, why: 'sample_664 passes only under some hash seeds' },
};
const pools = new Map();
const pool = (seed) => pools.get(seed) ?? pools.set(seed, new ExecPool({ hashseed: seed })).get(seed);
const fmt = (x) => (x === null ? 'null' : x.toFixed(4));
let bad = 0;
const started = Date.now();
for (const f of files) {
  const path = join(data, f);
  const mode = f.includes('_input') ? 'input' : 'output';
  const released = JSON.parse(readFileSync(path, 'utf8'));
  const { generations } = readGenerations(path);
  const t0 = Date.now();
  const score = await scoreCruxeval(pool(0), tasks, generations, { mode });
  const secs = (Date.now() - t0) / 1000;
  const agree = compareWithReleased(score, readReleasedVerdicts(path));
  // The same verdicts under the later harness's rule (skipped generations dropped).
  const drop = summarise(
    mode,
    0,
    'drop',
    score.tasks.map((t) => scoreTask(t.id, t.verdicts, 'drop')),
  );
  const expected = underSeed0[f];
  const same = expected
    ? Math.abs(score.pass1 - expected.pass1) < 1e-9
    : Math.abs(score.pass1 - released.pass_at_1) < 1e-9 && Math.abs(score.pass5 - released.pass_at_5) < 1e-9;
  if (!same) bad++;
  console.log(
    `${f}\n  released pass@1 ${fmt(released.pass_at_1)} pass@5 ${fmt(released.pass_at_5)}` +
      (expected ? `; expected under seed 0: pass@1 ${fmt(expected.pass1)} (${expected.why})` : '') +
      `\n  ours     pass@1 ${fmt(score.pass1)} pass@5 ${fmt(score.pass5)} pass@10 ${fmt(score.pass10)}  ${same ? 'SAME' : 'DIFFERENT'}` +
      `  (rule 'drop': pass@1 ${fmt(drop.pass1)})` +
      `\n  verdicts agree ${agree.agree}/${agree.compared}, unmatched tasks ${agree.unmatched.length}` +
      `${agree.differ.length ? ', differ: ' + agree.differ.map((d) => `${d.task}[${d.index}] ours ${d.ours}`).join(', ') : ''}` +
      `\n  ${score.generations} generations, ${score.counts.skipped} skipped by rule, ${score.counts.timeout} timeouts; ${secs.toFixed(0)} s`,
  );
  if (secondSeed !== null) {
    const other = await scoreCruxeval(pool(secondSeed), tasks, generations, { mode });
    const flips = seedFlips(score, other);
    console.log(
      `  under seed ${secondSeed}: pass@1 ${fmt(other.pass1)}; ${flips.length} verdicts flip` +
        (flips.length
          ? ': ' + flips.map((x) => `${x.task}#${x.sample} ${x.status[0]}→${x.status[secondSeed]}`).join(', ')
          : ''),
    );
  }
}
for (const p of pools.values()) await p.close();
console.log(
  `\n${files.length - bad} of ${files.length} files reproduce the released pass@1 and pass@5 (or the seed-0 figure) (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exit(bad ? 1 : 0);
