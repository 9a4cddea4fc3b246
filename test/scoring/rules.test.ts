// CRUXEval's skip and fallback rules on hand-made verdicts, the released-file readers and
// the verdict comparisons. Rule texts: the CRUXEval benchmark's evaluation/utils_general.py
// (facebookresearch/cruxeval).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareWithReleased, seedFlips } from '../../src/scoring/compare.js';
import {
  benchmarkResults,
  scoreTask,
  skipReason,
  summarise,
  type CruxevalTask,
  type GenerationVerdict,
} from '../../src/scoring/cruxeval.js';
import { readCruxevalTasks, readGenerations, readReleasedVerdicts } from '../../src/scoring/files.js';
import type { Status } from '../../src/scoring/types.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

afterAll(cleanTempDirs);

// sample_518 of the benchmark, with a text CodeLlama-7B (temperature 0.8) really produced.
const task: CruxevalTask = {
  id: 'sample_518',
  code: 'def f(text):\n    return not text.isdecimal()',
  input: "'the speed is -36 miles per hour'",
  output: 'True',
};

function v(status: Status, rule = false, sample = 0, task = 'sample_1'): GenerationVerdict {
  return { id: `${task}#${sample}`, task, sample, generation: `g${sample}`, status, seconds: 0, rule };
}

describe('skip rule', () => {
  it('skips an output prediction that contains the call f(<input>) itself', () => {
    expect(skipReason('output', task, "assert f('the speed is -36 miles per hour')")).toMatch(
      /contains the call f\('the speed/,
    );
    expect(skipReason('output', task, 'True')).toBeNull();
    expect(skipReason('output', task, "f('other text')")).toBeNull(); // another call is run
  });

  it('skips an input prediction without any f( call', () => {
    expect(skipReason('input', task, "'the speed'")).toMatch(/must contain a call f\(/);
    expect(skipReason('input', task, "f('x')")).toBeNull();
    expect(skipReason('input', task, "assert f('x') == True")).toBeNull();
  });
});

describe('the boolean list per task', () => {
  const mixed = [v('pass'), v('skipped', true), v('fail'), v('error'), v('timeout')];
  const none = [v('skipped', true), v('fail'), v('error')];

  it("rule 'false' (the released files): a skipped generation is a wrong answer, n unchanged", () => {
    expect(benchmarkResults(mixed, 'false')).toEqual([true, false, false, false, false]);
    expect(benchmarkResults(none, 'false')).toEqual([false, false, false]);
  });

  it("rule 'drop' (the later harness): skipped ones leave the list, [False] * n when none passes", () => {
    expect(benchmarkResults(mixed, 'drop')).toEqual([true, false, false, false]);
    expect(benchmarkResults(none, 'drop')).toEqual([false, false, false]);
  });

  it('pass@k follows the list: the two rules differ only with a skip beside a pass', () => {
    const a = scoreTask('sample_1', mixed, 'false');
    expect(a).toMatchObject({ n: 5, c: 1, pass10: null });
    expect(a.pass1).toBeCloseTo(0.2, 15);
    const b = scoreTask('sample_1', mixed, 'drop');
    expect(b).toMatchObject({ n: 4, c: 1 });
    expect(b.pass1).toBeCloseTo(0.25, 15);
    expect(scoreTask('sample_1', none, 'drop')).toMatchObject({ n: 3, c: 0, pass1: 0 });
  });

  it('summarises over tasks as percentages and counts every verdict', () => {
    const s = summarise('output', 0, 'false', [
      scoreTask('a', mixed, 'false'),
      scoreTask('b', [v('pass'), v('pass')], 'false'),
    ]);
    expect(s.pass1).toBeCloseTo(60, 12); // (0.2 + 1) / 2
    expect(s.pass5).toBeNull(); // task b has 2 samples
    expect(s.generations).toBe(7);
    expect(s.counts).toEqual({ pass: 3, fail: 1, error: 1, timeout: 1, skipped: 1 });
  });
});

describe('comparisons', () => {
  const ours = summarise('input', 0, 'false', [
    scoreTask('sample_1', [v('pass', false, 0), v('fail', false, 1)], 'false'),
    scoreTask('sample_2', [v('pass', false, 0, 'sample_2')], 'false'),
  ]);

  it('with released verdicts: agreement by position, unmatched tasks listed', () => {
    const c = compareWithReleased(ours, { sample_1: [true, true], sample_2: [true, false], sample_3: [false] });
    expect(c).toEqual({
      compared: 2,
      agree: 1,
      differ: [{ task: 'sample_1', index: 1, ours: false, released: true }],
      unmatched: ['sample_2', 'sample_3'],
    });
  });

  it('across hash seeds: the generations whose pass flips', () => {
    const other = summarise('input', 5, 'false', [
      scoreTask('sample_1', [v('fail', false, 0), v('error', false, 1)], 'false'),
      scoreTask('sample_2', [v('pass', false, 0, 'sample_2')], 'false'),
    ]);
    expect(seedFlips(ours, other)).toEqual([
      { task: 'sample_1', sample: 0, generation: 'g0', status: { 0: 'pass', 5: 'fail' } },
    ]);
    expect(() => seedFlips(ours, ours)).toThrow(/both scores were computed under hash seed 0/);
  });
});

describe('reading the benchmark files', () => {
  const dir = tempDir('stepscope-scoring-');
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('reads tasks (no trailing newline) and names the line of a bad record', () => {
    const good = file('ok.jsonl', JSON.stringify(task) + '\n' + JSON.stringify({ ...task, id: 'sample_2' }));
    expect(readCruxevalTasks(good).map((t) => t.id)).toEqual(['sample_518', 'sample_2']);
    const bad = file('bad.jsonl', JSON.stringify(task) + '\n{"id": "sample_2", "code": 3}\n');
    expect(() => readCruxevalTasks(bad)).toThrow(`${bad}:2: expected "code" to be a string`);
    const broken = file('broken.jsonl', '\n\n{"id": \n');
    expect(() => readCruxevalTasks(broken)).toThrow(new RegExp(`${broken}:3: expected a JSON object`));
  });

  it('reads generations.json and the raw_generations of a scored file, never its verdicts', () => {
    const plain = file('generations.json', JSON.stringify({ sample_0: ['1', '2'] }));
    expect(readGenerations(plain)).toEqual({ format: 'generations', generations: { sample_0: ['1', '2'] } });
    const scored = file(
      'scored.json',
      JSON.stringify({
        raw_generations: { sample_0: ['3'] },
        raw_scored_generations: { sample_0: [true] },
        pass_at_1: 100,
      }),
    );
    expect(readGenerations(scored)).toEqual({ format: 'scored', generations: { sample_0: ['3'] } });
    expect(readReleasedVerdicts(scored)).toEqual({ sample_0: [true] });
  });

  it('says what is wrong with a generations file', () => {
    const notList = file('a.json', JSON.stringify({ sample_0: '1' }));
    expect(() => readGenerations(notList)).toThrow(`${notList}: "sample_0" must be a list of strings`);
    const notString = file('b.json', JSON.stringify({ raw_generations: { sample_4: ['1', 2] } }));
    expect(() => readGenerations(notString)).toThrow(
      `${notString}: raw_generations "sample_4"[1] must be a string, got 2`,
    );
    const notJson = file('c.json', '{"sample_0": [');
    expect(() => readGenerations(notJson)).toThrow(new RegExp(`^${notJson}: expected one JSON object`));
    expect(() => readGenerations(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read/);
    expect(() => readReleasedVerdicts(notList)).toThrow(/expected a scored file with "raw_scored_generations"/);
  });
});
