/**
 * pyJson, the encoder of any JSON data (a trace file's header and event lines, the explorer's
 * display): byte-identical to Python's json.dumps with default arguments, keys in insertion
 * order. json.test.ts covers the string encoder; this is the rest of the values.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pyJson } from '../../src/semantics/json.js';

const values: unknown[] = [
  null,
  true,
  false,
  0,
  42,
  -7,
  1.5,
  '',
  'é "quoted" \\ \n',
  [],
  {},
  [1, 'a', null, [true, []], {}],
  { a: 1 },
  { locals: { '..': '..', n: '0' }, arg: null, cut: ['s', 'é'] },
  { 'key "é"\n': { '': [null, false, { deep: -0.25 }] }, z: 'last', a: 'after z' },
];

describe('pyJson like Python json.dumps', () => {
  it('every kind of value, nested, with ", " and ": " separators', () => {
    const python = execFileSync('python3', ['-c', 'import json,sys\nsys.stdout.write("\\n".join(map(json.dumps, json.loads(sys.stdin.read()))))'], {
      input: JSON.stringify(values),
      encoding: 'utf8',
    }).split('\n');
    expect(values.map(pyJson)).toEqual(python);
  });

  it('the same, written out: what a trace line looks like', () => {
    expect(pyJson({ type: 'event', locals: { n: '0', 'é': "'x'" }, arg: null, cut: [1, [2, 'three']] })).toBe(
      '{"type": "event", "locals": {"n": "0", "\\u00e9": "\'x\'"}, "arg": null, "cut": [1, [2, "three"]]}',
    );
  });

  it('a missing value is written as null, never as nothing', () => {
    expect(pyJson(undefined)).toBe('null');
    expect(pyJson([undefined])).toBe('[null]');
  });
});
