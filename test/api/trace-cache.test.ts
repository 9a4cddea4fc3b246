// The trace cache holds whole traces within a budget in bytes, dropping the least recently
// used, and refuses a trace that alone passes it, without ever holding much more.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceCache, type CacheChange } from '../../src/api/handlers/index.js';
import { openCorpus, type ReadCorpus } from '../../src/store/corpus.js';
import { writeFileSync } from 'node:fs';
import { cleanTempDirs, jsonl, tempDir, traceRecords, writeTraces } from '../store/fixtures.js';

let corpus: ReadCorpus;
/** What traces 1 and 2 (equal shape) and 3 (small) take. */
let big: number;
let small: number;

beforeAll(async () => {
  const dir = tempDir('stepscope-cache-');
  const db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 300 }, { name: 'b', n: 300 }, { name: 'c', n: 2 }]));
  // Trace 4: thirty more locals in every event, short values: many small strings, little text.
  const wide = traceRecords({ name: 'd', n: 300 }).map((r) =>
    r.type === 'event' ? { ...r, locals: { ...(r.locals as object), ...Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`v${k}`, String(k)])) } } : r,
  );
  writeFileSync(join(dir, 'wide.jsonl'), jsonl(wide));
  await c.ingest(join(dir, 'wide.jsonl'));
  c.close();
  corpus = openCorpus(db, { readonly: true });
  const probe = new TraceCache(corpus);
  big = probe.get(1).bytes;
  small = probe.get(3).bytes;
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

describe('trace cache', () => {
  it('counts events, index and skeleton: more than the events alone', () => {
    const t = new TraceCache(corpus).get(1);
    const index = Object.values(t.index).filter(ArrayBuffer.isView).reduce((n, a) => n + (a as ArrayBufferView).byteLength, 0);
    expect(t.bytes).toBeGreaterThan(index + 5 * 8 * t.events.length); // index + the skeleton's five number columns, at least
    expect(big).toBeGreaterThan(50 * small);
  });

  it('stays within its budget, dropping the least recently used trace', () => {
    const budget = Math.floor(1.5 * big) + small;
    const cache = new TraceCache(corpus, budget);
    const changes: CacheChange[] = [];
    cache.onChange = (c) => changes.push(c);
    cache.get(1);
    cache.get(3);
    cache.get(2); // no room for 1 and 2: 1 is the least recently used
    expect(changes.map((c) => c.dropped)).toEqual([[], [], [1]]);
    cache.get(3); // a hit: 3 is now the most recently used, 2 the least
    cache.get(1);
    expect(changes.map((c) => c.dropped)).toEqual([[], [], [1], [2]]);
    expect(cache.bytes).toBeLessThanOrEqual(budget);
    expect(cache.bytes).toBe(big + small);
  });

  it('stops reading a trace that alone passes the budget, and keeps what it held', () => {
    const cache = new TraceCache(corpus, Math.floor(big / 2));
    const changes: CacheChange[] = [];
    cache.onChange = (c) => changes.push(c);
    cache.get(3);
    expect(() => cache.get(1)).toThrow(expect.objectContaining({ code: 'unavailable', message: expect.stringMatching(/^trace 1 has 606 events, about 1 MiB in memory: over the 1 MiB/) }));
    expect(cache.bytes).toBe(small);
    expect(cache.get(3).bytes).toBe(small);
    expect(changes.map((c) => c.loaded?.traceId)).toEqual([3]);
  });
  it('never holds more than its budget, whatever the budget: a trace that would pass it is refused', () => {
    const wide = new TraceCache(corpus).get(4).bytes;
    for (const [id, size] of [[1, big], [4, wide]]) for (const share of [0.5, 0.9, 0.95, 0.99, 1, 1.01, 1.05, 1.1]) {
      const budget = Math.floor(share * size);
      const cache = new TraceCache(corpus, budget);
      let refused = false;
      try {
        cache.get(id);
      } catch {
        refused = true;
      }
      expect(cache.bytes, `trace ${id}, budget ${share} of its size`).toBeLessThanOrEqual(budget);
      // Near its size, the answer rests on the estimate made while reading; far from it, not.
      if (share <= 0.9) expect(refused, `trace ${id}, budget ${share} of its size`).toBe(true);
      if (share >= 1.1) expect(refused, `trace ${id}, budget ${share} of its size`).toBe(false);
    }
  });
});
