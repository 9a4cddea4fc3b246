/**
 * A fake data source for component tests: the API served from traces held in memory (recorded
 * by the real recorder, see ../../semantics/helpers.ts), walked by the real semantics. It
 * checks params with the contract's validators, so a view that sends a bad request fails here
 * as it would against the server. Requests can be held back (`hold`) to test that only the
 * newest answer lands, and every call is logged.
 */
import {
  encodeSkeleton,
  type Method,
  type Params,
  type Skeleton,
  type TraceRow,
  type TrajectoryRow,
} from '../../../src/contract/index.js';
import { buildTraceIndex, parseAction, walkView, type TreeIndex } from '../../../src/semantics/index.js';
import { ApiCallError } from '../../../renderer/src/lib/source.js';
import { HeldSource } from './held-source.js';
import type { Trace } from '../../semantics/helpers.js';

const KIND: Record<string, number> = { call: 0, line: 1, return: 2, exception: 3 };

export class FakeSource extends HeldSource {
  readonly #index = new Map<number, TreeIndex>();

  constructor(
    readonly traces: Trace[],
    readonly trajectories: TrajectoryRow[] = [],
  ) {
    super();
  }

  #trace(id: number): Trace {
    const t = this.traces[id - 1];
    if (!t) throw new ApiCallError(`no trace with id ${id}`, 'not-found');
    return t;
  }

  #row(id: number): TraceRow {
    const t = this.#trace(id);
    return {
      id,
      name: t.header.name,
      mode: t.header.mode,
      exit: t.end.exit,
      reason: t.end.reason,
      events: t.end.events,
      python: t.header.python,
      seconds: t.end.seconds,
    };
  }

  protected answer(method: Method, p: unknown): unknown {
    switch (method) {
      case 'listTraces': {
        const q = p as Params<'listTraces'>;
        let rows = this.traces.map((_, i) => this.#row(i + 1));
        if (q.name) rows = rows.filter((r) => r.name.includes(q.name!));
        if (q.exit) rows = rows.filter((r) => r.exit === q.exit);
        const key = q.sort ?? 'id';
        rows.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id) * (q.desc ? -1 : 1));
        const offset = q.offset ?? 0;
        return { total: rows.length, rows: rows.slice(offset, offset + (q.limit ?? 100)) };
      }
      case 'getTrace': {
        const t = this.#trace((p as Params<'getTrace'>).id);
        return { id: (p as Params<'getTrace'>).id, header: t.header, end: t.end };
      }
      case 'getEvents': {
        const q = p as Params<'getEvents'>;
        return this.#trace(q.traceId).events.slice(q.from, q.to);
      }
      case 'getSkeleton': {
        const ev = this.#trace((p as Params<'getSkeleton'>).traceId).events;
        const funcs = [...new Set(ev.map((e) => e.func))];
        const sk: Skeleton = {
          count: ev.length,
          kind: ev.map((e) => KIND[e.event]),
          parent: ev.map((e) => e.parent ?? -1),
          frame: ev.map((e) => e.frame),
          line: ev.map((e) => e.line),
          func: ev.map((e) => funcs.indexOf(e.func)),
          funcs,
        };
        return encodeSkeleton(sk);
      }
      case 'walk': {
        const q = p as Params<'walk'>;
        const t = this.#trace(q.traceId);
        let ix = this.#index.get(q.traceId);
        if (!ix) this.#index.set(q.traceId, (ix = buildTraceIndex(t.events)));
        try {
          return walkView(ix, t.header, q.direction, q.entry ?? 0, q.actions.map(parseAction));
        } catch (e) {
          throw new ApiCallError((e as Error).message, 'bad-input');
        }
      }
      case 'listTrajectories': {
        const q = p as Params<'listTrajectories'>;
        const mine = this.trajectories.filter((t) => t.traceId === q.traceId);
        const offset = q.offset ?? 0;
        return { total: mine.length, rows: mine.slice(offset, offset + (q.limit ?? 100)) };
      }
      case 'findInTrace': {
        const q = p as Params<'findInTrace'>;
        const hits = this.#trace(q.traceId).events.filter(
          (e) =>
            e.src.includes(q.text) ||
            (e.arg ?? '').includes(q.text) ||
            Object.values(e.locals).some((v) => v.includes(q.text)),
        );
        return { total: hits.length, seqs: hits.slice(0, q.limit ?? 1000).map((e) => e.seq) };
      }
      case 'getTrajectory': {
        const t = this.trajectories.find((x) => x.id === (p as Params<'getTrajectory'>).id);
        if (!t) throw new ApiCallError('no such trajectory', 'not-found');
        return t;
      }
    }
  }
}
