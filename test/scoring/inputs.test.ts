// What the scoring functions say about bad input, and the χ² p-value against an independent
// erfc. No Python runs here. (Written for the undetected mutants of src/scoring.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedFlips } from '../../src/scoring/compare.js';
import { scoreTask, summarise, type GenerationVerdict } from '../../src/scoring/cruxeval.js';
import { readCruxevalTasks, readGenerations, readReleasedVerdicts } from '../../src/scoring/files.js';
import { mcnemar } from '../../src/scoring/mcnemar.js';
import { passAtK } from '../../src/scoring/passk.js';
import { ExecPool } from '../../src/scoring/pool.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

afterAll(cleanTempDirs);

/** erfc by the Maclaurin series of erf (exact to ~1e-12 for z < 3): a route independent of the code's polynomial. */
function erfcSeries(z: number): number {
  let term = z;
  let sum = z;
  for (let n = 1; n < 200; n++) {
    term *= (-z * z) / n;
    sum += term / (2 * n + 1);
  }
  return 1 - (2 / Math.sqrt(Math.PI)) * sum;
}

describe('counts that cannot be', () => {
  it('pass@k refuses a negative count of correct samples', () => {
    expect(() => passAtK(5, -1, 1)).toThrow('pass@k needs integers 0 <= c <= n and k >= 1, got n=5 c=-1 k=1');
  });

  it('McNemar refuses non-integer or negative counts on either side, saying which', () => {
    expect(() => mcnemar(1.5, 2)).toThrow(new RangeError('McNemar needs counts b, c >= 0, got b=1.5 c=2'));
    expect(() => mcnemar(2, 1.5)).toThrow('McNemar needs counts b, c >= 0, got b=2 c=1.5');
    expect(() => mcnemar(2, -1)).toThrow('McNemar needs counts b, c >= 0, got b=2 c=-1');
  });

  it('a pool refuses a hash seed out of range and non-positive limits before starting anything', () => {
    expect(() => new ExecPool({ hashseed: -1 })).toThrow('hash seed must be an integer 0..4294967295, got -1');
    expect(() => new ExecPool({ hashseed: 2 ** 32 })).toThrow(
      'hash seed must be an integer 0..4294967295, got 4294967296',
    );
    expect(() => new ExecPool({ timeout: 0 })).toThrow('timeout and memoryMb must be positive');
    expect(() => new ExecPool({ memoryMb: -5 })).toThrow('timeout and memoryMb must be positive');
  });
});

describe("McNemar's asymptotic p-value", () => {
  it('matches P(χ²₁ > x) = erfc(√(x/2)) to 1e-6 relative, from small to large statistics', () => {
    // (b, c) → x = (|b − c| − 1)² / (b + c): 0.1 to 12 (the series loses digits past z = 3).
    for (const [b, c] of [
      [4, 6],
      [3, 7],
      [1, 7],
      [2, 12],
      [10, 30],
      [5, 25],
      [100, 141],
    ]) {
      const r = mcnemar(b, c);
      const want = erfcSeries(Math.sqrt(r.chi2! / 2));
      expect(Math.abs(r.chi2P! - want) / want, `b=${b} c=${c}`).toBeLessThan(1e-6);
    }
  });
});

describe('comparing seeds', () => {
  const v = (sample: number): GenerationVerdict => ({
    id: `sample_1#${sample}`,
    task: 'sample_1',
    sample,
    generation: `g${sample}`,
    status: 'pass',
    seconds: 0,
    rule: false,
  });
  it('names a generation scored under one seed only', () => {
    const a = summarise('output', 0, 'false', [scoreTask('sample_1', [v(0), v(1)], 'false')]);
    const b = summarise('output', 5, 'false', [scoreTask('sample_1', [v(0)], 'false')]);
    expect(() => seedFlips(a, b)).toThrow('generation sample_1#1 was scored under seed 0 only');
  });
});

describe('reading the benchmark files: the messages', () => {
  const dir = tempDir('stepscope-scoring-inputs-');
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('a task line that is not JSON says why; one that is not an object says what is expected', () => {
    const broken = file('broken.jsonl', '{"id": \n');
    expect(() => readCruxevalTasks(broken)).toThrow(new RegExp(`^${broken}:1: expected a JSON object \\(.+\\)$`));
    const list = file('list.jsonl', '[1, 2]\n');
    expect(() => readCruxevalTasks(list)).toThrow(`${list}:1: expected a JSON object with id, code, input, output`);
  });

  it('a generations file that is not one object, or whose lists are not an object, says so', () => {
    const array = file('array.json', '[]');
    expect(() => readGenerations(array)).toThrow(new Error(`${array}: expected one JSON object`));
    const rawList = file('raw-list.json', JSON.stringify({ raw_generations: [] }));
    expect(() => readGenerations(rawList)).toThrow(/: expected raw_generations to be an object of task id → list$/);
  });

  it('a released verdict that is not a boolean is named', () => {
    const p = file('verdicts.json', JSON.stringify({ raw_scored_generations: { sample_0: [true, 1] } }));
    expect(() => readReleasedVerdicts(p)).toThrow(
      `${p}: raw_scored_generations "sample_0"[1] must be a boolean, got 1`,
    );
  });
});
