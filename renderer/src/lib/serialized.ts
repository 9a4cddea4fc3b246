/**
 * The serialized text of a walk cut into pieces for display: special tokens marked, and the
 * prompt / target split at a chosen state (docs/semantics.md §6: the prompt is the text up to
 * and including the `<|frame_sep|>` before state j; the target is state j up to the next
 * `<|action_sep|>` or `<|trace_end|>`). Lengths count characters, and characters with each
 * special token counted as one (what a tokenizer with these tokens added would see of them).
 */
import { ACTION, FRAME, TRACE_END } from '@core/semantics/tokens.js';

const TOKEN = /<\|[a-z_]+\|>/g;

export interface Piece {
  text: string;
  token: boolean;
  region: 'prompt' | 'target' | 'after' | 'all';
}

export interface Measure {
  chars: number;
  specials: number;
  /** chars with each special token counted as one. */
  asOne: number;
}

export function measure(text: string): Measure {
  let specials = 0;
  let tokenChars = 0;
  for (const m of text.matchAll(TOKEN)) {
    specials++;
    tokenChars += m[0].length;
  }
  return { chars: text.length, specials, asOne: text.length - tokenChars + specials };
}

/** [promptEnd, targetEnd) offsets for state j (j >= 1), or null when the text cannot be cut there. */
export function splitAt(
  text: string,
  states: number,
  exit: boolean,
  j: number,
): { promptEnd: number; targetEnd: number } | null {
  if (j < 1 || j >= states) return null;
  const parts = text.split(FRAME);
  // head, one part per state, and the exit's: anything else means a value holds the token.
  if (parts.length !== 1 + states + (exit ? 1 : 0)) return null;
  let promptEnd = parts[0].length;
  for (let m = 0; m < j; m++) promptEnd += FRAME.length + parts[1 + m].length;
  promptEnd += FRAME.length;
  const state = parts[1 + j];
  const a = state.indexOf(ACTION);
  const e = state.indexOf(TRACE_END);
  const len = a >= 0 ? a : e >= 0 ? e : state.length;
  return { promptEnd, targetEnd: promptEnd + len };
}

/** Pieces in order (their texts join to `text`), one list per display block (head, each state). */
export function pieces(text: string, cut: { promptEnd: number; targetEnd: number } | null): Piece[][] {
  const region = (at: number): Piece['region'] =>
    !cut ? 'all' : at < cut.promptEnd ? 'prompt' : at < cut.targetEnd ? 'target' : 'after';
  const bounds = cut ? [cut.promptEnd, cut.targetEnd] : [];
  const blocks: Piece[][] = [];
  let block: Piece[] = [];
  const push = (from: number, to: number, token: boolean) => {
    // split plain text at the prompt/target bounds
    let a = from;
    for (const b of bounds) {
      if (b > a && b < to) {
        block.push({ text: text.slice(a, b), token, region: region(a) });
        a = b;
      }
    }
    if (to > a) block.push({ text: text.slice(a, to), token, region: region(a) });
  };
  let at = 0;
  for (const m of text.matchAll(TOKEN)) {
    const i = m.index!;
    if (m[0] === FRAME && (block.length || i > at)) {
      push(at, i, false);
      blocks.push(block);
      block = [];
      at = i;
    }
    push(at, i, false);
    push(i, i + m[0].length, true);
    at = i + m[0].length;
  }
  push(at, text.length, false);
  blocks.push(block);
  return blocks;
}
