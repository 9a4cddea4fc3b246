/**
 * The horizon protocol (the paper's Fig. 8; docs/semantics.md §8): single steps inserted
 * before the final jump so that it skips a chosen fraction of the function's states.
 *
 * For each call-mode trace, over the recorded function's own states (its call, its lines,
 * its return; calls it makes are stepped over, not counted):
 * - forward: from the root, step_into twice (to the function's call), then p step_over,
 *   then step_return. The jump from state p skips the m - 2 - p lines between it and the
 *   return (m states in all): horizon = (m - 2 - p) / (m - 2), 1 from the call, 0 from the
 *   last line;
 * - inverse: over the function's call, p inv_step_over from its inv_return, then
 *   inv_step_call; the same fraction over the nodes of the inverse tree's top level (a line
 *   that made a call counts twice there: its inv_line_call and its plain copy).
 * `points` items per trace and direction, at fractions evenly spaced from 1 to 0 (rounded
 * to the nearest position; repeats dropped). No randomness: the seed does not matter.
 */
import { inverseRoots, type Action, type Direction } from '../semantics/index.js';
import type { NewItem } from '../store/corpus.js';
import { calledFunction } from './called.js';
import type { Skipped } from './cruxeval-items.js';
import { cutItem, type Traces } from './items.js';

/** Positions p (0 = the function's first state) for `points` fractions over m states. */
export function horizonPositions(m: number, points: number): number[] {
  const gaps = m - 2;
  if (gaps < 1) return [];
  const ps = new Set<number>();
  for (let i = 0; i < points; i++) ps.add(Math.round(points === 1 ? 0 : (i / (points - 1)) * gaps));
  return [...ps].sort((a, b) => a - b);
}

export function horizonItems(
  traces: Traces,
  directions: readonly Direction[],
  traceIds: readonly number[],
  points: number,
): { items: NewItem[]; skipped: Skipped[] } {
  const items: NewItem[] = [];
  const skipped: Skipped[] = [];
  for (const id of traceIds) {
    const { record } = traces.get(id);
    const f = calledFunction(traces, id);
    if (!f || f.ret === null || f.call !== 2) {
      if (record.mode === 'call')
        skipped.push({
          trace: id,
          name: record.name,
          reason: f ? 'the function never returned or is not reached by two steps' : 'no call of the function',
        });
      continue;
    }
    for (const dir of directions) {
      const m = dir === 'forward' ? f.states.length : inverseRoots(traces.scope(id, f.call)).length;
      for (const p of horizonPositions(m, points)) {
        const horizon = (m - 2 - p) / (m - 2);
        const steps = (a: Action['action']) => Array.from({ length: p }, () => ({ action: a }) as Action);
        const actions: Action[] =
          dir === 'forward'
            ? [{ action: 'step_into' }, { action: 'step_into' }, ...steps('step_over'), { action: 'step_return' }]
            : [...steps('inv_step_over'), { action: 'inv_step_call' }];
        items.push(cutItem(traces, id, dir, dir === 'forward' ? 0 : f.call, actions, `${dir}/${id}/${p}`, horizon));
      }
    }
  }
  return { items, skipped };
}
