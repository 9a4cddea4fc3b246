// The checks run before JSON.parse (json-guard.ts), at their edges: the depth limit is 100
// levels exactly; a string repeated in an array is not a duplicate key; a key ending in an
// escaped backslash is read to its real end; a malformed key escape is left to JSON.parse's
// error; and spelling out lone surrogates keeps arrays arrays.
import { describe, expect, it } from 'vitest';
import { checkJsonShape, wellFormed } from '../../src/store/json-guard.js';

describe('json-guard: checkJsonShape', () => {
  it('nesting of exactly 100 levels passes, 101 is refused', () => {
    expect(checkJsonShape(`{"a": ${'['.repeat(99)}${']'.repeat(99)}}`)).toBeNull();
    expect(checkJsonShape(`{"a": ${'['.repeat(100)}${']'.repeat(100)}}`)).toBe('JSON nested deeper than 100 levels: expected at most 100');
  });

  it('the same string twice in an array is not a duplicate key', () => {
    expect(checkJsonShape('{"meta": {"tags": ["x", "y", "x", "y"]}}')).toBeNull();
  });

  it('keys ending in an escaped backslash are compared whole', () => {
    expect(checkJsonShape(String.raw`{"a\\": "1", "b": "2"}`)).toBeNull();
    expect(checkJsonShape(String.raw`{"a\\": "1", "c": {"b\\\\": "2", "b\\\\": "3"}}`)).toBe(String.raw`duplicate key "b\\\\" in "c": expected each key once`);
  });

  it('keys with a malformed escape are left to JSON.parse (no duplicate-key message)', () => {
    expect(checkJsonShape(String.raw`{"\x": 1, "\x": 2}`)).toBeNull();
  });
});

describe('json-guard: wellFormed', () => {
  it('spells out lone surrogates inside arrays and keeps them arrays', () => {
    const v = wellFormed(JSON.parse('{"cut": ["\\ud800", "b"], "n": [1, [2]]}'));
    expect(v).toEqual({ cut: ['\\ud800', 'b'], n: [1, [2]] });
    expect(Array.isArray((v as { cut: unknown }).cut)).toBe(true);
  });
});
