// Numbers in the strict JSON reader (src/semantics/json-parse.ts): one too large for a float
// (Python reads 1e400 as inf, JSON.parse as Infinity, which JSON writes back as null) is refused
// at its first character, quoted as written; the largest finite ones are read as JSON.parse does.
import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/semantics/json-parse.js';

describe('readJson numbers', () => {
  it('refuses a number too large for a float where it stands, quoting it', () => {
    expect(readJson('{"id": 1e400}', 0)).toEqual({
      ok: false,
      offset: 7,
      expected: 'a number a float can hold (got 1e400, a number too large)',
    });
    expect(readJson('[1, -2.5E+999]', 0)).toEqual({
      ok: false,
      offset: 4,
      expected: 'a number a float can hold (got -2.5E+999, a number too large)',
    });
  });

  it('reads the largest finite numbers, and ones that round to zero, as JSON.parse does', () => {
    for (const t of ['1.7976931348623157e308', '-1.7976931348623157e308', '1e-400', '0.5e-10'])
      expect(readJson(t, 0), t).toEqual({ ok: true, value: JSON.parse(t), end: t.length });
  });
});
