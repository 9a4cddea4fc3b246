/**
 * The paper's next-state protocol (docs/semantics.md §8): for each action kind of the chosen
 * directions, N items, each cut right after an action of that kind in a trajectory sampled
 * with the §7 policy.
 *
 * Item n of kind A: attempt a = 0, 1, … draws from its own generator, seeded from (seed, A,
 * n, a): a trace (uniformly among the chosen ones, in id order), an entry (uniformly among
 * the trace's call events, seq 0 being the root), a trajectory of at most `maxSteps`
 * actions, and one of its A actions uniformly. An attempt fails when the trace has no events
 * (a program that did not compile), the trajectory has no A action or the cut repeats an
 * earlier item; after MAX_ATTEMPTS the kind gets fewer items (reported). The same corpus and
 * options therefore give the same items.
 */
import {
  FORWARD_ACTIONS,
  INVERSE_ACTIONS,
  formatAction,
  mulberry32,
  sampleTrajectory,
  seedFrom,
  type ActionName,
  type Direction,
} from '../semantics/index.js';
import type { NewItem } from '../store/corpus.js';
import { cutItem, type Traces } from './items.js';

export const MAX_ATTEMPTS = 200;

export interface NextStateOptions {
  seed: number;
  perAction: number;
  directions: readonly Direction[];
  traceIds: readonly number[];
  maxSteps: number;
}

export interface Shortfall {
  action: ActionName;
  made: number;
}

export function nextStateItems(traces: Traces, o: NextStateOptions): { items: NewItem[]; short: Shortfall[] } {
  const items: NewItem[] = [];
  const short: Shortfall[] = [];
  const seen = new Set<string>();
  const calls = new Map<number, number[]>();
  /**
   * A trace's entries: its call events (seq 0, the root, first); none in a trace without events (a program that did not
   * compile).
   */
  const callsOf = (id: number): number[] => {
    let c = calls.get(id);
    if (!c) calls.set(id, (c = traces.get(id).events.flatMap((e) => (e.event === 'call' ? [e.seq] : []))));
    return c;
  };
  for (const dir of o.directions) {
    const kinds: readonly ActionName[] = dir === 'forward' ? FORWARD_ACTIONS : INVERSE_ACTIONS;
    for (const action of kinds) {
      let made = 0;
      for (let n = 0; n < o.perAction && o.traceIds.length > 0; n++) {
        for (let a = 0; a < MAX_ATTEMPTS; a++) {
          const rng = mulberry32(seedFrom(o.seed, 'next-state', action, n, a));
          const traceId = o.traceIds[Math.floor(rng() * o.traceIds.length)];
          const entries = callsOf(traceId);
          // No entry, no trajectory: the attempt fails (the other traces are drawn as before).
          if (entries.length === 0) continue;
          const entry = entries[Math.floor(rng() * entries.length)];
          const t = sampleTrajectory(traces.scope(traceId, entry), dir, rng, { maxSteps: o.maxSteps });
          const at = t.actions.flatMap((x, j) => (x.action === action ? [j] : []));
          if (at.length === 0) continue;
          const actions = t.actions.slice(0, at[Math.floor(rng() * at.length)] + 1);
          const id = JSON.stringify([traceId, dir, entry, actions.map(formatAction)]);
          if (seen.has(id)) continue;
          seen.add(id);
          items.push(cutItem(traces, traceId, dir, entry, actions, `${action}/${n}`));
          made++;
          break;
        }
      }
      if (made < o.perAction) short.push({ action, made });
    }
  }
  return { items, short };
}
