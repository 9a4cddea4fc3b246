/**
 * The test files that replace a module with vi.mock. The 'node' project of vitest.config.ts
 * shares loaded modules between the files a worker runs, where a mock would not take (or
 * would leak into the next file); these run in a project of their own, isolated.
 * test/helpers/mocking.test.ts fails when a file mocks a module and is not listed here.
 */
export const MOCKING = ['test/export/replace.test.ts'];
