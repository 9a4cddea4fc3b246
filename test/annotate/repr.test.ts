/**
 * The reading of Python reprs (src/annotate/prelabel/repr.ts): the type a repr shows, container
 * elements, sets, cut values and addresses; then as the rules use it: which type a value shows
 * (data.wrong_type), the same set in another order and an address-only difference
 * (truth.nondeterminism), and a call completion's arguments. Each case is one value written by
 * hand as Python 3 prints it; expected labels come from the default taxonomy's definitions.
 */
import { describe, expect, it } from 'vitest';
import {
  differsOnlyInAddresses,
  elements,
  isCut,
  reprType,
  sameSetOtherOrder,
} from '../../src/annotate/prelabel/repr.js';
import { INV_COUNT, labels, run } from './cases.js';

describe('reprType', () => {
  // Each repr as Python 3 prints it.
  const cases: [string, string | undefined][] = [
    ['1', 'int'],
    ['-12', 'int'],
    ['1.5', 'float'],
    ['1e+20', 'float'],
    ['inf', 'float'],
    ['nan', 'float'],
    ['1j', 'complex'],
    ['(1+2j)', 'complex'],
    ['True', 'bool'],
    ['None', 'None'],
    ["'1'", 'str'],
    ['"it\'s"', 'str'],
    ["b'ab'", 'bytes'],
    ['[1, 2]', 'list'],
    ['(1, 2)', 'tuple'],
    ['(1,)', 'tuple'],
    ['()', 'tuple'],
    ['{}', 'dict'],
    ["{'a': 1}", 'dict'],
    ['{1, 2}', 'set'],
    ['{(1, 2): 3}', 'dict'],
    ['set()', 'set'],
    ['frozenset({1})', 'frozenset'],
    ['deque([1])', 'deque'],
    ["Counter({'a': 2})", 'Counter'],
    ["ValueError('zero')", 'ValueError'],
    ['<__main__.Node object at 0x1>', 'Node'],
    ['<function f at 0x2>', 'function'],
    ["<class 'int'>", 'class'],
    ['<generator object g at 0x3>', 'generator'],
    ['[0, 1, 2, 3…<cut 900 chars>', 'list'],
    ["{'a': [1, 2…<cut 9 chars>", 'dict'],
    ['r', undefined],
    ['', undefined],
  ];
  for (const [repr, type] of cases) it(`${repr} is ${type}`, () => expect(reprType(repr)).toBe(type));
});

describe('repr elements, sets, cuts, addresses', () => {
  it('splits at top-level commas only, outside strings and brackets', () => {
    expect(elements("[1, (2, 3), 'a, b', {'k': [4, 5]}]")).toEqual(['1', '(2, 3)', "'a, b'", "{'k': [4, 5]}"]);
    expect(elements('(1,)')).toEqual(['1']);
    expect(elements('frozenset({1, 2})')).toEqual(['1', '2']);
    expect(elements('[1, 2…<cut 3 chars>')).toBeUndefined();
  });

  it('recognises the same set in another order, and nothing else', () => {
    expect(sameSetOtherOrder("{'b', 'a'}", "{'a', 'b'}")).toBe(true);
    expect(sameSetOtherOrder("{'a', 'b'}", "{'a', 'b'}")).toBe(false);
    expect(sameSetOtherOrder("{'a', 'b'}", "{'a', 'c'}")).toBe(false);
    expect(sameSetOtherOrder("{'a': 1, 'b': 2}", "{'b': 2, 'a': 1}")).toBe(false);
    expect(sameSetOtherOrder("['a', 'b']", "['b', 'a']")).toBe(false);
  });

  it('knows a cut repr and an address-only difference', () => {
    expect(isCut('[1, 2…<cut 12 chars>')).toBe(true);
    expect(isCut("'…<cut'")).toBe(false);
    expect(differsOnlyInAddresses('<A object at 0x1>', '<A object at 0x2>')).toBe(true);
    expect(differsOnlyInAddresses('<A object at 0x1>', '<B object at 0x1>')).toBe(false);
  });
});

const RET = {
  direction: 'forward' as const,
  action: 'step_return' as const,
  source: 'def f(n):\n    xs = g(n)\n    return xs\n',
};
const ret = (v: string) => `<|return_sep|><|src_sep|>    return xs<|arg_sep|>${JSON.stringify(v)}`;
/** The suggestions for a predicted return value against the true one. */
const returning = (predicted: string, truth: string) => run({ ...RET, truth: ret(truth), completion: ret(predicted) });

const WRONG_TYPE = ['data.wrong_type by value-type', 'return.wrong_value by arg-value'];
const WRONG_VALUE = ['return.wrong_value by arg-value'];
const SAME_SET = ['truth.nondeterminism by set-order'];
const ADDRESS = ['truth.nondeterminism by address-only'];

