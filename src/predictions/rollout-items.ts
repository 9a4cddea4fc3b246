/**
 * Rollout items (docs/predictions.md, "Rollouts"): whole trajectories sampled with the §7 policy, which a model runs
 * on its own states. Per chosen trace and direction, N items; item n of (trace, direction) draws with attempt
 * a = 0, 1, … from its own generator seeded from (seed, 'rollout', trace, direction, n, a): an entry (uniformly
 * among the trace's calls, seq 0 being the root) and a trajectory of at most `maxSteps` actions. An attempt fails
 * when the trace has no events or repeats an earlier item; after MAX_ATTEMPTS the trace gets fewer items.
 *
 * The item's row is its step 1 (prompt: the text up to and including the first action and its `<|frame_sep|>`;
 * target: the state after it); `steps` holds the true state after every action.
 */
import {
  contextFor,
  formatAction,
  mulberry32,
  promptTarget,
  sampleTrajectory,
  seedFrom,
  seqOf,
  textParts,
  walk,
  type Action,
  type Direction,
} from '../semantics/index.js';
import type { NewItem } from '../store/corpus.js';
import { cutItem, targetFields, type Traces } from './items.js';
import { MAX_ATTEMPTS } from './next-state.js';
import type { Skipped } from './cruxeval-items.js';

export interface RolloutOptions {
  seed: number;
  perTrace: number;
  directions: readonly Direction[];
  traceIds: readonly number[];
  maxSteps: number;
}

export function rolloutItems(traces: Traces, o: RolloutOptions): { items: NewItem[]; skipped: Skipped[] } {
  const items: NewItem[] = [];
  const skipped: Skipped[] = [];
  for (const traceId of o.traceIds) {
    const entries = traces.get(traceId).events.flatMap((e) => (e.event === 'call' ? [e.seq] : []));
    if (entries.length === 0) {
      skipped.push({ trace: traceId, name: traces.get(traceId).record.name, reason: 'the trace has no events' });
      continue;
    }
    for (const dir of o.directions) {
      const seen = new Set<string>();
      for (let n = 0; n < o.perTrace; n++) {
        for (let a = 0; a < MAX_ATTEMPTS; a++) {
          const rng = mulberry32(seedFrom(o.seed, 'rollout', traceId, dir, n, a));
          const entry = entries[Math.floor(rng() * entries.length)];
          const t = sampleTrajectory(traces.scope(traceId, entry), dir, rng, { maxSteps: o.maxSteps });
          if (t.actions.length === 0) continue;
          const id = JSON.stringify([entry, t.actions.map(formatAction)]);
          if (seen.has(id)) continue;
          seen.add(id);
          items.push(rolloutItem(traces, traceId, dir, entry, t.actions, `${dir}/${traceId}/${n}`));
          break;
        }
      }
    }
  }
  return { items, skipped };
}

/** The rollout item walking `actions` from the entry: step 1 as the item's row, and every step's truth. */
export function rolloutItem(
  traces: Traces,
  traceId: number,
  direction: Direction,
  entry: number,
  actions: Action[],
  key: string,
): NewItem {
  const trace = traces.get(traceId);
  const first = cutItem(traces, traceId, direction, entry, actions.slice(0, 1), key);
  const t = walk(traces.scope(traceId, entry), direction, actions);
  const parts = textParts(trace.index, t, contextFor(direction, trace.record));
  const steps = t.actions.map((x, k) => {
    const node = t.states[k + 1];
    return {
      step: k + 1,
      action: x.action,
      target: promptTarget(parts, k).target,
      targetNode: node ?? null,
      targetSeq: node === undefined ? null : seqOf(direction, node),
      truth: targetFields(trace, t, k),
    };
  });
  // The item's own actions are all of them (its row's `action` is the first's kind: step 1's).
  return { ...first, actions: t.actions, steps };
}
