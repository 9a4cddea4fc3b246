// Sampling a corpus twice with the same settings stores nothing new and says so: the second
// run's trajectories are counted as skipped (src/trajectories/sample-corpus.ts).
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { PAPER_POLICY } from '../../src/semantics/index.js';
import { sampleCorpus } from '../../src/trajectories/sample-corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';

afterAll(cleanTempDirs);

it('a second run with the same seed skips every trajectory the first stored; another seed stores new ones', async () => {
  const dir = tempDir('stepscope-sample-');
  const c = openCorpus(join(dir, 'c.db'), { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 4 },
      { name: 'b', n: 6 },
    ]),
  );
  const opts = { seed: 7, perTrace: 3, direction: 'forward', entry: 'random', maxSteps: 6 } as const;
  const first = sampleCorpus(c, opts);
  expect(first).toMatchObject({ traces: 2, sampled: 6, stored: 6, skipped: 0 });
  expect(first.textBytes).toBeGreaterThan(0);
  const again = sampleCorpus(c, opts);
  expect(again).toMatchObject({ traces: 2, sampled: 6, stored: 0, skipped: 6 });
  expect(c.listTrajectories(1).total + c.listTrajectories(2).total).toBe(6);
  const one = sampleCorpus(c, { ...opts, seed: 8, traceId: 2, maxSteps: undefined });
  expect(one).toMatchObject({ traces: 1, sampled: 3, skipped: 0 });
  // The settings each trajectory was sampled with are stored with it: the paper's policy unless another is given.
  const samplers = [...c.iterateTrajectories()].map(
    (t) => t.sampler as { policy: unknown; entry: string; max_steps: number | null; k: number },
  );
  expect(samplers.map((s) => s.max_steps)).toEqual([6, 6, 6, 6, 6, 6, null, null, null]);
  for (const s of samplers) expect(s).toMatchObject({ policy: PAPER_POLICY, entry: 'random' });
  c.close();
});

it('each stored step leads to the next state shown (the last to the exit); inverse line-call states are listed as such, forward ones never', async () => {
  // The reference programs: calls inside calls, so an inverse walk can reach a line that made a call.
  const { corpus: c } = await corpusOf(vectorTraces().traces, 'stepscope-sample-');
  sampleCorpus(c, { seed: 1, perTrace: 20, direction: 'both', entry: 'random', maxSteps: 30 });
  const stored = [...c.iterateTrajectories()];
  expect(new Set(stored.map((t) => t.direction))).toEqual(new Set(['forward', 'inverse']));
  let lineCalls = 0;
  let stepsToLineCalls = 0;
  for (const t of stored) {
    const steps = [
      ...c.query(
        `SELECT step, target_seq, target_kind FROM trajectory_steps WHERE trajectory_id = ${t.id} ORDER BY step`,
      ),
    ];
    expect(steps).toHaveLength(t.actions.length);
    steps.forEach((s, k) => {
      if (k + 1 < t.states.length) expect(s).toMatchObject({ target_seq: t.states[k + 1] });
      else expect(s).toEqual({ step: k, target_seq: null, target_kind: t.exit });
    });
    // Where a step leads to a line-call state, that state is in lineCalls (and the entry may be one).
    const shownAsLineCall = steps.flatMap((s, k) => (s.target_kind === 'inv_line_call' ? [k + 1] : []));
    expect(
      t.lineCalls.filter((k) => k !== 0),
      `${t.direction} ${t.id}`,
    ).toEqual(shownAsLineCall);
    stepsToLineCalls += shownAsLineCall.length;
    if (t.direction === 'forward') expect(t.lineCalls).toEqual([]);
    lineCalls += t.lineCalls.length;
  }
  expect(lineCalls).toBeGreaterThan(0);
  expect(stepsToLineCalls).toBeGreaterThan(0);
  c.close();
});
