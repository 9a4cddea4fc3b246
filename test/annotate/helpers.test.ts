/** The readers the rules stand on: Python reprs, the block outline of a program, the names a line binds. */
import { describe, expect, it } from 'vitest';
import { boundNames } from '../../src/annotate/prelabel/bindings.js';
import { Outline } from '../../src/annotate/prelabel/outline.js';
import { differsOnlyInAddresses, elements, isCut, reprType, sameSetOtherOrder } from '../../src/annotate/prelabel/repr.js';

describe('reprType', () => {
  // Each repr as Python 3 prints it.
  const cases: [string, string | undefined][] = [
    ['1', 'int'], ['-12', 'int'], ['1.5', 'float'], ['1e+20', 'float'], ['inf', 'float'], ['nan', 'float'], ['1j', 'complex'], ['(1+2j)', 'complex'],
    ['True', 'bool'], ['None', 'None'], ["'1'", 'str'], ['"it\'s"', 'str'], ["b'ab'", 'bytes'],
    ['[1, 2]', 'list'], ['(1, 2)', 'tuple'], ['(1,)', 'tuple'], ['()', 'tuple'], ['{}', 'dict'], ["{'a': 1}", 'dict'], ['{1, 2}', 'set'], ['{(1, 2): 3}', 'dict'],
    ['set()', 'set'], ['frozenset({1})', 'frozenset'], ['deque([1])', 'deque'], ["Counter({'a': 2})", 'Counter'], ["ValueError('zero')", 'ValueError'],
    ['<__main__.Node object at 0x1>', 'Node'], ['<function f at 0x2>', 'function'], ["<class 'int'>", 'class'], ['<generator object g at 0x3>', 'generator'],
    ['[0, 1, 2, 3…<cut 900 chars>', 'list'], ["{'a': [1, 2…<cut 9 chars>", 'dict'], ['r', undefined], ['', undefined],
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

describe('Outline', () => {
  const src = [
    'def f(xs, d):', //  1
    '    """Doc:', //  2
    '    for x in xs:  # not a header', //  3
    '    """', //  4
    '    total = {', //  5
    "        'a': 1,", //  6
    '    }', //  7
    '    for x in xs:', //  8
    '        if x > 0: total["a"] += x', //  9
    '        elif x < 0:', // 10
    '            continue', // 11
    '        else:', // 12
    '            break', // 13
    '    else:', // 14
    '        total = None', // 15
    '    while d:', // 16
    '        d -= 1', // 17
    '', // 18
    '    return total', // 19
    '', // 20
    'def g():', // 21
    '    return f([1], 0)', // 22
  ].join('\n');
  const o = new Outline(src);
  const at = (line: number) => o.enclosing(line).map((b) => `${b.kind}@${b.header}-${b.end}`);

  it('finds headers and bodies, skipping docstrings, comments, blank lines and bracket continuations', () => {
    expect(o.blocks.map((b) => `${b.kind}@${b.header}-${b.end}`)).toEqual(['def@1-19', 'for@8-13', 'if@9-9', 'elif@10-11', 'else@12-13', 'else@14-15', 'while@16-17', 'def@21-22']);
    expect(at(6)).toEqual(['def@1-19']);
  });

  it('links if/elif/else into one chain and marks a loop else', () => {
    const [iff, elif, els, loopElse] = [o.blocks[2], o.blocks[3], o.blocks[4], o.blocks[5]];
    expect(iff.chain).toEqual([iff, elif, els]);
    expect([iff.arm, elif.arm, els.arm]).toEqual([0, 1, 2]);
    expect(loopElse.loopElse).toBe(true);
    expect(loopElse.chain).toBeUndefined();
  });

  it('answers the questions the rules ask: lines of a src, the function and the loop of a line', () => {
    expect(o.linesOf('    for x in xs:')).toEqual([8]);
    expect(o.functionOf(22)?.header).toBe(21);
    expect(o.loopOf(11)?.header).toBe(8);
    expect(o.loopOf(17)?.header).toBe(16);
    expect(o.loopOf(19)).toBeUndefined();
    expect(o.inBody(o.blocks[1], 8)).toBe(false);
    expect(o.inBody(o.blocks[1], 13)).toBe(true);
  });
});

describe('boundNames', () => {
  const cases: [string, string[]][] = [
    ['n = 0', ['n']],
    ['n += int(c == t)', ['n']],
    ['a, (b, *c) = f(x=1)', ['a', 'b', 'c']],
    ['a = b = []', ['a', 'b']],
    ['x: int = 3', ['x']],
    ['for i, (k, v) in enumerate(d.items()):', ['i', 'k', 'v']],
    ['with open(p) as fh, lock:', ['fh']],
    ['except ValueError as e:', ['e']],
    ['import os.path as p, sys', ['p', 'sys']],
    ['from m import a, b as c', ['a', 'c']],
    ['if (m := re.match(p, s)):', ['m']],
    ['def helper(x=1):', ['helper']],
    ['del cache', ['cache']],
    ['xs.append(1)', []],
    ['xs[0] = 1', []],
    ['self.count = 0', []],
    ['if a == b or c >= d:', []],
    ["s = 'x = 1'", ['s']],
    ['return total', []],
  ];
  for (const [line, names] of cases) it(`${line} binds ${names.join(', ') || 'nothing'}`, () => expect([...boundNames(line)].sort()).toEqual([...names].sort()));
});
