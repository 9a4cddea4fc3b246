/**
 * What JSON.parse cannot be trusted with on hostile input, checked before it runs:
 * - nesting depth: JSON.parse recurses, so ~2,500 levels throw a RangeError (a stack
 *   overflow) instead of an error naming the line; records are refused past MAX_DEPTH;
 * - duplicate keys: JSON.parse keeps the last value, SQLite's json_extract the first and
 *   Python's json.loads the last, so one stored text would mean different things to
 *   different readers; every object must name each key once.
 * And after it runs:
 * - lone surrogates: a `\ud800` escape with no partner decodes to a string that is not
 *   Unicode text; better-sqlite3 would store it as invalid UTF-8 and read it back as
 *   U+FFFD. The trace format spells such a code unit as the six characters `\ud800`
 *   (backslash, u, four lowercase hex digits), as the recorder writes it and as Python's
 *   repr shows it; `wellFormed` applies that spelling (docs/trace-format.md, "Text").
 */

import { wellFormedString } from '../common/well-formed.js';

export { wellFormedString };

export const MAX_DEPTH = 100;

/** A `\uD800`–`\uDFFF` escape in JSON text (any case): the only way a lone surrogate gets in. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** True when parsing `text` may have produced lone surrogates (cheap pre-check). */
export function mayHoldSurrogates(text: string): boolean {
  return SURROGATE_ESCAPE.test(text);
}

/**
 * A parsed JSON value with every string (keys included) made well-formed; order kept.
 * Objects are rebuilt with Object.fromEntries, which defines each key as an own property
 * like JSON.parse does: assigning `out["__proto__"] = …` would set the prototype instead,
 * and a local or meta field named `__proto__` would be lost.
 */
export function wellFormed(v: unknown): unknown {
  if (typeof v === 'string') return wellFormedString(v);
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(wellFormed);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormedString(k), wellFormed(x)]));
}

/** End of the JSON string whose opening quote is at `i` (index of the closing quote), or -1. */
function stringEnd(text: string, i: number): number {
  let j = i;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j === -1) return -1;
    let k = j - 1;
    while (text.charCodeAt(k) === 92) k--; // backslashes before the quote: odd = escaped
    if ((j - 1 - k) % 2 === 0) return j;
  }
}

function decodeKey(raw: string): string | null {
  if (raw.indexOf('\\') === -1) return raw.slice(1, -1);
  try {
    return wellFormedString(JSON.parse(raw) as string);
  } catch {
    return null;
  }
}

/**
 * Scans JSON text for nesting deeper than `maxDepth` and for an object naming a key twice.
 * Returns a message ending in what was expected, or null. Malformed text is not reported
 * here (null): JSON.parse then words that error.
 */
export function checkJsonShape(text: string, maxDepth = MAX_DEPTH): string | null {
  // One entry per open container: the keys seen (object) or null (array), and for objects
  // the name of the field holding it, for the message.
  const keys: Array<Set<string> | null> = [];
  const names: string[] = [];
  let expectKey = false;
  let lastKey = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      if (end === -1) return null;
      const top = keys[keys.length - 1];
      if (expectKey && top) {
        const key = decodeKey(text.slice(i, end + 1));
        if (key === null) return null;
        if (top.has(key)) {
          const where = keys.length === 1 ? 'the record' : JSON.stringify(names[names.length - 1]);
          return `duplicate key ${JSON.stringify(key)} in ${where}: expected each key once`;
        }
        top.add(key);
        lastKey = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 123 || c === 91) {
      if (keys.length >= maxDepth) return `JSON nested deeper than ${maxDepth} levels: expected at most ${maxDepth}`;
      names.push(lastKey);
      keys.push(c === 123 ? new Set() : null);
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      keys.pop();
      names.pop();
      expectKey = false;
    } else if (c === 44) {
      expectKey = keys[keys.length - 1] != null;
    }
  }
  return null;
}
