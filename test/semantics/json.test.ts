/** The JSON encoder must be byte-identical to Python's json.dumps with default arguments. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pyJsonObject, pyJsonString, pyJsonValue } from '../../src/semantics/index.js';

// Every BMP code unit class that matters, astral characters, lone surrogates, reprs.
const tricky: string[] = [
  '',
  'plain ascii ~ !#$%&()*+,-./:;<=>?@[]^_`{|}',
  'quote " backslash \\ slash /',
  '\n\r\t\b\f\v\0\x01\x1f\x20',
  '\x7f DEL and \x80\x9f\xa0 latin1 \xe9\xff',
  'ünïcödé ß 中文 日本語 한국어 \u2028\u2029 \ufeff \uffff',
  'astral 😀 𝄞 \u{10ffff}',
  'lone \ud800 high, lone \udfff low, reversed \udc00\ud800',
  "'berry'",
  "{'a': [1, 2], 'b': \"x\"}",
  '<|frame_sep|> tokens are content',
];

function python(objs: unknown[]): string[] {
  // Lone surrogates cannot travel through UTF-8 JSON on stdin as raw text, so send the
  // strings as JSON (JSON.stringify escapes them) and let Python decode and re-dump them.
  const out = execFileSync('python3', ['-c', 'import json,sys\nfor o in json.loads(sys.stdin.read()): print(json.dumps(o))'], {
    input: JSON.stringify(objs),
    encoding: 'utf8',
  });
  return out.trimEnd().split('\n');
}

describe('JSON like Python json.dumps', () => {
  it('strings', () => {
    expect(tricky.map(pyJsonString)).toEqual(python(tricky));
  });

  it('every code unit from 0 to 0xFFFF', () => {
    const all = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c));
    expect(all.map(pyJsonString)).toEqual(python(all));
  });

  it('null and objects of strings with ", " and ": " separators', () => {
    const objs = [{}, { a: '1' }, { '..': '..', n: '0', 'é': '😀' }];
    expect([pyJsonValue(null), ...objs.map((o) => pyJsonObject(Object.entries(o)))]).toEqual(python([null, ...objs]));
  });
});
