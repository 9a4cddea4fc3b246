// Annotation targets (src/annotate/target.ts): the one key a target is stored, agreed on and
// exported under, and its reading back: the refusals' words, anchored patterns (a key with text
// before or after is not a key), ids and actions longer than one character, and a state target
// read back without an action field.
import { describe, expect, it } from 'vitest';
import { parseTargetKey, targetKey, type AnnotationTarget } from '../../src/annotate/target.js';
import { UserError } from '../../src/common/errors.js';

function refusal(t: AnnotationTarget): UserError {
  try {
    targetKey(t);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error(`expected ${JSON.stringify(t)} to be refused`);
}

describe('targetKey', () => {
  it('refuses half targets and unknown actions with a one-line bad-input error saying what a target is', () => {
    const both = refusal({ prediction: 1, trace: 2, seq: 3 });
    expect([both.message, both.code]).toEqual([
      'an annotation target is either a prediction id alone, or a trace id and a seq (and an action)',
      'bad-input',
    ]);
    const noSeq = refusal({ trace: 2 });
    expect([noSeq.message, noSeq.code]).toEqual([
      'an annotation target needs a prediction id, or a trace id and a seq',
      'bad-input',
    ]);
    const action = refusal({ trace: 2, seq: 3, action: 'Step_over' });
    expect([action.message, action.code]).toEqual([
      'unknown action "Step_over" in an annotation target: expected an action name such as step_over',
      'bad-input',
    ]);
  });

  it("an action is a lower-case name, then optionally a space and anything (a breakpoint's line)", () => {
    expect(targetKey({ trace: 2, seq: 3, action: 'breakpoint for x in xs:' })).toBe(
      'trace:2/seq:3/action:breakpoint for x in xs:',
    );
    for (const action of ['Step_over', 'step_over!', ' step_over', 'step_over\n'])
      expect(refusal({ trace: 2, seq: 3, action }).message, action).toMatch(/^unknown action /);
  });
});

describe('parseTargetKey', () => {
  it('reads back every key targetKey makes, with no field the target did not have', () => {
    const targets: AnnotationTarget[] = [
      { prediction: 0 },
      { prediction: 1234 },
      { trace: 12, seq: 345 },
      { trace: 7, seq: 0, action: 'inv_step_call' },
      { trace: 7, seq: 10, action: 'breakpoint return y' },
    ];
    for (const t of targets) expect(parseTargetKey(targetKey(t)), JSON.stringify(t)).toStrictEqual(t);
    expect(Object.keys(parseTargetKey('trace:1/seq:2')!)).toEqual(['trace', 'seq']);
  });

  it('is undefined for text around a key, and for anything else', () => {
    for (const key of [
      'xprediction:3',
      'prediction:3x',
      'xtrace:1/seq:2',
      'trace:1/seq:2x',
      'trace:1/seq:2/action:',
      'prediction:',
      'trace:1',
      '',
    ]) {
      expect(parseTargetKey(key), key).toBeUndefined();
    }
  });
});
