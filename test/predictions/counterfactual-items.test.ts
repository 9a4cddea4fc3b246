/** The small edits of `evalset create --task counterfactual`: the same type, one step away, or none. */
import { describe, expect, it } from 'vitest';
import { kindOf, smallEdit } from '../../src/predictions/counterfactual-items.js';
import { mulberry32 } from '../../src/semantics/index.js';

const edits = (repr: string) => new Set(Array.from({ length: 40 }, (_, i) => smallEdit(repr, mulberry32(i))));

describe('smallEdit', () => {
  it('moves an int by one, either way, beyond 2**53 too', () => {
    expect(edits('7')).toEqual(new Set(['6', '8']));
    expect(edits('-1')).toEqual(new Set(['-2', '0']));
    expect(edits('123456789012345678901')).toEqual(new Set(['123456789012345678900', '123456789012345678902']));
  });

  it('flips a bool', () => {
    expect(edits('True')).toEqual(new Set(['False']));
    expect(edits('False')).toEqual(new Set(['True']));
  });

  it('changes one character of a str, keeping its quotes', () => {
    expect(edits("'az'")).toEqual(new Set(["'bz'", "'aa'"]));
    expect(edits('"it\'s"')).toEqual(new Set(['"jt\'s"', '"iu\'s"', '"itas"', '"it\'t"']));
    expect(smallEdit("''", mulberry32(1))).toBeUndefined();
  });

  it('changes one int, bool or str element of a list, leaving the others as they are', () => {
    expect(edits('[1, 2.5, None]')).toEqual(new Set(['[0, 2.5, None]', '[2, 2.5, None]']));
    expect(edits("[(1, 2), 'a, b']")).toEqual(
      new Set(["[(1, 2), 'b, b']", "[(1, 2), 'aa b']", "[(1, 2), 'a,ab']", "[(1, 2), 'a, c']"]),
    );
    expect(smallEdit('[]', mulberry32(1))).toBeUndefined();
    expect(smallEdit('[1.5, None]', mulberry32(1))).toBeUndefined();
  });

  it('edits no other type, and names it', () => {
    for (const [repr, kind] of [
      ['1.5', 'float'],
      ['None', 'None'],
      ["{'a': 1}", 'dict'],
      ['{1, 2}', 'set'],
      ['(1, 2)', 'tuple'],
      ["b'x'", 'bytes'],
      ['<object at 0x1>', 'other'],
      ["'a\\nb'", 'str with escapes'],
    ]) {
      expect(kindOf(repr)).toBe(kind);
      expect(smallEdit(repr, mulberry32(1))).toBeUndefined();
    }
  });
});
