/**
 * The program outline (src/annotate/prelabel/outline.ts): blocks by indentation, how it finds
 * logical lines (brackets, backslashes, strings, comments, blank lines, line endings), how it
 * links if/elif/else arms, and the loop of a line at module level. Each case goes through the
 * rules when a rule shows the difference: a loop or a branch the outline misses turns a right
 * control label into a wrong one. Expected labels follow the default taxonomy's definitions
 * (control.loop_iteration: the model leaves a loop that goes on; control.branch: the other side
 * of one if/elif/else; control.wrong_line: any other wrong line), never the code's own output.
 *
 * Every Outline here is built inside its test: one built while the file is collected is
 * outside every test, where per-test coverage does not see it.
 */
import { describe, expect, it } from 'vitest';
import { Outline } from '../../src/annotate/prelabel/outline.js';
import { labels, lineState, run } from './cases.js';

const fwd = { direction: 'forward' as const, action: 'step_into' as const };
const any = (src: string) => lineState('{"..": ".."}', src);

/**
 * A loop whose body line is `out.append(a)` and, after it, `return out`. The truth is still in
 * the body, the prediction has left the loop: control.loop_iteration by loop-exit, naming the
 * loop by its header's first line.
 */
function leavesLoop(source: string) {
  const got = run({ ...fwd, source, truth: any('        out.append(a)'), completion: any('    return out') });
  return { labels: labels(got), reason: got[0]?.reason };
}
const loopProgram = (header: string, between = '') =>
  `def f(xs, s):\n    out = []\n${header}\n${between}        out.append(a)\n    return out\n`;
const stillIn = (header: string, line: number) =>
  `the truth is still in the loop \`${header.trim()}\` (line ${line}); the prediction has left it`;

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
  const at = (o: Outline, line: number) => o.enclosing(line).map((b) => `${b.kind}@${b.header}-${b.end}`);

  it('finds headers and bodies, skipping docstrings, comments, blank lines and bracket continuations', () => {
    const o = new Outline(src);
    expect(o.blocks.map((b) => `${b.kind}@${b.header}-${b.end}`)).toEqual([
      'def@1-19',
      'for@8-13',
      'if@9-9',
      'elif@10-11',
      'else@12-13',
      'else@14-15',
      'while@16-17',
      'def@21-22',
    ]);
    expect(at(o, 6)).toEqual(['def@1-19']);
  });

  it('links if/elif/else into one chain and marks a loop else', () => {
    const o = new Outline(src);
    const [iff, elif, els, loopElse] = [o.blocks[2], o.blocks[3], o.blocks[4], o.blocks[5]];
    expect(iff.chain).toEqual([iff, elif, els]);
    expect([iff.arm, elif.arm, els.arm]).toEqual([0, 1, 2]);
    expect(loopElse.loopElse).toBe(true);
    expect(loopElse.chain).toBeUndefined();
  });

  it('answers the questions the rules ask: lines of a src, the function and the loop of a line', () => {
    const o = new Outline(src);
    expect(o.linesOf('    for x in xs:')).toEqual([8]);
    expect(o.functionOf(22)?.header).toBe(21);
    expect(o.loopOf(11)?.header).toBe(8);
    expect(o.loopOf(17)?.header).toBe(16);
    expect(o.loopOf(19)).toBeUndefined();
    expect(o.inBody(o.blocks[1], 8)).toBe(false);
    expect(o.inBody(o.blocks[1], 13)).toBe(true);
  });
});

describe('loop headers written over several physical lines', () => {
  const cases: [string, string][] = [
    ['a call with a nested call, continued in its brackets', '    for a in zip(range(3),\n                 xs):'],
    ['a list continued in its brackets', '    for a in [1,\n              2]:'],
    ['a dict continued in its braces', "    for a in {1: 'x',\n              2: 'y'}:"],
    ['a backslash continuation', '    for a in \\\n            xs:'],
  ];
  for (const [what, header] of cases) {
    it(`${what}: the body is still the loop's`, () => {
      const got = leavesLoop(loopProgram(header));
      expect(got.labels).toEqual(['control.loop_iteration by loop-exit']);
      expect(got.reason).toBe(stillIn(header.split('\n')[0], 3));
    });
  }
});

describe('strings and comments in a loop header', () => {
  const cases: [string, string][] = [
    ["a '#' in a single-quoted string is no comment", "    for a in s.split('#'):"],
    ["an escaped quote does not end the string (a '(' after it is text)", "    for a in s.split('\\'('):"],
    ['a trailing comment with a quote and a bracket', "    for a in xs:  # each item's value (doubled"],
  ];
  for (const [what, header] of cases) {
    it(`${what}`, () => {
      const got = leavesLoop(loopProgram(header));
      expect(got.labels).toEqual(['control.loop_iteration by loop-exit']);
      expect(got.reason).toBe(stillIn(header, 3));
    });
  }
});

