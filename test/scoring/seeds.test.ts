// Scoring under a second hash seed lists the verdicts that are luck of the hash order.
// The hash-seed case of test/data/cruxeval/PROVENANCE.md: GPT-4's input predictions for sample_664 are f({"3", "4"}), a
// set of strings whose iteration order depends on PYTHONHASHSEED: all 10 fail under seed 0
// and pass under seed 5.
import { describe, expect, it } from 'vitest';
import { readCruxevalTasks, readGenerations } from '../../src/scoring/files.js';
import { scoreUnderTwoSeeds } from '../../src/scoring/seeds.js';
import { cruxevalDir, cruxevalPath } from '../semantics/helpers.js';

const data = cruxevalDir;

describe('hash-seed flips', () => {
  it('finds the GPT-4 input predictions of sample_664 that pass under seed 5 and fail under seed 0', async () => {
    const tasks = readCruxevalTasks(cruxevalPath);
    const all = readGenerations(`${data}/leaderboard/gpt-4-0613_temp0.2_input.json`).generations;
    const generations = { sample_664: all.sample_664, sample_0: all.sample_0 };
    const { scores, flips } = await scoreUnderTwoSeeds(tasks, generations, {
      mode: 'input',
      seeds: [0, 5],
      pool: { workers: 2 },
    });
    expect(scores.map((s) => s.hashseed)).toEqual([0, 5]);
    expect(scores[0].tasks.find((t) => t.id === 'sample_664')!.c).toBe(0);
    expect(scores[1].tasks.find((t) => t.id === 'sample_664')!.c).toBe(10);
    expect(flips).toHaveLength(10);
    for (const [i, flip] of flips.entries()) {
      expect(flip).toMatchObject({ task: 'sample_664', sample: i, status: { 0: 'fail', 5: 'pass' } });
      expect(flip.generation).toMatch(/^f\(\{"3", "4"\}\)|^f\(\{'3', '4'\}\)/);
    }
    // sample_0 does not depend on the seed: same verdicts, no flips listed.
    expect(scores[0].tasks.find((t) => t.id === 'sample_0')!.results).toEqual(
      scores[1].tasks.find((t) => t.id === 'sample_0')!.results,
    );
  }, 300_000);
});
