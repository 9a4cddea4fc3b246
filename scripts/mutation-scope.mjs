/**
 * What `npm run mutation -- <folder>` mutates and which tests it runs against the mutants.
 * The tests are the folder's own suites: tests that run the compiled CLI (dist/) never see
 * a mutant (Stryker mutates src/ in a sandbox) and only cost time, so they are left out.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

// The export handlers are tested in test/export/api.test.ts, the skeleton methods in test/store/skeletons.test.ts.
const API_TESTS = [
  'test/api',
  'test/server/browser-guards.test.ts',
  'test/export/api.test.ts',
  'test/store/skeletons.test.ts',
];
/** src/api's tests that call the API in this process, without the worker pool's. */
const API_IN_PROCESS = API_TESTS.flatMap((p) => testFilesIn(p)).filter(
  (f) => !/^test\/api\/pool(-jobs)?\.test\.ts$/.test(f),
);

/** Test files (or folders of them) per mutated folder; a folder not listed gets test/<its name>/. */
const TESTS = {
  // score.ts (exact-match scoring) is tested with the predictions it scores.
  'src/semantics': ['test/semantics', 'test/docs', 'test/predictions/score.test.ts'],
  'src/api': API_TESTS,
  // src/api in three runs that add up to the folder's: the worker pool's tests (a worker
  // thread per trace, 3–9 s a test, 51 s the file) run only against the pool's own code;
  // with them, every handler mutant waited for them too (Stryker's estimate: 4 h).
  'src/contract': API_IN_PROCESS,
  'src/api/handlers': API_IN_PROCESS,
  // worker-loop.test.ts runs a worker's loop in this thread: code run in a worker thread is
  // never seen by Stryker (neither its coverage nor its mutants). api-process.test.ts drives
  // the desktop app's API process through main/'s client.
  'src/api/host': [
    'test/api/pool.test.ts',
    'test/api/pool-jobs.test.ts',
    'test/api/errors.test.ts',
    'test/api/slot.test.ts',
    'test/api/worker-loop.test.ts',
    'test/api/answer.test.ts',
    'test/main/api-process.test.ts',
  ],
  // src/store in two runs that add up to the folder's (OPTIONS below): the corpus's own code
  // (opening, migrations, ingest, validation) against test/store, and the Corpus class with the
  // query files against the folders that call them (with test/store only, 1,007 of 2,493
  // mutants had no covering test; in the first run of 2026-12-01, 91 of corpus.ts's 140).
  'src/store': ['test/store'],
  'src/store/queries': [
    'test/store',
    'test/predictions',
    'test/labeling',
    'test/export',
    'test/trajectories',
    ...API_IN_PROCESS,
  ],
  // Not big-trace.test.ts: it ingests a 100,000-event trace in its beforeAll (re-run for
  // every mutant) to test the API's limits, and reaches the server like answers.test.ts does.
  'src/server': [
    'test/server/answers.test.ts',
    'test/server/bodies-and-bytes.test.ts',
    'test/server/browser-guards.test.ts',
    'test/server/last-resort.test.ts',
    'test/server/server.test.ts',
    'test/server/transport.test.ts',
  ],
  'src/predictions': ['test/predictions', 'test/api/predictions-api.test.ts', 'test/api/dashboard-api.test.ts'],
  // target.ts (annotation targets) and the taxonomy checks are called by the labelling code
  // and the annotations API: with test/annotate alone, target.ts's 84 mutants had no test.
  'src/annotate': ['test/annotate', 'test/labeling', 'test/api/annotations-api.test.ts'],
  // The rules are called through the labelling queue and its pre-label run too (src/labeling).
  'src/annotate/prelabel': [
    'test/annotate',
    'test/labeling/prelabel-run.test.ts',
    'test/labeling/queue.test.ts',
    'test/api/annotations-api.test.ts',
  ],
  'src/labeling': ['test/labeling', 'test/api/annotations-api.test.ts', 'test/export/labels.test.ts'],
  'src/trajectories': [
    'test/trajectories',
    'test/export/export.test.ts',
    'test/api/methods.test.ts',
    'test/api/predictions-api.test.ts',
    'test/api/trace-cache.test.ts',
  ],
};

/**
 * Stryker options that differ for one folder (stryker.config.mjs applies them over its own).
 * src/server: `ignoreStatic: false`. Its tests start their servers once per file, in a
 * beforeAll, so what runs there (startServer, the whole of listen.ts) is "static" coverage,
 * not any test's; and its guards are module constants (the loopback Host pattern, the file
 * types, the asset-name pattern). With static mutants ignored, 84 of its 318 mutants were
 * never run (the quiet-machine run of 2026-12-01). Not ignored, each runs all of the
 * folder's tests (46 in six files: about 10 s with their beforeAlls, under a second
 * without), so some 8 minutes more on a quiet machine. (`coverageAnalysis: "all"` would
 * do the same with the vitest runner, which reports per-test coverage whatever the setting.)
 */
const OPTIONS = {
  'src/server': { ignoreStatic: false },
  // worker.ts is a worker thread's entry (its priority, then worker-loop.ts): it runs only in
  // worker threads, from dist/, where no mutant reaches; pool.test.ts tests its priority.
  'src/api/host': { mutate: ['src/api/host/**/*.ts', '!src/api/host/worker.ts'] },
  'src/store': {
    mutate: ['src/store/**/*.ts', '!src/store/queries/**', '!src/store/corpus.ts', '!src/store/corpus/**'],
  },
  'src/store/queries': { mutate: ['src/store/queries/**/*.ts', 'src/store/corpus.ts', 'src/store/corpus/**/*.ts'] },
};

/**
 * Tests left out whatever folder is mutated: those that only run the compiled command, and
 * the published CRUXEval figures (24,000 executions: minutes per mutant; the rest of
 * test/scoring reaches the same code with small inputs).
 */
const EXCLUDED = new Set([
  'test/semantics/cli.test.ts',
  'test/export/cli.test.ts',
  'test/predictions/cruxeval-cli.test.ts',
  'test/scoring/cruxeval-published.test.ts',
]);

function testFilesIn(path) {
  const abs = join(root, path);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [path];
  return readdirSync(abs, { recursive: true })
    .map((f) => relative(root, join(abs, f)))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}

/** The scope of one folder: `src/semantics` (a trailing slash is fine). */
export function scopeOf(arg) {
  const folder = arg.replace(/\/+$/, '');
  if (
    !/^src\/[\w/-]+$/.test(folder) ||
    !existsSync(join(root, folder)) ||
    !statSync(join(root, folder)).isDirectory()
  ) {
    throw new Error(`mutation: ${arg} is not a folder under src/ (e.g. src/semantics)`);
  }
  const sources = TESTS[folder] ?? [`test/${folder.slice('src/'.length)}`];
  const tests = sources.flatMap(testFilesIn).filter((f) => !EXCLUDED.has(f));
  if (tests.length === 0)
    throw new Error(
      `mutation: no tests for ${folder} (looked in ${sources.join(', ')}); add it to TESTS in scripts/mutation-scope.mjs`,
    );
  return { folder, name: folder.slice('src/'.length).replaceAll('/', '-'), tests, options: OPTIONS[folder] ?? {} };
}