describe('lines inside a loop body that are no statements', () => {
  it('a line of spaces shallower than the body and a comment at column 0 do not end the loop', () => {
    const got = leavesLoop(loopProgram('    for a in xs:', '        b = a\n    \n# a note\n'));
    expect(got.labels).toEqual(['control.loop_iteration by loop-exit']);
    expect(got.reason).toBe(stillIn('for a in xs:', 3));
  });

  it('a triple-quoted string whose next lines start at column 0 does not end the loop', () => {
    const got = leavesLoop(loopProgram('    for a in xs:', '        msg = """item\nof xs"""\n'));
    expect(got.labels).toEqual(['control.loop_iteration by loop-exit']);
  });

  it('a quoted string continued by a backslash at the line end does not end the loop (a bug, fixed)', () => {
    // Python joins `'item \\` and `of xs'` into one string; its second line, at column 0, is
    // no statement. Read as one, it ended the loop and the function: wrong-line, not loop-exit.
    const got = leavesLoop(loopProgram('    for a in xs:', "        msg = 'item \\\nof xs'\n"));
    expect(got.labels).toEqual(['control.loop_iteration by loop-exit']);
    expect(got.reason).toBe(stillIn('for a in xs:', 3));
  });

  it('one-line docstrings (a bracket inside) before the loop are no open strings', () => {
    const src =
      'def f(xs, s):\n    """Doubles (each."""\n    \'\'\'Item by item.\'\'\'\n    out = []\n    for a in xs:\n        out.append(a)\n    return out\n';
    const got = leavesLoop(src);
    expect(got.labels).toEqual(['control.loop_iteration by loop-exit']);
    expect(got.reason).toBe(stillIn('for a in xs:', 5));
  });
});

describe('line endings', () => {
  for (const [name, eol] of [
    ['Windows (\\r\\n)', '\r\n'],
    ['old Mac (\\r)', '\r'],
  ]) {
    it(`a program with ${name} line endings has its lines: the loop is found, no "no such line"`, () => {
      const got = leavesLoop(loopProgram('    for a in xs:').replace(/\n/g, eol));
      expect(got.labels).toEqual(['control.loop_iteration by loop-exit']);
      expect(got.reason).toBe(stillIn('for a in xs:', 3));
    });
  }
});

describe('if/elif/else chains', () => {
  it("an else after a nested loop in the if arm is the if's else, not the loop's", () => {
    const src =
      'def f(x, xs):\n    if x > 0:\n        for y in xs:\n            x += y\n    else:\n        x = -x\n    return x\n';
    const got = run({ ...fwd, source: src, truth: any('        x = -x'), completion: any('            x += y') });
    expect(labels(got)).toEqual(['control.branch by other-arm']);
    expect(got[0].reason).toBe(
      'the truth is in the else arm `else:` (line 5), the prediction in the if arm `if x > 0:` (line 2)',
    );
  });

  it('two ifs one after the other are two statements, not two arms of one', () => {
    const src = 'def clip(x):\n    if x < 0:\n        x = 0\n    if x > 9:\n        x = 9\n    return x\n';
    const got = run({ ...fwd, source: src, truth: any('        x = 9'), completion: any('        x = 0') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('try/except/else: the else is no arm of an if (and does not crash the rules)', () => {
    const src =
      'def parse(s):\n    try:\n        n = int(s)\n    except ValueError:\n        n = 0\n    else:\n        n = n * 2\n    return n\n';
    const got = run({ ...fwd, source: src, truth: any('        n = 0'), completion: any('        n = n * 2') });
    expect(labels(got)).toEqual(['control.wrong_line by wrong-line']);
  });

  it('the parts the rules do not read are still as documented: chain, arm and loop else', () => {
    const o = new Outline(
      'def f(xs):\n    for x in xs:\n        if x:\n            a = 1\n        elif x < 0:\n            a = 2\n        else:\n            a = 3\n    else:\n        a = 4\n',
    );
    const [, , iff, elif, els, loopElse] = o.blocks;
    expect(iff.chain).toEqual([iff, elif, els]);
    expect([iff.arm, elif.arm, els.arm]).toEqual([0, 1, 2]);
    expect([iff.loopElse, els.loopElse, loopElse.loopElse]).toEqual([undefined, undefined, true]);
    expect(loopElse.chain).toBeUndefined();
    const w = new Outline('while x:\n    x -= 1\nelse:\n    y = 2\n');
    expect(w.blocks.map((b) => b.loopElse)).toEqual([undefined, true]);
  });
});

describe('odd input', () => {
  it('a program cut in the middle (an else or elif with no if before it) is read without a crash', () => {
    for (const src of [
      '    else:\n        x = 1\n',
      'elif x:\n    y = 1\nelse:\n    y = 2\n',
      'while x:\n    x -= 1\nelse:\n    y = 2\n',
    ]) {
      const o = new Outline(src);
      expect(o.blocks.map((b) => b.chain)).toEqual(o.blocks.map(() => undefined));
    }
  });

  it('a line number outside the program text reads as an empty line, never as made-up text', () => {
    const o = new Outline('x = 1\n');
    expect([o.lineText(0), o.lineText(1), o.lineText(2)]).toEqual(['', 'x = 1', '']);
  });
});

describe('loops at module level (a script)', () => {
  it('the body of a module-level loop is in it: leaving it early is a loop iteration off', () => {
    const src = 'out = []\nfor a in [1, 2]:\n    out.append(a)\nprint(out)\n';
    const got = run({ ...fwd, source: src, truth: any('    out.append(a)'), completion: any('print(out)') });
    expect(labels(got)).toEqual(['control.loop_iteration by loop-exit']);
    expect(got[0].reason).toBe(stillIn('for a in [1, 2]:', 2));
  });
});
