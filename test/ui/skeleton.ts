/** A skeleton (as getSkeleton's decode gives it) made from recorded events, for the drawing-tree tests. */
import type { Skeleton } from '../../src/api/contract/index.js';
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
