/**
 * Which CRUXEval traces test/semantics/corpus.test.ts checks. `npm test` checks all 800.
 * A mutation run (vitest.mutation.config.ts sets STEPSCOPE_CORPUS_SUBSET=1, nothing else
 * does) runs that file once per mutant, so it checks a fixed subset instead: every 10th
 * trace, the 3 longest, and for each shape a trace can have (its event kinds, how it ends,
 * how many calls it makes and how deep they nest) the first trace of that shape if the
 * others have none. The choice depends only on the recording, never on a seed or a clock.
 */
import type { Trace } from './helpers.js';

export const SUBSET = process.env.STEPSCOPE_CORPUS_SUBSET === '1';

/** What a trace exercises in the trees and actions. */
export function shapesOf(t: Trace): Set<string> {
  const calls = t.events.filter((e) => e.event === 'call').length;
  const depth = Math.max(...t.events.map((e) => e.frame));
  return new Set([
    ...t.events.map((e) => `event:${e.event}`),
    `exit:${t.end.exit}`,
    `calls:${Math.min(calls, 4)}`,
    `depth:${Math.min(depth, 3)}`,
  ]);
}

/** Indexes into `traces` of the subset, in order. */
export function subsetIndexes(traces: readonly Trace[]): number[] {
  const pick = new Set<number>();
  traces.forEach((_, i) => i % 10 === 0 && pick.add(i));
  [...traces.keys()]
    .sort((a, b) => traces[b].events.length - traces[a].events.length || a - b)
    .slice(0, 3)
    .forEach((i) => pick.add(i));
  const covered = new Set([...pick].flatMap((i) => [...shapesOf(traces[i])]));
  traces.forEach((t, i) => {
    const shapes = shapesOf(t);
    if ([...shapes].some((s) => !covered.has(s))) {
      pick.add(i);
      shapes.forEach((s) => covered.add(s));
    }
  });
  return [...pick].sort((a, b) => a - b);
}

/** The traces corpus.test.ts checks: all of them, or the subset in a mutation run. */
export const checkedTraces = (traces: Trace[]): Trace[] =>
  SUBSET ? subsetIndexes(traces).map((i) => traces[i]) : traces;
