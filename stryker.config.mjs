// StrykerJS for one folder of src/ at a time; run it through `npm run mutation -- src/<folder>`
// (scripts/mutation.mjs), which sets STEPSCOPE_MUTATE. Everything it writes is in .stryker/
// (git-ignored): the sandbox, the incremental file per folder, the HTML and JSON reports.
import { scopeOf } from './scripts/mutation-scope.mjs';

const { folder, name, options } = scopeOf(process.env.STEPSCOPE_MUTATE ?? 'src/semantics');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // The folder's tests only (vitest.mutation.config.ts); `related` narrows them further to
  // those importing the mutated file, and perTest coverage to those reaching each mutant.
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  // A static mutant (in code run when a module loads: tables, constants) can only be tested
  // by running every test of the folder (src/semantics: 194 such mutants, 45% of the run's
  // time). They are left out and counted as "ignored" in the report, not in the score.
  ignoreStatic: true,
  mutate: [`${folder}/**/*.ts`],
  // Re-runs test only mutants whose code or covering tests changed; --force redoes all.
  incremental: true,
  incrementalFile: `.stryker/${name}.incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `.stryker/reports/${name}.html` },
  jsonReporter: { fileName: `.stryker/reports/${name}.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker/tmp',
  cleanTempDir: 'always',
  // Two cores: two test runners, each running its tests in one thread.
  concurrency: 2,
  // The sandbox needs src/, test/, python/ (the recorder), resources/, docs/ and main/ (the
  // desktop app's client of the API process, in src/api/host's tests).
  ignorePatterns: [
    '/dist',
    '/out',
    '/e2e',
    '/renderer',
    '/bench',
    '/test-results',
    '/playwright-report',
    '/.stryker',
    '/.stepscope',
  ],
  // Added to 1.5x the time the covering tests took in the dry run: a mutant that loops is
  // given up on (and counted as detected) after this much extra time.
  timeoutMS: 8_000,
  dryRunTimeoutMinutes: 30,
  thresholds: { high: 90, low: 85, break: null },
  // A folder's own settings (scripts/mutation-scope.mjs, OPTIONS), e.g. src/server's ignoreStatic.
  ...options,
};
