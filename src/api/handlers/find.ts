/**
 * findInTrace: the states of one trace whose source line or values hold a text (a line of
 * code, a value in the locals, a return value or exception), for the explorer's search box.
 * Scans the trace held in the TraceCache once per query; answers the first `limit` seqs in
 * time order and how many there are in all.
 */
import { requireEvents } from '../../semantics/scope.js';
import type { Api } from '../../contract/index.js';
import type { TraceCache } from './trace-cache.js';

export function findHandlers(cache: TraceCache): Pick<Api, 'findInTrace'> {
  return {
    findInTrace(p) {
      const events = requireEvents(cache.get(p.traceId).index);
      const limit = p.limit ?? 1000;
      const seqs: number[] = [];
      let total = 0;
      for (const e of events) {
        const hit =
          e.src.includes(p.text) ||
          (e.arg !== null && e.arg.includes(p.text)) ||
          Object.values(e.locals).some((v) => v.includes(p.text));
        if (!hit) continue;
        if (total++ < limit) seqs.push(e.seq);
      }
      return { total, seqs };
    },
  };
}
