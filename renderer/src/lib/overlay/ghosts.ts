/**
 * The ghost nodes of an open check (docs/explorer.md, "An item: predicted against true"): the
 * predicted state of the shown sample, and with a second run the second run's beside it
 * (slot 1). Each ghost's label says what was predicted and its verdict in a symbol (a colour
 * alone is not enough); two ghosts also name their run. `ghostPlace` puts a ghost beside the
 * true target in either tree shape: in the indented rows right of the target's label (slot 1
 * one row down), in the graph half a slot over and down (slot 1 further down).
 */
import type { Prediction } from '@core/semantics/parse.js';
import { LEVEL_H, SLOT_W } from '../tree/graph.js';
import { ROW_H } from '../tree/lod.js';
import type { OverlayVerdict } from './verdict.js';

interface Answer {
  parsed: Prediction | null;
  parseError: unknown;
  completion: string;
  verdict: OverlayVerdict | null;
}
interface Check {
  by: string | null;
  answers: Answer[];
  second: { by: string; answers: Answer[] } | null;
}

export interface Ghost {
  slot: 0 | 1;
  /** The run (or model) whose answer this is, when two are shown. */
  run: string | null;
  verdict: OverlayVerdict | 'none';
  /** The predicted event ('' when none was read). */
  event: string;
  text: string;
}

export const VERDICT_SYMBOL: Record<OverlayVerdict | 'none', string> = {
  pass: '✓',
  fail: '✗',
  format: '?',
  alternative: '≈',
  none: '–',
};

/** What a ghost says of an answer: the predicted event and line, or why there is none. */
export function answerText(a: Answer | null): string {
  if (!a) return 'no prediction';
  const p = a.parsed;
  if (p) return `${p.event}${p.src !== undefined ? ` ${p.src.trim().slice(0, 28)}` : ''}`;
  return a.parseError ? 'format error' : a.completion.trim().slice(0, 30);
}

function ghost(slot: 0 | 1, run: string | null, a: Answer | null): Ghost {
  const verdict = a?.verdict ?? 'none';
  return {
    slot,
    run,
    verdict,
    event: a?.parsed?.event ?? '',
    text: `${run ? `${run}: ` : ''}${answerText(a)} ${VERDICT_SYMBOL[verdict]}`,
  };
}

/** The ghosts of a check: its shown sample, and the second run's shown sample when there is one. */
export function ghostsOf(c: Check, sample: number, sample2: number): Ghost[] {
  if (!c.second) return [ghost(0, null, c.answers[sample] ?? null)];
  return [ghost(0, c.by, c.answers[sample] ?? null), ghost(1, c.second.by, c.second.answers[sample2] ?? null)];
}

/**
 * Where a ghost goes, in tree coordinates: `t` is the true target (or where an exit goes),
 * `x1` the right edge of the view and `dot` the pane's zoom factor for marks (TreeGeometry).
 */
export function ghostPlace(
  shape: 'rows' | 'graph',
  t: { x: number; y: number },
  slot: 0 | 1,
  x1: number,
  dot: number,
): { x: number; y: number } {
  // The graph: in the free band under the target's level (its labels end ~34 px below it), the
  // second run's a slot and a half further right.
  if (shape === 'graph') return { x: t.x + SLOT_W * (0.8 + 1.5 * slot), y: t.y + LEVEL_H * 0.73 };
  return { x: Math.max(t.x + 60, Math.min(t.x + 240, x1 - 170 * dot)), y: t.y + slot * ROW_H * dot };
}
