// Strings in the strict JSON reader that reads a model's completion (src/semantics/json-parse.ts):
// every escape JSON allows, checked against the platform's JSON.parse, and the malformed
// escapes refused at the backslash with what was expected. (The mutation run of 2026-12-01
// found no test giving it a \u escape.)
import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/semantics/json-parse.js';

describe('readJson strings', () => {
  it('reads every escape as JSON.parse does, in a string and as a key', () => {
    const texts = [
      '"\\u00e9t\\u00C9"',
      '"a\\"b\\\\c\\/d"',
      '"\\b\\f\\n\\r\\t"',
      '"\\ud83d\\ude00 ok"',
      '"\\u0000"',
      '{"k\\u0041": "\\u2713"}',
      '["x", "\\u007f\\u0080"]',
    ];
    for (const t of texts) {
      const r = readJson(t, 0);
      expect(r, t).toEqual({ ok: true, value: JSON.parse(t), end: t.length });
    }
  });

  it('refuses a malformed escape at its backslash, saying what was expected', () => {
    const cases: [string, number, string][] = [
      ['"ab\\u12"', 3, 'four hex digits after \\u'],
      ['"ab\\u12G4"', 3, 'four hex digits after \\u'],
      ['"\\u 123"', 1, 'four hex digits after \\u'],
      ['"\\u+123"', 1, 'four hex digits after \\u'],
      ['"\\x41"', 1, 'an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'],
      ['"\\', 1, 'an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'],
    ];
    for (const [t, offset, expected] of cases) {
      expect(() => JSON.parse(t), t).toThrow();
      expect(readJson(t, 0), t).toEqual({ ok: false, offset, expected });
    }
  });
});
