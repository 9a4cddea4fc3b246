/** A skeleton (as getSkeleton's decode gives it) made from recorded events, for the drawing-tree tests. */
import type { Skeleton } from '../../src/contract/index.js';
import { EVENT_KINDS, type TraceEvent } from '../../src/trace/types.js';

export function skeletonOf(events: readonly TraceEvent[]): Skeleton {
  return {
    count: events.length,
    kind: events.map((e) => EVENT_KINDS.indexOf(e.event)),
    parent: events.map((e) => e.parent ?? -1),
    frame: events.map((e) => e.frame),
    line: events.map((e) => e.line),
    func: events.map(() => 0),
    funcs: ['f'],
  };
}

/**
 * A random program's skeleton: calls nested in lines (a callee's events are children of the
 * caller's line), loops of repeated lines, returns and exceptions; seeded, so it is the same
 * every run.
 */
export function randomSkeleton(seed: number, target: number): Skeleton {
  let x = seed;
  const rand = (k: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x % k);
  const kind: number[] = [],
    parent: number[] = [],
    frame: number[] = [],
    line: number[] = [];
  const ev = (k: number, p: number, f: number, l: number) => (
    kind.push(k),
    parent.push(p),
    frame.push(f),
    line.push(l),
    kind.length - 1
  );
  let frames = 0;
  const call = (p: number, depth: number) => {
    const f = frames++;
    const base = 10 * rand(5);
    ev(0, p, f, base + 1);
    const lines = 1 + rand(depth === 0 ? 400 : 60);
    for (let i = 0; i < lines && kind.length < target; i++) {
      const at = ev(1, p, f, base + 2 + rand(3));
      if (depth < 4 && rand(6) === 0) call(at, depth + 1);
    }
    ev(rand(8) === 0 ? 3 : 2, p, f, base + 9);
  };
  while (kind.length < target) call(-1, 0);
  return { count: kind.length, kind, parent, frame, line, func: kind.map(() => 0), funcs: ['f'] };
}
