/**
 * pyJson, the encoder of any JSON data (a trace file's header and event lines, the explorer's
 * display): byte-identical to Python's json.dumps with default arguments, keys in insertion
 * order. json.test.ts covers the string encoder; this is the rest of the values.
 */
import { describe, expect, it } from 'vitest';
import { pyJson } from '../../src/semantics/json.js';

// Each value and what Python 3's json.dumps writes for it (printed once by python3 and kept
// here, so that the mutation runs, which repeat this test for every mutant it reaches, start
// no interpreter; json.test.ts compares strings with a live Python).
const cases: [unknown, string][] = [
  [null, 'null'],
  [true, 'true'],
  [false, 'false'],
  [0, '0'],
  [42, '42'],
  [-7, '-7'],
  [1.5, '1.5'],
  ['', '""'],
  ['é "quoted" \\ \n', String.raw`"\u00e9 \"quoted\" \\ \n"`],
  [[], '[]'],
  [{}, '{}'],
  [[1, 'a', null, [true, []], {}], '[1, "a", null, [true, []], {}]'],
  [{ a: 1 }, '{"a": 1}'],
  [
    { locals: { '..': '..', n: '0' }, arg: null, cut: ['s', 'é'] },
    String.raw`{"locals": {"..": "..", "n": "0"}, "arg": null, "cut": ["s", "\u00e9"]}`,
  ],
  [
    { 'key "é"\n': { '': [null, false, { deep: -0.25 }] }, z: 'last', a: 'after z' },
    String.raw`{"key \"\u00e9\"\n": {"": [null, false, {"deep": -0.25}]}, "z": "last", "a": "after z"}`,
  ],
];

describe('pyJson like Python json.dumps', () => {
  it('every kind of value, nested, with ", " and ": " separators, keys in insertion order', () => {
    expect(cases.map(([v]) => pyJson(v))).toEqual(cases.map(([, python]) => python));
  });

  it('what an event line of a trace file looks like', () => {
    expect(pyJson({ type: 'event', locals: { n: '0', é: "'x'" }, arg: null, cut: [1, [2, 'three']] })).toBe(
      '{"type": "event", "locals": {"n": "0", "\\u00e9": "\'x\'"}, "arg": null, "cut": [1, [2, "three"]]}',
    );
  });

  it('a missing value is written as null, never as nothing', () => {
    expect(pyJson(undefined)).toBe('null');
    expect(pyJson([undefined])).toBe('[null]');
  });
});
