/**
 * Where each action leads from the current state: the truth is the API's `walk` of the
 * current history plus that one action (the semantics, docs/semantics.md §5), asked for every
 * action of the trajectory's direction at once. Forward: step_into, step_over, step_return,
 * continue (to the exit) and a breakpoint on the chosen line; inverse: inv_step_into,
 * inv_step_over, inv_step_call. The tree panes draw them as labeled edges (EdgesLayer).
 */
import type { Direction } from '@core/contract/index.js';
import type { DataSource } from '../lib/source.js';

export interface ActionTarget {
  /** The action as walked (`breakpoint <line text>` for a breakpoint). */
  action: string;
  /** Its short name as drawn: the action, or `breakpoint L<n>`. */
  label: string;
  /** The state it leads to, or null when it exits (then `exit` names the exit). */
  target: { seq: number; event: string } | null;
  exit: string | null;
}

export interface ProbeFrom {
  traceId: number;
  direction: Direction;
  entry: number;
  /** Actions applied so far. */
  history: string[];
  /** The breakpoint line chosen (1-based, into the forward context) and its text, or null. */
  line: { n: number; src: string } | null;
}

const FORWARD = ['step_into', 'step_over', 'step_return', 'continue'];
const INVERSE = ['inv_step_into', 'inv_step_over', 'inv_step_call'];

/** Walks history + each action; an action the API refuses from here is left out. */
export async function probeActions(source: DataSource, from: ProbeFrom): Promise<ActionTarget[]> {
  const list: { action: string; label: string }[] = (from.direction === 'forward' ? FORWARD : INVERSE).map((a) => ({
    action: a,
    label: a,
  }));
  if (from.direction === 'forward' && from.line)
    list.push({ action: `breakpoint ${from.line.src}`, label: `breakpoint L${from.line.n}` });
  const walks = await Promise.all(
    list.map((a) =>
      source
        .call('walk', {
          traceId: from.traceId,
          direction: from.direction,
          entry: from.entry,
          actions: [...from.history, a.action],
        })
        .catch(() => null),
    ),
  );
  const out: ActionTarget[] = [];
  walks.forEach((w, j) => {
    if (!w) return;
    const last = w.states[w.states.length - 1];
    out.push({ ...list[j], target: w.exit ? null : { seq: last.seq, event: last.event }, exit: w.exit });
  });
  return out;
}
