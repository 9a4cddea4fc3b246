/**
 * Stored trajectories (queries/trajectories.ts): what their rows hold, read the way a user's
 * SQL reads them (`stepscope sql`; the columns are described in
 * src/store/migrations/002-trajectories.ts). The corpus is built in the test.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus, type NewTrajectory } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

const hand = (traceId: number, extra: Partial<NewTrajectory>): NewTrajectory => ({
  traceId,
  direction: 'forward',
  entry: 0,
  actions: [{ action: 'step_into' }],
  states: [0, 1],
  lineCalls: [],
  exit: null,
  text: 'a trajectory',
  seed: null,
  sampler: null,
  sampleKey: null,
  targets: [{ seq: 1, kind: 'line' }],
  ...extra,
});

describe('stored trajectories', () => {
  it("keep a breakpoint's src in its step (and no src for other actions), and a hand-made one's sampler as NULL", async () => {
    const dir = tempDir();
    const c = openCorpus(join(dir, 'c.db'), { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 2 }]));
    const [traceId] = c.traceIds();
    const [made, sampled, noSampler] = c.saveTrajectories([
      hand(traceId, {
        actions: [{ action: 'breakpoint', src: '        acc += i' }, { action: 'step_over' }],
        states: [0, 5, 6],
        targets: [
          { seq: 5, kind: 'line' },
          { seq: 6, kind: 'line' },
        ],
      }),
      hand(traceId, { seed: 7, sampler: { policy: 'uniform', k: 0 }, sampleKey: 'k0' }),
      hand(traceId, { sampler: undefined }),
    ]);
    const rows = (sql: string) => [...c.query(sql)];
    expect(rows(`SELECT step, action, src FROM trajectory_steps WHERE trajectory_id = ${made} ORDER BY step`)).toEqual([
      { step: 0, action: 'breakpoint', src: '        acc += i' },
      { step: 1, action: 'step_over', src: null },
    ]);
    expect(rows('SELECT id, sampler FROM trajectories ORDER BY id')).toEqual([
      { id: made, sampler: null },
      { id: sampled, sampler: '{"policy":"uniform","k":0}' },
      { id: noSampler, sampler: null },
    ]);
    expect([made, sampled, noSampler].map((id) => c.getTrajectory(id!)!.sampler)).toEqual([
      null,
      { policy: 'uniform', k: 0 },
      null,
    ]);
    c.close();
  });
});
