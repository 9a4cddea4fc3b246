/**
 * JSON text byte-identical to Python's `json.dumps(obj)` with default arguments
 * (ensure_ascii=True, separators ", " and ": "): the one encoder for the serialized text,
 * the trace files' canonical form (src/store/serialize.ts) and the explorer's display.
 *
 * Python escapes every UTF-16 code unit outside the printable ASCII range ' '..'~' — that
 * includes DEL (0x7f), every non-ASCII character (astral characters come out as their two
 * surrogates, lone surrogates as themselves) — as a lowercase `\uXXXX`, except the five
 * short escapes \n \r \t \b \f; `"` and `\` get a backslash.
 */

// Anything other than printable ASCII without '"' and '\'.
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

const SHORT: Record<number, string> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x08: '\\b',
  0x0c: '\\f',
};

/** `json.dumps(s)` for a string. */
export function pyJsonString(s: string): string {
  if (s.length < 16) {
    // Short strings (most reprs): a plain scan beats the regex's setup cost.
    let plain = true;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        plain = false;
        break;
      }
    }
    if (plain) return '"' + s + '"';
  } else if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    if (i > start) out += s.slice(start, i);
    out += SHORT[c] ?? '\\u' + c.toString(16).padStart(4, '0');
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

/** `json.dumps(v)` for a string or None. */
export function pyJsonValue(v: string | null): string {
  return v === null ? 'null' : pyJsonString(v);
}

/**
 * `json.dumps(v)` for any JSON data, keys in insertion order. Numbers are printed as
 * JavaScript prints them, which differs from Python for some floats (e.g. 1e16 vs 1e+16).
 */
export function pyJson(v: unknown): string {
  if (typeof v === 'string') return pyJsonString(v);
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(pyJson).join(', ')}]`;
  let out = '';
  for (const k in v as Record<string, unknown>) {
    out += `${out ? ', ' : ''}${pyJsonString(k)}: ${pyJson((v as Record<string, unknown>)[k])}`;
  }
  return `{${out}}`;
}

/** `json.dumps(d)` for a dict of strings, in the given key order. */
export function pyJsonObject(entries: Iterable<readonly [string, string]>): string {
  let out = '';
  for (const [k, v] of entries) {
    out += (out ? ', ' : '') + pyJsonString(k) + ': ' + pyJsonString(v);
  }
  return '{' + out + '}';
}
