/**
 * Cutting one evaluation item out of a trajectory (docs/semantics.md §6): walk the actions,
 * take the prompt and target of the last one with textParts/promptTarget, and keep where
 * the target is in the tree and its true fields (for scoring).
 */
import {
  Scope,
  contextFor,
  promptTarget,
  seqOf,
  showState,
  textParts,
  walk,
  type Action,
  type Direction,
  type TargetFields,
  type Trajectory,
} from '../semantics/index.js';
import type { NewItem, ReadCorpus } from '../store/corpus.js';
import { loadTrace, type LoadedTrace } from '../trajectories/load.js';

/** Loaded traces and their scopes, a few at a time (items are made trace by trace). */
export class Traces {
  private readonly map = new Map<number, { trace: LoadedTrace; scopes: Map<number, Scope> }>();

  constructor(
    private readonly corpus: ReadCorpus,
    private readonly capacity = 32,
  ) {}

  get(id: number): LoadedTrace {
    return this.entry(id).trace;
  }

  scope(id: number, entry: number): Scope {
    const e = this.entry(id);
    let s = e.scopes.get(entry);
    if (!s) e.scopes.set(entry, (s = new Scope(e.trace.index, entry)));
    return s;
  }

  private entry(id: number) {
    let e = this.map.get(id);
    if (e) {
      this.map.delete(id);
    } else {
      e = { trace: loadTrace(this.corpus, id), scopes: new Map() };
      while (this.map.size >= this.capacity) this.map.delete(this.map.keys().next().value as number);
    }
    this.map.set(id, e);
    return e;
  }
}

/** The true target of action k of `t` as fields. */
export function targetFields(trace: LoadedTrace, t: Trajectory, k: number): TargetFields {
  const node = t.states[k + 1];
  if (node === undefined) return { event: t.exit! };
  const s = showState(trace.index, t.direction, node, t.states[k], t.actions[k].action === 'breakpoint');
  const out: TargetFields = { event: s.kind, src: s.src };
  if (s.locals !== undefined) out.locals = s.locals;
  if ('arg' in s) out.arg = s.arg ?? null;
  return out;
}

/** The item for the last of `actions` walked from the entry; throws a WalkError when they cannot be walked. */
export function cutItem(
  traces: Traces,
  traceId: number,
  direction: Direction,
  entry: number,
  actions: Action[],
  key: string,
  horizon: number | null = null,
): NewItem {
  const trace = traces.get(traceId);
  const t = walk(traces.scope(traceId, entry), direction, actions);
  const k = actions.length - 1;
  const { prompt, target } = promptTarget(textParts(trace.index, t, contextFor(direction, trace.record)), k);
  const node = t.states[k + 1];
  return {
    key,
    traceId,
    direction,
    entry,
    actions,
    horizon,
    prompt,
    target,
    targetNode: node ?? null,
    targetSeq: node === undefined ? null : seqOf(direction, node),
    truth: targetFields(trace, t, k),
    callReturn: node === undefined ? null : callReturn(trace, direction, node),
  };
}

/**
 * What the call behind an inv_call node returned (its segment's return value), for the
 * valid-alternative check; null when the node is not an inv_call, the trace is not in call
 * mode (running the module body would run the script), or the call did not return a value.
 */
export function callReturn(trace: LoadedTrace, direction: Direction, node: number): string | null {
  if (direction !== 'inverse' || node & 1 || trace.record.mode !== 'call') return null;
  const { events } = trace;
  const call = events[seqOf(direction, node)];
  if (call.event !== 'call') return null;
  for (let s = call.seq + 1; s < events.length; s++) {
    if (events[s].frame === call.frame && events[s].event === 'return') return events[s].arg;
  }
  return null;
}
