/**
 * Test files that need a process of their own. The 'node' project of vitest.config.ts shares a
 * fork's loaded modules and its threads between the files it runs one after another; these
 * run in a project of their own, isolated:
 * - a file that replaces a module with vi.mock (in the shared project the mock would not take,
 *   or would leak into the next file); test/helpers/mocking.test.ts fails when such a file is
 *   not listed here;
 * - test/api/pool.test.ts, which counts the CPU priority of its process's threads: a worker
 *   pool started by an earlier file in the same process changes what it counts.
 */
export const MOCKING = ['test/export/replace.test.ts', 'test/export/disk-full.test.ts'];
export const ISOLATED = [...MOCKING, 'test/api/pool.test.ts'];
