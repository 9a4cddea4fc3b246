/**
 * Text that is Unicode: a lone surrogate (a `\ud800` JSON escape with no partner, a JS string
 * cut in the middle of a pair) is not, and better-sqlite3 would store it as invalid UTF-8 that
 * other readers (Python's sqlite3) cannot decode. The corpus's one rule, for traces and for
 * everything else stored: such a code unit is spelled as the six characters `\udxxx`
 * (backslash, u, four lowercase hex digits), as the recorder writes it and Python's repr shows
 * it (docs/trace-format.md, "Text").
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ANY_SURROGATE = /[\ud800-\udfff]/;

const spell = (c: string) => `\\u${c.charCodeAt(0).toString(16)}`;

/** The string with each lone surrogate replaced by its `\udxxx` spelling. */
export function wellFormedString(s: string): string {
  return ANY_SURROGATE.test(s) ? s.replace(LONE_SURROGATE, spell) : s;
}

/**
 * A JSON-like value with every string (keys included) made well-formed; order kept, and the
 * value itself returned when nothing needed it. Objects are rebuilt with Object.fromEntries,
 * which defines each key as an own property like JSON.parse does (`__proto__` included).
 */
export function wellFormedValue<T>(v: T): T {
  return needsFixing(v, 0) ? (fix(v, 0) as T) : v;
}

/** Deeper than this, a value is left as it is (validators refuse such nesting anyway). */
const MAX_DEPTH = 200;

function needsFixing(v: unknown, depth: number): boolean {
  if (typeof v === 'string') return ANY_SURROGATE.test(v) && wellFormedString(v) !== v;
  if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(v)) return v.some((x) => needsFixing(x, depth + 1));
  return Object.entries(v).some(([k, x]) => needsFixing(k, depth) || needsFixing(x, depth + 1));
}

function fix(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return wellFormedString(v);
  if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return v;
  if (Array.isArray(v)) return v.map((x) => fix(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormedString(k), fix(x, depth + 1)]));
}
