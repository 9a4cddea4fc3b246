/**
 * Splits the e2e spec files into shards of about equal time, for scripts/test-all.mjs, which
 * runs the shards at once, each with its own server and corpus. Playwright's own `--shard`
 * cuts the list of tests in equal counts, not equal times: on 2026-12-01 its two shards took
 * 246 s and 187 s. Here each file goes, slowest first, to the shard with the least time so far
 * (longest-processing-time first), by the seconds below; a file not listed counts as
 * DEFAULT_SECONDS, so a new spec still runs, only perhaps in the longer shard.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Seconds of each spec file (both projects), on two busy cores: a fresh clone's npm test, 2026-12-02. */
export const SECONDS = {
  'dashboard.spec.ts': 77,
  'bugs.spec.ts': 57,
  'overlay.spec.ts': 50,
  'stepping.spec.ts': 45,
  'graph.spec.ts': 38,
  'researcher.spec.ts': 35,
  'labeling.spec.ts': 32,
  'folding.spec.ts': 18,
  'views.spec.ts': 11,
  'labels-export.spec.ts': 10,
  'trajectories.spec.ts': 7,
  'export.spec.ts': 5,
  'item-in-view.spec.ts': 4,
  'csp.spec.ts': 2,
};
export const DEFAULT_SECONDS = 20;

/** The spec files of `dir` (e2e/) that npm test runs, by name: not the screenshots (`npm run screenshots`). */
export function specFiles(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.spec.ts') && f !== 'shots.spec.ts')
    .sort();
}

/** `files` in `n` shards (each a list of names), the slowest first; empty shards dropped. */
export function shardFiles(files, n) {
  const shards = Array.from({ length: Math.max(1, n) }, () => ({ seconds: 0, files: [] }));
  const cost = (f) => SECONDS[f] ?? DEFAULT_SECONDS;
  for (const f of [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))) {
    const least = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    least.seconds += cost(f);
    least.files.push(f);
  }
  return shards.filter((s) => s.files.length > 0).map((s) => s.files);
}

/**
 * Playwright's arguments that select exactly `files` of e2e/: each a regular expression
 * anchored on the file's name, so `export.spec.ts` does not also pick `labels-export.spec.ts`.
 */
export function fileFilters(files) {
  return files.map((f) => `(^|/)${join('e2e', f).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
