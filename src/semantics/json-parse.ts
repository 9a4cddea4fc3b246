/**
 * A JSON reader that starts at an offset inside a larger text and reports where the value
 * ends, so JSON embedded between special tokens can be read without guessing its extent.
 * Strict RFC 8259 (what Python's json.loads accepts, minus NaN/Infinity and numbers too large
 * for a float, which it reads as inf). Nesting is limited so hostile model output cannot
 * exhaust the stack. Object keys keep their order,
 * a key given twice in one object is refused (RFC 8259 leaves it open; Python keeps the last),
 * and a `__proto__` key is an ordinary own property.
 */
import { define } from './delta.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export type JsonRead = { ok: true; value: JsonValue; end: number } | { ok: false; offset: number; expected: string };

const MAX_DEPTH = 256;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESC: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Fail {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

/** Reads one JSON value starting at `start`; nothing at or after `limit` belongs to it. */
export function readJson(text: string, start: number, limit = text.length): JsonRead {
  let pos = start;
  const ws = () => {
    while (pos < limit) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) pos++;
      else break;
    }
  };
  const str = (): string => {
    pos++; // opening quote
    let out = '';
    let from = pos;
    for (;;) {
      if (pos >= limit) throw new Fail(pos, 'the closing " of a string');
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        out += text.slice(from, pos++);
        return out;
      }
      if (c < 0x20) throw new Fail(pos, 'a string character (control characters must be escaped)');
      if (c !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(from, pos);
      const e = text[pos + 1];
      if (e === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Fail(pos, 'four hex digits after \\u');
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (e !== undefined && ESC[e] !== undefined) {
        out += ESC[e];
        pos += 2;
      } else throw new Fail(pos, 'an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      from = pos;
    }
  };
  const value = (depth: number): JsonValue => {
    if (depth > MAX_DEPTH) throw new Fail(pos, `at most ${MAX_DEPTH} levels of nesting`);
    ws();
    const c = text[pos];
    if (c === '"') return str();
    if (c === '{') {
      pos++;
      const o: { [k: string]: JsonValue } = {};
      ws();
      if (text[pos] === '}') {
        pos++;
        return o;
      }
      for (;;) {
        ws();
        if (text[pos] !== '"') throw new Fail(pos, 'a string key');
        const keyAt = pos;
        const k = str();
        // A name twice in one object is ambiguous (which value holds?): a frame's locals cannot
        // have two `names`, so a prediction writing them twice is a format error, not a state.
        if (Object.hasOwn(o, k)) throw new Fail(keyAt, `a key not already in this object (${JSON.stringify(k)} again)`);
        ws();
        if (text[pos] !== ':') throw new Fail(pos, "':'");
        pos++;
        define(o, k, value(depth + 1));
        ws();
        if (text[pos] === ',') pos++;
        else if (text[pos] === '}') {
          pos++;
          return o;
        } else throw new Fail(pos, "',' or '}'");
      }
    }
    if (c === '[') {
      pos++;
      const a: JsonValue[] = [];
      ws();
      if (text[pos] === ']') {
        pos++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[pos] === ',') pos++;
        else if (text[pos] === ']') {
          pos++;
          return a;
        } else throw new Fail(pos, "',' or ']'");
      }
    }
    for (const [word, v] of [
      ['null', null],
      ['true', true],
      ['false', false],
    ] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m) {
      const n = Number(m[0]);
      // Python reads 1e400 as inf, which no JSON can write back: refuse it where it stands.
      if (!Number.isFinite(n)) throw new Fail(pos, `a number a float can hold (got ${m[0]}, a number too large)`);
      pos += m[0].length;
      return n;
    }
    throw new Fail(pos, 'a JSON value');
  };
  try {
    const v = value(0);
    return { ok: true, value: v, end: pos };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, offset: e.offset, expected: e.expected };
    throw e;
  }
}
