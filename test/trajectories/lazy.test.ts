// A trace opened lazily (src/trajectories/lazy.ts) is the trace the store holds, read in
// windows of 4,096 events the first time one is touched, and nothing is read for an index
// outside the trace; loadTrace (load.ts) reads it whole. Expected values come from the
// store's own getEvents and from the trace files the fixtures write.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCorpus, type ReadCorpus } from '../../src/store/corpus.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { openTraceLazily } from '../../src/trajectories/lazy.js';
import { loadTrace } from '../../src/trajectories/load.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';

const WINDOW = 4096;
let corpus: ReadCorpus;
let path: string;
/** Trace ids: `long` has 4,206 events (two windows), `exact` exactly 4,096, `short` 10. */
const long = 1;
const exact = 2;
const short = 3;

beforeAll(async () => {
  const dir = tempDir('stepscope-lazy-');
  path = join(dir, 'c.db');
  const c = openCorpus(path, { create: true });
  // traceRecords: 4 + 2n + 2 events.
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'long', n: 2100 },
      { name: 'exact', n: 2045 },
      { name: 'short', n: 2 },
    ]),
  );
  c.close();
  corpus = openCorpus(path, { readonly: true });
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** Opens a trace lazily, recording the size of each window read. */
function open(id: number) {
  const reads: number[] = [];
  const t = openTraceLazily(corpus, id, (evs) => reads.push(evs.length));
  return { t, reads };
}

describe('openTraceLazily', () => {
  it('every event, on both sides of a window boundary, is the stored event', () => {
    const stored = corpus.getEvents(long);
    expect(stored).toHaveLength(4206);
    const t = openTraceLazily(corpus, long);
    expect(t.events).toHaveLength(4206);
    for (const i of [0, 1, 2, 4094, 4095, 4096, 4097, 4205]) expect(t.events[i], `event ${i}`).toEqual(stored[i]);
    expect(Array.from({ length: t.events.length }, (_, i) => t.events[i])).toEqual(stored);
    expect(t.events.map((e: TraceEvent) => e.seq)).toEqual(stored.map((e) => e.seq));
  });

  it('reads one window of 4,096 events when the first event is touched, the rest of the trace for the second window, each once', () => {
    const { t, reads } = open(long);
    expect(reads).toEqual([]);
    expect(t.events[5]?.seq).toBe(5);
    expect(reads).toEqual([WINDOW]);
    expect(t.events[4095]?.seq).toBe(4095);
    expect(reads).toEqual([WINDOW]);
    expect(t.events[4200]?.seq).toBe(4200);
    expect(reads).toEqual([WINDOW, 4206 - WINDOW]);
    void t.events[4096];
    void t.events[0];
    expect(reads).toEqual([WINDOW, 4206 - WINDOW]);
  });

  it('an index outside the trace (negative, past the end, fractional, not a number) is undefined and reads nothing', () => {
    for (const id of [long, exact, short]) {
      const { t, reads } = open(id);
      const count = t.events.length;
      for (const i of [-1, -4096, count, count + 1, count + WINDOW, 1.5, 4096.5, Number.NaN]) {
        expect(t.events[i], `trace ${id}, index ${i}`).toBeUndefined();
      }
      expect(reads, `trace ${id}`).toEqual([]);
    }
  });

  it('a window refused by onRead stays unread: the access throws, and a later access asks again', () => {
    let refuse = true;
    const asked: number[] = [];
    const t = openTraceLazily(corpus, short, (evs) => {
      asked.push(evs.length);
      if (refuse) throw new Error('over budget');
    });
    expect(() => t.events[0]).toThrow('over budget');
    refuse = false;
    expect(t.events[9]?.event).toBe('return');
    expect(asked).toEqual([10, 10]);
  });

  it('a missing trace is a not-found error naming the corpus and the id', () => {
    expect(() => openTraceLazily(corpus, 99)).toThrow(
      expect.objectContaining({ code: 'not-found', message: `${path} has no trace with id 99` }),
    );
  });
});

describe('loadTrace', () => {
  it('holds the stored trace whole, with its record and an index over its events', () => {
    const t = loadTrace(corpus, exact);
    expect(t.record.name).toBe('exact');
    expect(t.events).toEqual(corpus.getEvents(exact));
    expect(t.events).toHaveLength(WINDOW);
    expect(t.index.events).toBe(t.events);
    // The same trace opened lazily has the same tree: same states in the same order.
    const lazy = openTraceLazily(corpus, exact);
    expect(t.index.count).toBe(WINDOW);
    for (const k of ['kind', 'parent', 'subtreeEnd', 'seg', 'invOrder'] as const)
      expect(Array.from(t.index[k]), k).toEqual(Array.from(lazy.index[k]));
    expect(Array.from(t.index.parent).slice(0, 4)).toEqual([-1, -1, 1, 1]);
  });

  it('a missing trace is a not-found error naming the corpus and the id', () => {
    expect(() => loadTrace(corpus, 0)).toThrow(
      expect.objectContaining({ code: 'not-found', message: `${path} has no trace with id 0` }),
    );
  });
});
