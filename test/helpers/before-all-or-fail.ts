// A test file's shared set-up (a corpus, a pool, a server, parsed fixtures) runs once, in a
// beforeAll. When that set-up throws, vitest skips the file's tests, and a skipped test counts
// as passing for StrykerJS 9.6.1's vitest runner (stryker-js issue 5492; docs/dev/mutation.md):
// a mutant that breaks the set-up (the fixture builder, ingest, startServer) would
// be counted as survived. Here the set-up's error fails every test of the file instead.
import { beforeAll, beforeEach } from 'vitest';

/** Like `beforeAll(setUp)`, but a set-up that throws fails each test of the file with its error. */
export function beforeAllOrFail(setUp: () => Promise<void> | void, timeoutMs?: number): void {
  let failed: { error: unknown } | undefined;
  beforeAll(async () => {
    try {
      await setUp();
    } catch (error) {
      failed = { error };
    }
  }, timeoutMs);
  beforeEach(() => {
    if (failed) throw failed.error;
  });
}
