#!/usr/bin/env node
// Mutation testing (StrykerJS) of one or more folders of src/, each with its own tests:
//   npm run mutation -- src/semantics [src/api …] [--force] [other stryker options]
// Incremental: a re-run tests only mutants whose code or tests changed (--force: all of them).
// Reports: .stryker/reports/<folder>.html and .json. Not part of npm test (it takes minutes).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, scopeOf } from './mutation-scope.mjs';

const args = process.argv.slice(2);
// Stryker options pass through; one without `=` takes the next word as its value
// (`--concurrency 1`, `--mutate src/semantics/json.ts`) unless it is a flag.
const FLAGS = new Set(['--force', '--dryRunOnly', '--help', '--allowEmpty', '--disableBail', '--inPlace']);
const folders = [];
const passed = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (!a.startsWith('-')) folders.push(a);
  else {
    passed.push(a);
    if (!a.includes('=') && !FLAGS.has(a) && i + 1 < args.length && !args[i + 1].startsWith('-'))
      passed.push(args[++i]);
  }
}
if (folders.length === 0 || args.includes('--help')) {
  console.log('usage: npm run mutation -- src/<folder> [src/<folder> …] [--force] [stryker options]');
  process.exit(folders.length === 0 && !args.includes('--help') ? 2 : 0);
}

let scopes;
try {
  scopes = folders.map(scopeOf);
} catch (e) {
  console.error(e.message);
  process.exit(2);
}

/** A glob of Stryker's `mutate` option as a RegExp (`**`, `*`; enough for the scopes' patterns). */
const globRe = (g) =>
  new RegExp(
    `^${g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\/|\*\*|\*/g, (t) => (t === '**/' ? '(?:.*/)?' : t === '**' ? '.*' : '[^/]*'))}$`,
  );

/**
 * The files a run mutates: its `mutate` patterns (`!` excludes). The report can hold more:
 * with `incremental`, Stryker keeps the results of a file the patterns no longer take in.
 */
function inScope(patterns) {
  const take = patterns.filter((p) => !p.startsWith('!')).map(globRe);
  const drop = patterns.filter((p) => p.startsWith('!')).map((p) => globRe(p.slice(1)));
  return (file) => take.some((r) => r.test(file)) && !drop.some((r) => r.test(file));
}

/** Score as Stryker counts it: detected / (detected + undetected), from its JSON report, over the files in scope. */
function summary(report, mutated) {
  const n = {};
  for (const [file, f] of Object.entries(report.files))
    if (mutated(file)) for (const m of f.mutants) n[m.status] = (n[m.status] ?? 0) + 1;
  const detected = (n.Killed ?? 0) + (n.Timeout ?? 0);
  const undetected = (n.Survived ?? 0) + (n.NoCoverage ?? 0);
  const score = detected + undetected ? (100 * detected) / (detected + undetected) : 100;
  return `${score.toFixed(2)}% (killed ${n.Killed ?? 0}, timeout ${n.Timeout ?? 0}, survived ${n.Survived ?? 0}, no coverage ${n.NoCoverage ?? 0}, ignored ${n.Ignored ?? 0}, errors ${(n.RuntimeError ?? 0) + (n.CompileError ?? 0)})`;
}

const lines = [];
let status = 0;
for (const s of scopes) {
  console.log(`\nmutation: ${s.folder} against ${s.tests.length} test files`);
  const started = Date.now();
  const r = spawnSync(join(root, 'node_modules/.bin/stryker'), ['run', 'stryker.config.mjs', ...passed], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      STEPSCOPE_MUTATE: s.folder,
      STEPSCOPE_MUTATION_TESTS: JSON.stringify(s.tests),
    },
  });
  const secs = Math.round((Date.now() - started) / 1000);
  const report = join(root, `.stryker/reports/${s.name}.json`);
  if (r.status !== 0) status = r.status ?? 1;
  // --mutate X or --mutate=X (comma-separated patterns, as Stryker reads them).
  const i = passed.findIndex((a) => a === '--mutate' || a.startsWith('--mutate='));
  const given = i < 0 ? undefined : passed[i] === '--mutate' ? passed[i + 1] : passed[i].slice('--mutate='.length);
  const mutated = inScope(given?.split(',') ?? s.options.mutate ?? [`${s.folder}/**/*.ts`]);
  lines.push(
    `${s.folder}: ${r.status === 0 && existsSync(report) && !passed.includes('--dryRunOnly') ? summary(JSON.parse(readFileSync(report, 'utf8')), mutated) : r.status === 0 ? 'no report (a dry run?)' : 'failed'} in ${Math.floor(secs / 60)}m${secs % 60}s`,
  );
}
console.log('\n' + lines.join('\n'));
process.exit(status);
