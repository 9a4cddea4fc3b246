/**
 * What a state of a counterfactual changed against the origin's state at the same seq
 * (docs/explorer.md, "Counterfactuals"). The two traces are aligned by seq: equal before
 * `first_difference`, and compared position by position after it, so once the runs take
 * different lines a row says which line each took.
 */
import type { TraceEvent } from '@core/trace/types.js';

export interface StateChange {
  /** line: the line (or function) taken; event: the kind of state; local: a value; return: the value or exception. */
  what: 'line' | 'event' | 'local' | 'return';
  /** The local's name (what: 'local'). */
  name?: string;
  /** As the origin has it; null where the origin has nothing (a local it has not, or no such state). */
  was: string | null;
  /** As the counterfactual has it; null where it has nothing. */
  now: string | null;
}

const place = (e: TraceEvent) => `line ${e.line} in ${e.func}`;

/**
 * The differences of `now` (the counterfactual's state) from `was` (the origin's state at the
 * same seq, null when the origin ended before it). Empty when the two states are the same.
 */
export function stateChanges(was: TraceEvent | null, now: TraceEvent): StateChange[] {
  if (!was) return [{ what: 'line', was: null, now: place(now) }];
  const out: StateChange[] = [];
  if (was.line !== now.line || was.func !== now.func) out.push({ what: 'line', was: place(was), now: place(now) });
  if (was.event !== now.event) out.push({ what: 'event', was: was.event, now: now.event });
  const names = [...Object.keys(now.locals), ...Object.keys(was.locals).filter((n) => !(n in now.locals))];
  for (const name of names) {
    const a = was.locals[name] ?? null;
    const b = now.locals[name] ?? null;
    if (a !== b) out.push({ what: 'local', name, was: a, now: b });
  }
  if (was.arg !== now.arg) out.push({ what: 'return', was: was.arg, now: now.arg });
  return out;
}

/** How an edit is shown: `x = 5, y = 'a'`. */
export function editText(set: Record<string, string>): string {
  return Object.entries(set)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');
}
