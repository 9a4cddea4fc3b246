/**
 * The pre-label rules on real model output: CodeLlama-7B's released CRUXEval generations
 * (test/data/cruxeval/generations, 800 tasks × 10), read in CRUXEval's own forms (a value
 * for output prediction, a call for input prediction). What is checked comes from the
 * benchmark's released verdicts, not from the rules: a passing input generation is a valid
 * alternative (or exactly the truth), a failing one an invalid input, a failing output one a
 * wrong value; and no generation makes a rule throw.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prelabel, type Suggestion } from '../../src/annotate/index.js';
import { parsePrediction, pyJsonObject, pyJsonString, type Prediction } from '../../src/semantics/index.js';
import { splitTop } from '../../src/annotate/prelabel/repr.js';
import { cruxevalDir, cruxevalPath } from '../semantics/helpers.js';

const dir = cruxevalDir;
const tasks: { id: string; code: string; input: string; output: string }[] = readFileSync(cruxevalPath, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const released = (task: 'input' | 'output') =>
  JSON.parse(readFileSync(`${dir}/generations/sample_scored_codellama-7b_temp0.2_${task}.json`, 'utf8')) as {
    raw_generations: Record<string, string[]>;
    raw_scored_generations: Record<string, boolean[]>;
  };

function read(text: string): Prediction {
  const p = parsePrediction(text);
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
}

/** f's parameter names, for tasks whose signature is plain names (no defaults, no *args). */
function params(code: string): string[] | undefined {
  const m = /^def f\(([^)]*)\):/m.exec(code);
  const names = m && splitTop(m[1], ',')!.filter((p) => p !== '');
  return names && names.every((n) => /^[A-Za-z_]\w*$/.test(n)) ? names : undefined;
}

const count = (all: Suggestion[][], label: string) => all.filter((s) => s.some((x) => x.label === label)).length;

describe('pre-labels on CodeLlama-7B CRUXEval generations', () => {
  it('output prediction (a value): failing generations are wrong values, passing ones get nothing', () => {
    const r = released('output');
    const pass: Suggestion[][] = [];
    const failed: Suggestion[][] = [];
    for (const t of tasks) {
      const truth = read(`<|return_sep|><|src_sep|>    return x<|arg_sep|>${pyJsonString(t.output)}`);
      r.raw_generations[t.id].forEach((g, j) => {
        const ok = r.raw_scored_generations[t.id][j];
        const s = prelabel({
          completion: g,
          completionForm: 'value',
          truth,
          direction: 'forward',
          action: 'step_return',
          execution: ok ? 'pass' : 'fail',
          source: t.code,
        });
        (ok ? pass : failed).push(s);
      });
    }
    expect(pass.length + failed.length).toBe(8000);
    expect(pass.length).toBe(2737); // the released count of correct answers (test/data/cruxeval/PROVENANCE.md)
    expect(pass.every((s) => s.length === 0)).toBe(true);
    expect(failed.every((s) => s.length > 0)).toBe(true);
    expect(count(failed, 'return.wrong_value')).toBe(failed.length);
  });

  it('input prediction (a call): passing generations other than the truth are valid alternatives, failing ones invalid inputs', () => {
    const r = released('input');
    let alternatives = 0;
    let exact = 0;
    let invalid = 0;
    let checked = 0;
    for (const t of tasks) {
      const names = params(t.code);
      const args = splitTop(t.input, ',')?.filter((a) => a !== '');
      if (!names || !args || args.length !== names.length) continue;
      const locals = Object.fromEntries(names.map((n, i) => [n, args[i]]));
      const truth = read(
        `<|inv_call_sep|><|src_sep|>${t.code.split('\n').find((l) => l.startsWith('def f('))}<|arg_sep|>${pyJsonObject(Object.entries(locals))}`,
      );
      r.raw_generations[t.id].forEach((g, j) => {
        const ok = r.raw_scored_generations[t.id][j];
        const s = prelabel({
          completion: g,
          completionForm: 'call',
          truth,
          direction: 'inverse',
          action: 'inv_step_call',
          execution: ok ? 'pass' : 'fail',
          source: t.code,
        });
        checked++;
        if (ok && s.length === 0) exact++;
        else if (ok) {
          expect(s.map((x) => x.label)).toEqual(['inverse.valid_alternative']);
          alternatives++;
        } else {
          expect(s.length).toBeGreaterThan(0);
          if (s[0].label === 'inverse.invalid_input') invalid++;
          else expect(s[0].label).toBe('format.unparseable');
        }
      });
    }
    expect(checked).toBe(8000); // every task's f takes plain positional parameters
    expect(exact + alternatives).toBe(2876); // the released count of correct answers (test/data/cruxeval/PROVENANCE.md)
    expect(alternatives).toBeGreaterThan(exact); // many inputs give the output (docs/semantics.md §8)
    expect(invalid).toBeGreaterThan(0);
  });
});
