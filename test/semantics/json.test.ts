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
  const out = execFileSync(
    'python3',
    ['-c', 'import json,sys\nsys.stdout.write("\\n".join(map(json.dumps, json.loads(sys.stdin.read()))))'],
    {
      input: JSON.stringify(objs),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    },
  );
  return out.split('\n');
}

describe('JSON like Python json.dumps', () => {
  it('strings', () => {
    expect(tricky.map(pyJsonString)).toEqual(python(tricky));
  });

  it('every code unit from 0 to 0xFFFF, alone and inside short and long strings', () => {
    // The encoder has two paths, a scan under 16 code units and a regex from 16 on: each code
    // unit goes through both, between plain characters (a DEL among them must be escaped).
    const units = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c));
    const all = [...units, ...units.map((c) => `abcdefg${c}hijklmn`), ...units.map((c) => `abcdefgh${c}ijklmnop`)];
    expect(all[0x10000 + 0x7f].length).toBe(15);
    expect(all[0x20000 + 0x7f].length).toBe(17);
    expect(all.map(pyJsonString)).toEqual(python(all));
  });

  it('null and objects of strings with ", " and ": " separators', () => {
    const objs = [{}, { a: '1' }, { '..': '..', n: '0', é: '😀' }];
    expect([pyJsonValue(null), ...objs.map((o) => pyJsonObject(Object.entries(o)))]).toEqual(python([null, ...objs]));
  });
});

describe('pyJsonString: "~" is printable ASCII on the escaping path too', () => {
  // The tests above go through every code unit, but "~" only among plain characters, where
  // the string is returned as it is; here the string also holds a character to escape, so
  // each code unit is looked at (Python: json.dumps("~\n") == '"~\\n"').
  it('"~" next to a character that needs escaping stays "~"', () => {
    expect(pyJsonString('~\n')).toBe('"~\\n"');
    expect(pyJsonString('a~é~')).toBe('"a~\\u00e9~"');
    expect(pyJsonString('~"~ and a long string after it')).toBe('"~\\"~ and a long string after it"');
  });
});
