// Sampling a corpus twice with the same settings stores nothing new and says so: the second
// run's trajectories are counted as skipped (src/trajectories/sample-corpus.ts).
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { sampleCorpus } from '../../src/trajectories/sample-corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';

afterAll(cleanTempDirs);

it('a second run with the same seed skips every trajectory the first stored; another seed stores new ones', async () => {
  const dir = tempDir('stepscope-sample-');
  const c = openCorpus(join(dir, 'c.db'), { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 4 }, { name: 'b', n: 6 }]));
  const opts = { seed: 7, perTrace: 3, direction: 'forward', entry: 'random', maxSteps: 6 } as const;
  const first = sampleCorpus(c, opts);
  expect(first).toMatchObject({ traces: 2, sampled: 6, stored: 6, skipped: 0 });
  expect(first.textBytes).toBeGreaterThan(0);
  const again = sampleCorpus(c, opts);
  expect(again).toMatchObject({ traces: 2, sampled: 6, stored: 0, skipped: 6 });
  expect(c.listTrajectories(1).total + c.listTrajectories(2).total).toBe(6);
  const one = sampleCorpus(c, { ...opts, seed: 8, traceId: 2 });
  expect(one).toMatchObject({ traces: 1, sampled: 3, skipped: 0 });
  c.close();
});
