// The curated export's `--select` and `--split` languages (docs/export.md "Selecting" and
// "Splits, by program"), read directly: what each clause becomes in the filter, and the whole
// message a user gets for a clause the command line or the Export dialog refuses.
import { describe, expect, it } from 'vitest';
import { isTrainingSplit, parseSelect, parseSplit } from '../../src/semantics/export-select.js';

/** The refusal of `fn` as the user sees it: error class, code and the whole message. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    const err = e as Error & { code?: string };
    return `${err.name} ${err.code}: ${err.message}`;
  }
  return 'accepted';
}
const selectRefusal = (...clauses: string[]) => refusal(() => parseSelect(clauses));
const splitRefusal = (text: string) => refusal(() => parseSplit(text));

const KEYS =
  'labels-any, labels-all, labels-none, annotator, run, set, action, direction, exit, name, length, ' +
  'verdict.event, verdict.src, verdict.locals, verdict.arg, verdict.all, verdict.exec, verdict.alt, verdict.correct, source, sql';
const ACTIONS = 'step_into, step_over, step_return, breakpoint, continue, inv_step_into, inv_step_over, inv_step_call';

describe('--select: each key and what it selects', () => {
  it('no clause selects everything', () => {
    expect(parseSelect([])).toEqual({});
  });

  it('list keys: comma-separated, blanks trimmed, empty items dropped', () => {
    expect(parseSelect(['labels-any= data.wrong_value , ,control.wrong_branch,'])).toEqual({
      labelsAny: ['data.wrong_value', 'control.wrong_branch'],
    });
    expect(parseSelect(['labels-all=a,b'])).toEqual({ labelsAll: ['a', 'b'] });
    expect(parseSelect(['labels-none=a'])).toEqual({ labelsNone: ['a'] });
    expect(parseSelect(['run=r1,r2'])).toEqual({ run: ['r1', 'r2'] });
    expect(parseSelect(['set=crux-in, crux-out'])).toEqual({ set: ['crux-in', 'crux-out'] });
  });

  it('keys of a fixed vocabulary: actions, direction, exits, source', () => {
    expect(parseSelect(['action=step_into,inv_step_call'])).toEqual({ action: ['step_into', 'inv_step_call'] });
    expect(parseSelect(['direction=inverse'])).toEqual({ direction: 'inverse' });
    expect(parseSelect(['direction= forward '])).toEqual({ direction: 'forward' });
    expect(parseSelect(['exit=error,never'])).toEqual({ exit: ['error', 'never'] });
    expect(parseSelect(['source=items'])).toEqual({ source: 'items' });
    expect(parseSelect(['source=trajectories'])).toEqual({ source: 'trajectories' });
  });

  it('single-value keys: annotator and name are trimmed, a SQL condition is kept as typed', () => {
    expect(parseSelect(['annotator= ada '])).toEqual({ annotator: 'ada' });
    expect(parseSelect(['annotator=rule:off-by-one'])).toEqual({ annotator: 'rule:off-by-one' });
    expect(parseSelect(['name= sample_1* '])).toEqual({ name: 'sample_1*' });
    // Only the first '=' separates: the condition keeps its own.
    expect(parseSelect(["sql= pr.finish = 'length' "])).toEqual({ sql: " pr.finish = 'length' " });
  });

  it('blanks around the key are ignored', () => {
    expect(parseSelect([' exit =normal'])).toEqual({ exit: ['normal'] });
  });

  it('length: N, N..M, N.. and ..M, numbers of several digits, blanks around', () => {
    expect(parseSelect(['length=5'])).toEqual({ minLength: 5, maxLength: 5 });
    expect(parseSelect(['length= 12 '])).toEqual({ minLength: 12, maxLength: 12 });
    expect(parseSelect(['length=3..17'])).toEqual({ minLength: 3, maxLength: 17 });
    expect(parseSelect(['length=3..3'])).toEqual({ minLength: 3, maxLength: 3 });
    expect(parseSelect(['length=10..'])).toEqual({ minLength: 10, maxLength: undefined });
    expect(parseSelect(['length=..12'])).toEqual({ minLength: undefined, maxLength: 12 });
  });

  it('verdicts: right/1/pass and wrong/0/fail, one key per field, merged', () => {
    for (const v of ['right', '1', 'pass', ' right '])
      expect(parseSelect([`verdict.all=${v}`]), v).toEqual({ verdicts: { all: 1 } });
    for (const v of ['wrong', '0', 'fail'])
      expect(parseSelect([`verdict.correct=${v}`]), v).toEqual({ verdicts: { correct: 0 } });
    expect(
      parseSelect([
        'verdict.event=right',
        'verdict.src=wrong',
        'verdict.locals=1',
        'verdict.arg=0',
        'verdict.exec=pass',
        'verdict.alt=fail',
      ]),
    ).toEqual({
      verdicts: { event: 1, src: 0, locals: 1, arg: 0, exec: 1, alt: 0 },
    });
  });

  it('every clause holds: one filter of all the keys', () => {
    expect(
      parseSelect([
        'labels-any=a',
        'labels-all=b',
        'labels-none=c',
        'annotator=ada',
        'run=r',
        'set=s',
        'action=continue',
        'direction=forward',
        'exit=normal',
        'name=x*',
        'length=..4',
        'verdict.all=1',
        'source=items',
        'sql=1',
      ]),
    ).toEqual({
      labelsAny: ['a'],
      labelsAll: ['b'],
      labelsNone: ['c'],
      annotator: 'ada',
      run: ['r'],
      set: ['s'],
      action: ['continue'],
      direction: 'forward',
      exit: ['normal'],
      name: 'x*',
      minLength: undefined,
      maxLength: 4,
      verdicts: { all: 1 },
      source: 'items',
      sql: '1',
    });
  });
});

describe('--select: the refusals, whole', () => {
  it('an unknown key, or no key, names the keys', () => {
    expect(selectRefusal('colour=red')).toBe(
      `UserError bad-input: --select "colour=red": expected KEY=VALUE with KEY one of ${KEYS}`,
    );
    expect(selectRefusal('=red')).toBe(
      `UserError bad-input: --select "=red": expected KEY=VALUE with KEY one of ${KEYS}`,
    );
    expect(selectRefusal('verdict.money=right')).toBe(
      `UserError bad-input: --select "verdict.money=right": expected KEY=VALUE with KEY one of ${KEYS}`,
    );
  });

  it('a key without a value', () => {
    expect(selectRefusal('exit')).toBe('UserError bad-input: --select "exit": expected a value after exit=');
    expect(selectRefusal('exit=')).toBe('UserError bad-input: --select "exit=": expected a value after exit=');
    expect(selectRefusal('annotator=   ')).toBe(
      'UserError bad-input: --select "annotator=   ": expected a value after annotator=',
    );
  });

  it('a list of nothing but commas', () => {
    expect(selectRefusal('labels-any=, ,')).toBe(
      'UserError bad-input: --select "labels-any=, ,": expected at least one value after =',
    );
  });

  it('a key given twice, even the same clause', () => {
    expect(selectRefusal('exit=normal', 'exit=error')).toBe(
      'UserError bad-input: --select "exit=error": expected exit once (give several values comma-separated)',
    );
    expect(selectRefusal('verdict.all=1', 'verdict.all=1')).toBe(
      'UserError bad-input: --select "verdict.all=1": expected verdict.all once (give several values comma-separated)',
    );
  });

  it('a value outside the vocabulary names the allowed ones and the culprit', () => {
    expect(selectRefusal('action=step_into,jump')).toBe(
      `UserError bad-input: --select "action=step_into,jump": expected values among ${ACTIONS} (got "jump")`,
    );
    expect(selectRefusal('exit=normal,crashed')).toBe(
      'UserError bad-input: --select "exit=normal,crashed": expected values among normal, error, never (got "crashed")',
    );
    expect(selectRefusal('direction=backward')).toBe(
      'UserError bad-input: --select "direction=backward": expected values among forward, inverse (got "backward")',
    );
    expect(selectRefusal('source=runs')).toBe(
      'UserError bad-input: --select "source=runs": expected values among items, trajectories (got "runs")',
    );
  });

  it('direction and source take one value', () => {
    expect(selectRefusal('direction=forward,inverse')).toBe(
      'UserError bad-input: --select "direction=forward,inverse": expected one value',
    );
    expect(selectRefusal('source=items,trajectories')).toBe(
      'UserError bad-input: --select "source=items,trajectories": expected one value',
    );
  });

  it('a length that is not N, N..M, N.. or ..M, or a range backwards', () => {
    const shape = 'expected a length N, a range N..M, N.. or ..M';
    for (const v of ['..', 'x', 'x5', '5x', '3-7', '3...7', '-1', '1.5', '3 ..7']) {
      expect(selectRefusal(`length=${v}`), v).toBe(`UserError bad-input: --select "length=${v}": ${shape}`);
    }
    expect(selectRefusal('length=7..3')).toBe(
      'UserError bad-input: --select "length=7..3": expected a range whose start is not after its end',
    );
    expect(selectRefusal('length=4..3')).toBe(
      'UserError bad-input: --select "length=4..3": expected a range whose start is not after its end',
    );
  });

  it('a verdict that is neither right nor wrong', () => {
    expect(selectRefusal('verdict.all=maybe')).toBe(
      'UserError bad-input: --select "verdict.all=maybe": expected right or wrong (1 or 0)',
    );
    expect(selectRefusal('verdict.src=right,wrong')).toBe(
      'UserError bad-input: --select "verdict.src=right,wrong": expected right or wrong (1 or 0)',
    );
  });
});

describe('--split', () => {
  it('names and fractions adding up to 1, in the order given', () => {
    expect(parseSplit('train=1')).toEqual([{ name: 'train', fraction: 1 }]);
    expect(parseSplit(' train=0.9 , validation=0.1 ,')).toEqual([
      { name: 'train', fraction: 0.9 },
      { name: 'validation', fraction: 0.1 },
    ]);
    expect(parseSplit('train-a_2=.25,Test=0.75')).toEqual([
      { name: 'train-a_2', fraction: 0.25 },
      { name: 'Test', fraction: 0.75 },
    ]);
    expect(parseSplit('a=0.5,b=0.25,c=0.125,d=.125')).toEqual([
      { name: 'a', fraction: 0.5 },
      { name: 'b', fraction: 0.25 },
      { name: 'c', fraction: 0.125 },
      { name: 'd', fraction: 0.125 },
    ]);
    // 0.1 + 0.2 is not 0.3 in floating point: the sum is compared within 1e-9.
    expect(parseSplit('a=0.1,b=0.2,c=0.7')).toHaveLength(3);
  });

  it('a pair that is not NAME=FRACTION is named', () => {
    const pairs = (text: string, got: string) =>
      `UserError bad-input: --split ${JSON.stringify(text)}: expected NAME=FRACTION pairs, e.g. train=0.9,validation=0.1 (got ${JSON.stringify(got)})`;
    expect(splitRefusal('train=0.9,validation')).toBe(pairs('train=0.9,validation', 'validation'));
    expect(splitRefusal('_train=1')).toBe(pairs('_train=1', '_train=1'));
    expect(splitRefusal('9train=1')).toBe(pairs('9train=1', '9train=1'));
    expect(splitRefusal('train=1x')).toBe(pairs('train=1x', 'train=1x'));
    expect(splitRefusal('train=1.')).toBe(pairs('train=1.', 'train=1.'));
    expect(splitRefusal('train=-1')).toBe(pairs('train=-1', 'train=-1'));
    expect(splitRefusal('train=90%')).toBe(pairs('train=90%', 'train=90%'));
    expect(splitRefusal('tr ain=1')).toBe(pairs('tr ain=1', 'tr ain=1'));
  });

  it('nothing to split into', () => {
    expect(splitRefusal('')).toBe('UserError bad-input: --split: expected at least one NAME=FRACTION');
    expect(splitRefusal(' , ')).toBe('UserError bad-input: --split: expected at least one NAME=FRACTION');
  });

  it('a split name twice', () => {
    expect(splitRefusal('train=0.5,train=0.5')).toBe(
      'UserError bad-input: --split "train=0.5,train=0.5": each split name once',
    );
  });

  it('fractions that do not add up to 1, or a split of nothing, with the sum', () => {
    const sum = (text: string, s: string) =>
      `UserError bad-input: --split ${JSON.stringify(text)}: expected positive fractions adding up to 1 (they add up to ${s})`;
    expect(splitRefusal('train=0.9')).toBe(sum('train=0.9', '0.9'));
    expect(splitRefusal('train=10')).toBe(sum('train=10', '10'));
    expect(splitRefusal('train=0.9,validation=0.2')).toBe(sum('train=0.9,validation=0.2', String(0.9 + 0.2)));
    expect(splitRefusal('train=1,validation=0')).toBe(sum('train=1,validation=0', '1'));
    expect(splitRefusal('train=1,validation=0.0')).toBe(sum('train=1,validation=0.0', '1'));
  });

  it('the sum is written as a person would add it, without floating-point noise', () => {
    const sum = (text: string, s: string) =>
      `UserError bad-input: --split ${JSON.stringify(text)}: expected positive fractions adding up to 1 (they add up to ${s})`;
    expect(splitRefusal('train=0.1,validation=0.2')).toBe(sum('train=0.1,validation=0.2', '0.3'));
    expect(splitRefusal('a=0.7,b=0.1,c=0.1')).toBe(sum('a=0.7,b=0.1,c=0.1', '0.9'));
    expect(splitRefusal('a=0.333333333333333,b=0.333333333333333')).toBe(
      sum('a=0.333333333333333,b=0.333333333333333', '0.666666666667'),
    );
  });
});

describe('training splits (the leakage guard)', () => {
  it('are the splits whose name starts with train, in any case', () => {
    expect(['train', 'train-2', 'training', 'TRAIN', 'Train_small'].filter(isTrainingSplit)).toEqual([
      'train',
      'train-2',
      'training',
      'TRAIN',
      'Train_small',
    ]);
    expect(['validation', 'test', 'pretrain', 'my-train', 'tra'].filter(isTrainingSplit)).toEqual([]);
  });
});
