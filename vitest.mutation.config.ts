// The vitest setup Stryker runs (stryker.config.mjs): only the test files of the folder being
// mutated (STEPSCOPE_MUTATION_TESTS, set by scripts/mutation.mjs), in plain Node.
import { defineConfig } from 'vitest/config';

const tests: string[] = JSON.parse(process.env.STEPSCOPE_MUTATION_TESTS ?? '[]');
if (tests.length === 0) throw new Error('vitest.mutation.config.ts: run it through `npm run mutation -- src/<folder>`');

export default defineConfig({
  test: {
    include: tests,
    // toThrow / rejects.toThrow pass only when a real Error was thrown (test/helpers/strict-throw.ts):
    // without it, a mutant that rejects with undefined passes every rejects.toThrow('message').
    setupFiles: ['test/helpers/strict-throw.ts'],
    // test/semantics/corpus.test.ts checks a fixed subset of the 800 CRUXEval traces
    // (test/semantics/corpus-subset.ts): it runs once per mutant. npm test checks all 800.
    env: { STEPSCOPE_CORPUS_SUBSET: '1' },
    // Tests that build dist/ first (ensureBuilt) do it in the sandbox, under load: minutes.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
