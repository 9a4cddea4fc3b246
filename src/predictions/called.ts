/**
 * The function a call-mode trace was recorded for (docs/semantics.md §2): `main` (seq 0)
 * calls it from its one line, `return f(<arguments>)`, so its `call` is the LAST call whose
 * parent is a state of main's frame: Python evaluates the arguments first, and a traced
 * function called in them (`f(g(1))`) is called from that line before f. CRUXEval's `f` is
 * always seq 2.
 */
import { forwardRoots } from '../semantics/index.js';
import type { Traces } from './items.js';

export interface CalledFunction {
  /** Seq of its `call` (an entry). */
  call: number;
  /** Seqs of its segment's own states, in time order: the call, its lines, its return. */
  states: number[];
  /** Seq of its `return`, or null when it never returned (cut by a limit). */
  ret: number | null;
}

/** Null when the trace is not in call mode or never reached the call. */
export function calledFunction(traces: Traces, traceId: number): CalledFunction | null {
  const { record, events } = traces.get(traceId);
  if (record.mode !== 'call' || events.length === 0) return null;
  const main = events[0].frame;
  const call = events.findLast((e) => e.event === 'call' && e.parent !== null && events[e.parent].frame === main);
  if (!call) return null;
  const states = forwardRoots(traces.scope(traceId, call.seq));
  const last = events[states[states.length - 1]];
  return { call: call.seq, states, ret: last.event === 'return' ? last.seq : null };
}
