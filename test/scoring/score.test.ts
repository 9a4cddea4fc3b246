// scoreCruxeval end to end on a hand-made task: which generations run, the verdict of each
// (ids, skip-rule flags), the rule reported, progress, and a generation for an unknown task.
// Five short Python runs in all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreCruxeval, type CruxevalTask } from '../../src/scoring/cruxeval.js';
import { ExecPool } from '../../src/scoring/pool.js';
import type { Progress } from '../../src/scoring/progress.js';

let pool: ExecPool;
beforeAll(() => {
  pool = new ExecPool({ workers: 1 });
});
afterAll(async () => {
  await pool.close();
});

const task: CruxevalTask = { id: 'sample_9', code: 'def f(x):\n    return x + 1', input: '1', output: '2' };

describe('scoreCruxeval', () => {
  it('output prediction: runs each distinct text once, not the ones the skip rule drops, and reports the rule', async () => {
    const seen: Progress[] = [];
    // '2' right, '3' wrong, 'f(1)' contains the call itself (skip rule: would pass if run), '2' again.
    const score = await scoreCruxeval(
      pool,
      [task],
      { sample_9: ['2', '3', 'f(1)', '2'] },
      { mode: 'output', onProgress: (p) => seen.push(p) },
    );
    expect(score.rule).toBe('false');
    const [t] = score.tasks;
    expect(t.verdicts.map((v) => [v.id, v.sample, v.status, v.rule])).toEqual([
      ['sample_9#0', 0, 'pass', false],
      ['sample_9#1', 1, 'fail', false],
      ['sample_9#2', 2, 'skipped', true],
      ['sample_9#3', 3, 'pass', false],
    ]);
    expect(t.verdicts[2].reason).toMatch(/contains the call f\(1\) itself/);
    expect(t.results).toEqual([true, false, false, true]);
    expect(score.pass1).toBeCloseTo(50, 12);
    expect(score.counts).toEqual({ pass: 2, fail: 1, error: 0, timeout: 0, skipped: 1 });
    // Two runs: '2' (shared by samples 0 and 3) and '3'.
    expect(seen.map((p) => [p.done, p.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it("rule 'drop' leaves the skipped generation out of the list", async () => {
    const score = await scoreCruxeval(pool, [task], { sample_9: ['3', 'f(1)', '2'] }, { mode: 'output', rule: 'drop' });
    expect(score.rule).toBe('drop');
    expect(score.tasks[0]).toMatchObject({ results: [false, true], n: 2, c: 1 });
  });

  it('input prediction: the generation is the call', async () => {
    const score = await scoreCruxeval(pool, [task], { sample_9: ['f(1)', 'f(2)', '1'] }, { mode: 'input' });
    expect(score.tasks[0].verdicts.map((v) => v.status)).toEqual(['pass', 'fail', 'skipped']);
  });

  it('refuses generations for a task it does not have, before running anything', async () => {
    await expect(
      scoreCruxeval(pool, [task], { sample_9: ['2'], sample_404: ['1'] }, { mode: 'output' }),
    ).rejects.toThrow('generations for an unknown CRUXEval task: sample_404');
  });
});
