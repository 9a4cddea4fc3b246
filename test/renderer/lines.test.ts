// Ordinals in the trees' level-of-detail note ("every 3rd state"), and which lines a
// breakpoint can stop at.
import { describe, expect, it } from 'vitest';
import { hittableLines, ordinal, sameTextLines } from '../../renderer/src/lib/lines.js';

describe('ordinal', () => {
  it('writes English ordinals', () => {
    const want: Record<number, string> = {
      1: '1st',
      2: '2nd',
      3: '3rd',
      4: '4th',
      10: '10th',
      11: '11th',
      12: '12th',
      13: '13th',
      21: '21st',
      22: '22nd',
      23: '23rd',
      101: '101st',
      111: '111th',
      112: '112th',
      1002: '1002nd',
    };
    for (const [n, s] of Object.entries(want)) expect(ordinal(Number(n))).toBe(s);
  });
});

describe('breakpoint lines', () => {
  const lines = ['def f(x):', '    y = 1', '', '    y = 1', '    return y'];
  // kinds: call at 1, line at 2, line at 5, return at 5 (line 4 never runs; it has line 2's text).
  const sk = {
    count: 4,
    kind: [0, 1, 1, 2],
    parent: [-1, -1, -1, -1],
    frame: [1, 1, 1, 1],
    line: [1, 2, 5, 5],
    func: [0, 0, 0, 0],
    funcs: ['f'],
  };
  it('offers the lines whose text a line event has, never blank or call-only lines', () => {
    expect([...hittableLines(sk, lines)].sort()).toEqual([2, 4, 5]);
  });
  it('finds the other lines with the same text', () => {
    expect(sameTextLines(lines, 2)).toEqual([4]);
    expect(sameTextLines(lines, 5)).toEqual([]);
  });
});
