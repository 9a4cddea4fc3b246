/**
 * Just enough reading of Python reprs (the values of locals and arg, docs/semantics.md §2) for
 * the pre-label rules: which type a repr shows, its top-level elements, whether the recorder
 * cut it. Heuristic by design (a repr is not a grammar: `<Foo object at 0x1>`, user __repr__),
 * and every caller treats "unknown" as "no opinion".
 */

/** What the recorder appends to a repr it cut (docs/trace-format.md). */
export const CUT_MARK = /…<cut \d+ chars>$/;

export const isCut = (repr: string) => CUT_MARK.test(repr);

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSE = new Set([')', ']', '}']);

/**
 * Splits `text` on `sep` where it is outside strings and brackets. Returns undefined when the
 * brackets do not balance (a cut or malformed repr), unless `lenient`: then the unbalanced
 * rest is the last part.
 */
export function splitTop(text: string, sep: string, lenient = false): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (OPEN[c]) depth++;
    else if (CLOSE.has(c)) {
      if (--depth < 0 && !lenient) return undefined;
    } else if (c === sep && depth === 0) {
      parts.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  if ((depth !== 0 || quote) && !lenient) return undefined;
  parts.push(text.slice(from).trim());
  return parts;
}

/** The elements of a list, tuple, set or dict repr (dict: `k: v` items), or undefined. */
export function elements(repr: string): string[] | undefined {
  let r = repr.trim();
  const wrapped = /^(?:frozenset|set)\(([\s\S]*)\)$/.exec(r);
  if (wrapped) r = wrapped[1];
  if (r.length < 2 || OPEN[r[0]] !== r[r.length - 1]) return undefined;
  const inner = r.slice(1, -1);
  if (inner.trim() === '') return [];
  const parts = splitTop(inner, ',');
  if (!parts) return undefined;
  return parts[parts.length - 1] === '' ? parts.slice(0, -1) : parts;
}

const INT = /^-?\d+$/;
const FLOAT = /^-?(?:\d+\.\d*|\.\d+|\d+(?:\.\d*)?e[+-]?\d+|inf|nan)$/i;
const COMPLEX = /^\(?-?[\d.e+-]*j\)?$|^\(-?[\d.e+-]+[+-][\d.e+-]*j\)$/;

/**
 * The type a repr shows: `int`, `float`, `complex`, `bool`, `None`, `str`, `bytes`, `list`,
 * `tuple`, `dict`, `set`, a class name for `Name(…)` reprs (`frozenset`, `deque`,
 * `ValueError`), a name for `<Name object at …>` and `<function …>` reprs; undefined when the
 * text says nothing. A cut repr is judged by what is left of it.
 */
export function reprType(repr: string): string | undefined {
  const r = repr.replace(CUT_MARK, '').trim();
  if (r === 'None') return 'None';
  if (r === 'True' || r === 'False') return 'bool';
  if (INT.test(r)) return 'int';
  if (FLOAT.test(r)) return 'float';
  if (COMPLEX.test(r)) return 'complex';
  const c = r[0];
  if (c === "'" || c === '"') return 'str';
  if (/^b['"]/.test(r)) return 'bytes';
  if (c === '[') return 'list';
  if (c === '(') return 'tuple';
  if (c === '{') {
    if (r === '{}') return 'dict';
    // The first item decides: `k: v` is a dict. Lenient, since a cut repr does not balance.
    const first = splitTop(r.slice(1), ',', true)![0];
    return splitTop(first, ':', true)!.length > 1 ? 'dict' : 'set';
  }
  const call = /^([A-Za-z_][\w.]*)\(/.exec(r);
  if (call) return call[1].split('.').pop();
  const angle = /^<(?:([\w.]+) object|(function|class|module|generator object|built-in function|bound method)\b)/.exec(
    r,
  );
  if (angle) return angle[1] ? angle[1].split('.').pop() : angle[2].replace(' object', '');
  return undefined;
}

/** Both reprs are sets (or frozensets) with the same elements, written in another order. */
export function sameSetOtherOrder(a: string, b: string): boolean {
  const ta = reprType(a);
  if (a === b || (ta !== 'set' && ta !== 'frozenset') || ta !== reprType(b)) return false;
  const ea = elements(a);
  const eb = elements(b);
  if (!ea || !eb || ea.length !== eb.length) return false;
  return [...ea].sort().join('\u0000') === [...eb].sort().join('\u0000');
}

/** The two reprs differ only in the renumbered addresses ` at 0x…` (object identity). */
export function differsOnlyInAddresses(a: string, b: string): boolean {
  const strip = (s: string) => s.replace(/ at 0x[0-9a-f]+/g, ' at 0x');
  return a !== b && /at 0x[0-9a-f]/.test(a) && strip(a) === strip(b);
}
