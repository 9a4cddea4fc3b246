/**
 * The fast path for event lines already in canonical form (serialize.ts), which is what
 * the recorder writes. One regular expression both validates such a line and extracts its
 * fields: about 3x cheaper than JSON.parse, which would otherwise cost more than the
 * SQLite insert. Any line it does not match goes to the full parser and validator
 * (validate.ts), which accepts every valid layout and words the error for invalid ones;
 * so this file only ever decides "certainly valid" or "ask the slow path".
 */

// A JSON string in canonical form: printable ASCII, standard escapes only. Everything else
// takes the slow path: \u0020-\u007e and \u0008/9/a/c/d (canonical form writes the
// character or \b \t \n \f \r), and a surrogate escape that is not half of a pair (the
// slow path spells it out, see json-guard.ts).
const CH = String.raw`[\x20\x21\x23-\x5b\x5d-\x7e]`;
const ESC = String.raw`\\(?:["\\bfnrt]|u(?:(?!00[2-7]|000[89acd]|d[89a-f])[0-9a-f]{4}|007f|d[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}))`;
// Written as "run of plain characters, then (escape, run)*": far fewer backtracking states
// than one alternation per character.
const STR = `"${CH}*(?:${ESC}${CH}*)*"`;
const INT = '(?:0|-?[1-9][0-9]{0,15})'; // no -0: canonical form writes 0
// Locals capture their first KEYS names one group each (the match walks them anyway, so
// the duplicate check below costs little) and the remaining pairs as one tail group.
const KEYS = 6;
const pairs = (n: number): string =>
  n === 0 ? String.raw`((?:, ${STR}: ${STR})*)` : String.raw`(?:, (${STR}): ${STR}${pairs(n - 1)})?`;
const LOCALS = String.raw`\{(?:(${STR}): ${STR}${pairs(KEYS - 1)})?\}`;
// Group numbers: 1 seq, 2 event, 3 frame, 4 func, 5 line, 6 src, 7 locals, then the names
// and the tail, then arg, parent and cut.
const NAME = 8;
const TAIL = NAME + KEYS;
const ARG = TAIL + 1;
const PARENT = ARG + 1;
const CUT_GROUP = PARENT + 1;
const CUT = String.raw`\[${STR}(?:, ${STR})*\]`; // an empty cut list is written as no cut
const EVENT_RE = new RegExp(
  String.raw`^\{"type": "event", "seq": (${INT}), "event": "(call|line|return|exception)", "frame": (${INT}), ` +
    String.raw`"func": (${STR}), "line": (${INT}), "src": (${STR}), "locals": (${LOCALS}), "arg": (null|${STR}), ` +
    String.raw`"parent": (null|${INT})(?:, "cut": (${CUT}))?\}$`,
);

export const FAST_PREFIX = '{"type": "event", "seq": ';

/**
 * Rows for the events table, flattened: ROW_WIDTH values per row in column order, the
 * first (trace_id) filled in when the rows are written. Flat, so a row costs no array.
 */
export type EventRows = unknown[];
export const ROW_WIDTH = 11;

const str = (s: string) => (s.indexOf('\\') === -1 ? s.slice(1, -1) : (JSON.parse(s) as string));

/**
 * True when canonical locals name each local once, for locals with more than KEYS pairs.
 * Inside a canonical string every `"` is escaped, so `", "` (a value's end and the next
 * name's start) and `": "` (a name's end) occur only between strings: the names are the
 * texts between them.
 */
function uniqueNames(locals: string): boolean {
  const seen = new Set<string>();
  for (let start = 1; ;) {
    const name = locals.slice(start, locals.indexOf('": "', start));
    if (seen.has(name)) return false;
    seen.add(name);
    const next = locals.indexOf('", "', start);
    if (next === -1) return true;
    start = next + 3;
  }
}

/**
 * True when the matched locals name each local once. Canonical string text is one-to-one
 * with the string, so comparing the raw texts of the names is exact.
 */
function distinctNames(m: RegExpExecArray): boolean {
  for (let i = NAME + 1; i < TAIL && m[i] !== undefined; i++) {
    for (let j = NAME; j < i; j++) if (m[i] === m[j]) return false;
  }
  return m[TAIL] ? uniqueNames(m[7]) : true;
}

/** Appends the row of a canonical, valid event line with this seq; false: use the slow path. */
export function fastEvent(text: string, seq: number, out: EventRows): boolean {
  const m = EVENT_RE.exec(text);
  if (m === null) return false;
  const parent = m[PARENT] === 'null' ? null : +m[PARENT];
  const frame = +m[3];
  const line = +m[5];
  if (
    +m[1] !== seq ||
    frame < 0 ||
    !Number.isSafeInteger(frame) ||
    !Number.isSafeInteger(line) ||
    (parent !== null && (parent < 0 || parent >= seq)) ||
    !distinctNames(m)
  ) {
    return false;
  }
  const arg = m[ARG];
  out.push(
    0,
    seq,
    m[2],
    frame,
    str(m[4]),
    line,
    str(m[6]),
    m[7],
    arg === 'null' ? null : str(arg),
    parent,
    m[CUT_GROUP] ?? null,
  );
  return true;
}
