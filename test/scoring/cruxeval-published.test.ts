// The published CRUXEval figures, reproduced by running every generation (never by reading
// the released verdicts): CodeLlama-7B, temperature 0.2, 10 samples per task
// (../shared/data/cruxeval/generations/, README there). The released per-generation
// verdicts are compared afterwards as an independent check.
// The input file's figures and verdicts are checked on the execution pass of the command
// line's import (test/predictions/cruxeval-cli.test.ts), so its 2,548 distinct generations
// run once in the suite; scripts/verify-cruxeval.mjs runs both files, and the four
// leaderboard models, through this engine (too slow here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithReleased } from '../../src/scoring/compare.js';
import { scoreCruxeval, type CruxevalMode, type CruxevalTask } from '../../src/scoring/cruxeval.js';
import { readCruxevalTasks, readGenerations, readReleasedVerdicts } from '../../src/scoring/files.js';
import { ExecPool } from '../../src/scoring/pool.js';
import { cruxevalDir } from '../semantics/helpers.js';

const data = cruxevalDir;
const file = (mode: CruxevalMode) => `${data}/generations/sample_scored_codellama-7b_temp0.2_${mode}.json`;
let tasks: CruxevalTask[];
let pool: ExecPool;

beforeAll(() => {
  tasks = readCruxevalTasks(`${data}/cruxeval.jsonl`);
  pool = new ExecPool({ hashseed: 0 });
});
afterAll(() => pool.close());

// Published: output pass@1 34.2125, pass@5 40.2867
// (README of the data; CRUXEval leaderboard). Correct generations: 2,737 of 8,000.
const published = {
  output: { pass1: 34.2125, pass5: 40.2867, correct: 2737 },
};

describe.each(['output'] as const)('CodeLlama-7B temperature 0.2, CRUXEval-%s', (mode) => {
  it('reaches the published pass@1 and pass@5 by execution under PYTHONHASHSEED=0', async () => {
    const { generations } = readGenerations(file(mode));
    const score = await scoreCruxeval(pool, tasks, generations, { mode });
    expect(score.tasks).toHaveLength(800);
    expect(score.generations).toBe(8000);
    expect(score.counts.pass).toBe(published[mode].correct);
    expect(score.pass1).toBeCloseTo(published[mode].pass1, 9);
    expect(score.pass5).toBeCloseTo(published[mode].pass5, 4);
    expect(score.pass10).not.toBeNull();
    // Independent check: the released per-generation verdicts, joined by task id.
    const agreement = compareWithReleased(score, readReleasedVerdicts(file(mode)));
    expect(agreement).toEqual({ compared: 8000, agree: 8000, differ: [], unmatched: [] });
  }, 1_800_000);
});
