// Two edge cases of the export's plan and cut, on their own: a stored trajectory whose text
// does not have one `<|frame_sep|>` per state (a repr holding a separator token) is refused
// by name rather than cut wrongly, and a program whose split point falls past the sum of
// the fractions (they add up to 1 only within rounding) goes to the last split.
import { describe, expect, it } from 'vitest';
import { splitIndex } from '../../src/export/plan.js';
import { frameEnds, stepPromptTarget } from '../../src/export/steps.js';

const F = '<|frame_sep|>';
const A = '<|action_sep|>';
const END = '<|trace_end|><|end_of_text|>';

describe('cutting a stored trajectory into steps', () => {
  const text = `<|begin_of_text|>ctx${F}s0${A}<|step_over|>${F}s1${A}<|step_into|>${F}s2${END}`;

  it("two actions: three separators, each step's prompt ends at one, its target is the state after it", () => {
    const ends = frameEnds(text, 2, 7);
    expect(ends.length).toBe(3);
    expect(stepPromptTarget(text, ends, 0)).toEqual({
      prompt: `<|begin_of_text|>ctx${F}s0${A}<|step_over|>${F}`,
      target: 's1',
    });
    expect(stepPromptTarget(text, ends, 1)).toEqual({
      prompt: text.slice(0, text.lastIndexOf(F) + F.length),
      target: 's2',
    });
  });

  it('a text with a separator more or less than its actions call for is refused, naming the trajectory and the counts', () => {
    const refusal = (t: string, actions: number) => {
      try {
        frameEnds(t, actions, 7);
      } catch (e) {
        return { message: (e as Error).message, code: (e as { code?: string }).code };
      }
      return undefined;
    };
    expect(refusal(text, 3)).toEqual({
      message: `trajectory 7: its text has 3 ${F} for 3 actions (expected 4); a repr may contain a separator token`,
      code: 'bad-input',
    });
    expect(refusal(text.replace(`s1`, `s1 ${F}`), 2)).toMatchObject({
      message: expect.stringContaining(`its text has 4 ${F} for 2 actions (expected 3)`),
      code: 'bad-input',
    });
  });
});

describe('the split of a split point', () => {
  it('[0, f0) is the first split, [f0, f0 + f1) the second …; a point past the sum goes to the last', () => {
    expect(splitIndex(0, [0.5, 0.5])).toBe(0);
    expect(splitIndex(0.49, [0.5, 0.5])).toBe(0);
    expect(splitIndex(0.5, [0.5, 0.5])).toBe(1);
    expect(splitIndex(0.51, [0.5, 0.5])).toBe(1);
    expect(splitIndex(0.95, [0.8, 0.1, 0.1])).toBe(2);
    expect(splitIndex(1 - 1e-12, [0.5, 0.5 - 1e-10])).toBe(1);
    expect(splitIndex(1 - 1e-12, [1 - 1e-9 / 2])).toBe(0);
  });
});
