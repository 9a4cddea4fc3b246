/**
 * The fast path for event lines already in canonical form (serialize.ts), which is what
 * the recorder writes. One regular expression both validates such a line and extracts its
 * fields: about 3x cheaper than JSON.parse, which would otherwise cost more than the
 * SQLite insert. Any line it does not match goes to the full parser and validator
 * (validate.ts), which accepts every valid layout and words the error for invalid ones;
 * so this file only ever decides "certainly valid" or "ask the slow path".
 */

// A JSON string in canonical form: printable ASCII, standard escapes only.
// (\u0020-\u007e are never escaped in canonical form, so such an escape takes the slow path.)
const CH = String.raw`[\x20\x21\x23-\x5b\x5d-\x7e]`;
const ESC = String.raw`\\(?:["\\bfnrt]|u(?:(?!00[2-7])[0-9a-f]{4}|007f))`;
// Written as "run of plain characters, then (escape, run)*": far fewer backtracking states
// than one alternation per character.
const STR = `"${CH}*(?:${ESC}${CH}*)*"`;
const INT = '-?(?:0|[1-9][0-9]{0,15})';
const LOCALS = String.raw`\{(?:${STR}: ${STR}(?:, ${STR}: ${STR})*)?\}`;
const CUT = String.raw`\[(?:${STR}(?:, ${STR})*)?\]`;
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

/** Appends the row of a canonical, valid event line with this seq; false: use the slow path. */
export function fastEvent(text: string, seq: number, out: EventRows): boolean {
  const m = EVENT_RE.exec(text);
  if (m === null) return false;
  const parent = m[9] === 'null' ? null : +m[9];
  const frame = +m[3];
  const line = +m[5];
  if (
    +m[1] !== seq || frame < 0 || !Number.isSafeInteger(frame) || !Number.isSafeInteger(line) ||
    (parent !== null && (parent < 0 || parent >= seq))
  ) {
    return false;
  }
  out.push(0, seq, m[2], frame, str(m[4]), line, str(m[6]), m[7], m[8] === 'null' ? null : str(m[8]), parent, m[10] ?? null);
  return true;
}
