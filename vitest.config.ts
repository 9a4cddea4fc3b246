import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // better-sqlite3 is native: forks keep each file in its own process.
    pool: 'forks',
  },
});
