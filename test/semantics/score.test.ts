/**
 * score.ts beyond test/predictions/score.test.ts (which scores hand-made completions): which
 * fields a truth has, a format error where the truth has an arg, and jsonEqual on every kind
 * of JSON value (the prediction overlay compares any values with it, lists included).
 */
import { describe, expect, it } from 'vitest';
import { applicable, jsonEqual, scoreCompletion, type TargetFields } from '../../src/semantics/index.js';

const ret: TargetFields = { event: 'return', src: '    return n', arg: '2' };

describe('applicable fields', () => {
  it('the event always, the others when the truth has them (an arg of None included)', () => {
    expect(applicable({ event: 'exit_normal' })).toEqual({ event: true, src: false, locals: false, arg: false });
    expect(applicable({ event: 'line', src: 'x = 1', locals: {} })).toEqual({
      event: true,
      src: true,
      locals: true,
      arg: false,
    });
    expect(applicable({ event: 'return', src: 'return', arg: null })).toEqual({
      event: true,
      src: true,
      locals: false,
      arg: true,
    });
  });
});

describe('a format error', () => {
  it('is wrong on the arg of a return, with nothing read', () => {
    expect(scoreCompletion(ret, 'it returns 2')).toMatchObject({
      em: { event: false, src: false, locals: null, arg: false, all: false },
      parsed: null,
    });
  });

  it('a readable completion keeps what was read, and no error', () => {
    expect(scoreCompletion(ret, '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"')).toEqual({
      em: { event: true, src: true, locals: null, arg: true, all: true },
      parseError: null,
      parsed: { event: 'return', src: '    return n', arg: '2' },
    });
  });
});

describe('jsonEqual', () => {
  it('equal values of every kind', () => {
    const same: [unknown, unknown][] = [
      [null, null],
      [true, true],
      [2, 2],
      ['', ''],
      ['x', 'x'],
      [[], []],
      [{}, {}],
      [
        [1, 'a', null],
        [1, 'a', null],
      ],
      [
        [['a'], { k: [1] }],
        [['a'], { k: [1] }],
      ],
      [
        { a: 1, b: [2, { c: 'd' }] },
        { b: [2, { c: 'd' }], a: 1 },
      ],
    ];
    for (const [a, b] of same) expect(jsonEqual(a as never, b as never), JSON.stringify([a, b])).toBe(true);
  });

  it('different values: kinds, lengths, order of a list, one element, keys', () => {
    const different: [unknown, unknown][] = [
      // A string, a number or null against an object: an empty one has no keys either.
      ['', {}],
      [{}, ''],
      [null, {}],
      [{}, null],
      [0, {}],
      [null, []],
      [[], null],
      // A list is not an object, even with the same indices, nor an object with a length.
      [[], {}],
      [{}, []],
      [['x'], { 0: 'x' }],
      [{ length: 0 }, []],
      [[], { length: 0 }],
      [[1], [1, 2]],
      [[1, 2], [1]],
      [
        [1, 2],
        [2, 1],
      ],
      [
        [1, 2],
        [1, 3],
      ],
      [
        [1, 2],
        [3, 2],
      ],
      [[[1]], [[2]]],
      [[{ a: 1 }], [{ a: 2 }]],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1 }, { b: 1 }],
      [{ a: 1 }, { a: '1' }],
      ['2', 2],
      [null, 'null'],
    ];
    for (const [a, b] of different) expect(jsonEqual(a as never, b as never), JSON.stringify([a, b])).toBe(false);
  });
});
