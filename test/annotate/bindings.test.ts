/**
 * Which names a line binds (src/annotate/prelabel/bindings.ts): Python's, by the language
 * reference's assignment, import and compound statements, never the code's output. The
 * mutation rule reads it: a local that changed on a line that does not bind it was changed in
 * place or through another name (data.mutation_missed: "an object changed in place ... and the
 * prediction keeps its old value"); a local the line rebinds and the prediction keeps is a
 * wrong value (data.wrong_value).
 */
import { describe, expect, it } from 'vitest';
import { boundNames } from '../../src/annotate/prelabel/bindings.js';
import { labels, lineState, run } from './cases.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };

/** One step over `line` of a function whose local `name` goes from `from` to `to`; the prediction keeps `from`. */
function stale(line: string, name: string, from: string, to: string, others = '"nums": "[1]"') {
  const source = `def f(nums, n):\n    ${line}\n    return n\n`;
  const locals = (v: string) => `{${others}, "${name}": "${v}"}`.replace('{, ', '{');
  return labels(
    run({
      ...fwd,
      source,
      before: lineState(locals(from), `    ${line}`),
      truth: lineState(locals(to), '    return n'),
      completion: lineState(locals(from), '    return n'),
    }),
  );
}

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
    // String literals and comments cannot look like code.
    ["log('x as y')", []],
    ['log("x as y")', []],
    ["log('''it's as y''')", []],
    ['log("""a "as y" b""")', []],
    ['xs.append(1)  # same list as ys', []],
    // Walrus without spaces; `as` after two spaces.
    ['if (n:=len(xs)) > 3:', ['n']],
    ['with open(p) as  fh:', ['fh']],
    // Augmented assignment: compact, of an attribute, with each operator.
    ['n+=1', ['n']],
    ['n *= 2', ['n']],
    ['n /= 2', ['n']],
    ['self.count += 1', []],
    // Comparisons and keyword arguments are no assignment.
    ['ok = a == b', ['ok']],
    ['t = a, b == c', ['t']],
    ['t = a, b != c', ['t']],
    ['fill(out, nums=nums, k=2)', []],
    ['(a).x = 1', []],
    // A line that merely contains a keyword still assigns.
    ['x = a if c else b', ['x']],
    ['ys = [y * 2 for y in xs]', ['ys']],
    ['total = yield from merge(xs, out)', ['total']],
    // async compound statements, odd spacing.
    ['async for x in ait:', ['x']],
    ['async  for x in ait:', ['x']],
    ['async def fetch():', ['fetch']],
    ['async  def fetch():', ['fetch']],
    ['def  f():', ['f']],
    // Imports.
    ['from os import path', ['path']],
    ['from  os import path', ['path']],
    ['from os  import path', ['path']],
    ['from m import (a, b)', ['a', 'b']],
    ['import os.path', ['os']],
    ['import numpy as np', ['np']],
  ];
  for (const [line, names] of cases)
    it(`${line} binds ${names.join(', ') || 'nothing'}`, () =>
      expect([...boundNames(line)].sort()).toEqual([...names].sort()));

  it('odd lines bind what they can without throwing: a star import, the first line of a del spread over lines', () => {
    expect([...boundNames('from m import *')]).toEqual([]);
    expect([...boundNames('del (first,')]).toEqual([]);
  });
});

describe('a stale value after a line that rebinds the name is a wrong value, not a missed mutation', () => {
  it('augmented assignments written without spaces, and with *= and /=', () => {
    expect(stale('n+=1', 'n', '1', '2')).toEqual(['data.wrong_value by wrong-value']);
    expect(stale('n *= 2', 'n', '3', '6')).toEqual(['data.wrong_value by wrong-value']);
    expect(stale('n /= 2', 'n', '4.0', '2.0')).toEqual(['data.wrong_value by wrong-value']);
  });

  it('an assignment of a conditional expression', () => {
    expect(stale('n = n * 2 if nums else n', 'n', '3', '6')).toEqual(['data.wrong_value by wrong-value']);
  });
});

describe('a list changed in place is a missed mutation, whatever else the line shows', () => {
  it('a comment that says "as nums" binds nothing', () => {
    expect(stale('nums.append(0)  # the same list as nums', 'nums', '[1]', '[1, 0]', '"n": "1"')).toEqual([
      'data.mutation_missed by mutation-missed',
    ]);
  });

  it('keyword arguments of a call bind nothing', () => {
    expect(stale('fill(nums=nums, k=2)', 'nums', '[1]', '[1, 0, 0]', '"n": "1"')).toEqual([
      'data.mutation_missed by mutation-missed',
    ]);
  });
});