describe('the type a repr shows (data.wrong_type: "\'1\' for 1, a list for a tuple, None for a value")', () => {
  it("False is a bool like True: for 0 it is another type, and so is the string 'False' for it", () => {
    const got = returning('False', '0');
    expect(labels(got)).toEqual(WRONG_TYPE);
    expect(got[0].reason).toBe('the value is bool False, true int 0');
    expect(labels(returning("'False'", 'False'))).toEqual(WRONG_TYPE);
  });

  it('a bound method returned uncalled is a method, not an instance of the class its repr mentions', () => {
    // `return self.f` for `return self.f()`: the repr names the instance inside, A(x=1).
    const got = returning('<bound method A.f of A(x=1)>', 'A(x=1)');
    expect(labels(got)).toEqual(WRONG_TYPE);
    expect(got[0].reason).toMatch(/^the value is bound method .*, true A A\(x=1\)$/);
  });

  it("a set whose first element has no colon is a set, even when a later element's repr has one", () => {
    // `<Node: a>` is a user __repr__; the braces hold a set {1, node}, the truth a dict {1: node}.
    const got = returning('{1, <Node: a>}', '{1: <Node: a>}');
    expect(labels(got)).toEqual(WRONG_TYPE);
    expect(got[0].reason).toBe('the value is set {1, <Node: a>}, true dict {1: <Node: a>}');
  });

  it("a value written with a stray space, or copying the recorder's cut mark, still shows its type", () => {
    expect(labels(returning('2.0 ', '2'))).toEqual(WRONG_TYPE);
    const cut = returning('12…<cut 3 chars>', '1.5');
    expect(labels(cut)).toEqual(WRONG_TYPE);
    expect(cut[0].reason).toBe('the value is int 12…<cut 3 chars>, true float 1.5');
  });
});

describe('the same set in another order (truth.nondeterminism) and nothing else', () => {
  it('the same elements in another order are the same set', () => {
    expect(labels(returning("{'b', 'a'}", "{'a', 'b'}"))).toEqual(SAME_SET);
    expect(labels(returning('{3, 1, 2}', '{1, 2, 3}'))).toEqual(SAME_SET);
  });

  it('a set for a list, or a set for a frozenset, is another type even with the same elements', () => {
    expect(labels(returning("{'b', 'a'}", "['a', 'b']"))).toEqual(WRONG_TYPE);
    expect(labels(returning("{'b', 'a'}", "frozenset({'a', 'b'})"))).toEqual(WRONG_TYPE);
  });

  it('a set missing an element is a wrong value, not the same set', () => {
    expect(labels(returning("{'a'}", "{'a', 'b'}"))).toEqual(WRONG_VALUE);
    expect(labels(returning("{'b', 'a', 'c'}", "{'a', 'b'}"))).toEqual(WRONG_VALUE);
  });

  it('a set written with an open quote or a wrong closing bracket is a wrong value, and reading it does not crash', () => {
    expect(labels(returning("{'a, 'b'}", "{'b', 'a'}"))).toEqual(WRONG_VALUE);
    expect(labels(returning('{2, 1)', '{1, 2}'))).toEqual(WRONG_VALUE);
    expect(labels(returning('{2, (1}', '{1, 2}'))).toEqual(WRONG_VALUE);
    // The truth's own repr unreadable (a user __repr__ with an apostrophe): no opinion on order.
    expect(labels(returning('{1, 2}', "{1, O'Brien}"))).toEqual(WRONG_VALUE);
  });
});

describe('an address-only difference (truth.nondeterminism) and nothing else', () => {
  it('real addresses are many hex digits, and a list of objects has one per object', () => {
    expect(labels(returning('<Node object at 0x7f3a1c2b5d10>', '<Node object at 0x7f3a1c2b6e20>'))).toEqual(ADDRESS);
    expect(
      labels(
        returning(
          '[<A object at 0x7f3a10>, <B object at 0x7f3a48>]',
          '[<A object at 0x7f5c20>, <B object at 0x7f5c58>]',
        ),
      ),
    ).toEqual(ADDRESS);
  });

  it('text the model added around an address, or an address without digits, is a wrong value', () => {
    expect(labels(returning("'room at 0x1f'", "'room'"))).toEqual(WRONG_VALUE);
    expect(labels(returning('<Node object at 0x>', '<Node object at 0x7f3a10>'))).toEqual(WRONG_VALUE);
  });
});

describe('a call completion (CRUXEval input prediction) with unbalanced brackets', () => {
  it('is unreadable, not a call with an argument cut short', () => {
    const got = run({ ...INV_COUNT, completion: "f('berry', ['r')", completionForm: 'call' });
    expect(labels(got)).toEqual(['format.unparseable by parse-error']);
    expect(got[0].reason).toMatch(/expected a call with balanced brackets and quotes/);
  });
});

describe('elements: the contract of the export (no rule reaches these today)', () => {
  it('reads a whole container repr, trimmed, the empty one included, and nothing else', () => {
    expect(elements('[]')).toEqual([]);
    expect(elements('()')).toEqual([]);
    expect(elements(' [1, 2] ')).toEqual(['1', '2']);
    expect(elements('myset([1, 2])')).toBeUndefined();
    expect(elements('frozenset({1, 2}) and more')).toBeUndefined();
  });
});
