import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { WINDOW_SQL } from '../../src/store/queries/events.js';
import { tempDir, writeTraces, cleanTempDirs } from './fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

afterAll(cleanTempDirs);

let corpus: Corpus;

beforeAllOrFail(async () => {
  const dir = tempDir();
  corpus = openCorpus(join(dir, 'q.db'), { create: true });
  await corpus.ingest(
    writeTraces(dir, 'q.jsonl', [
      { name: 'alpha_1', n: 1 },
      { name: 'alpha_2', n: 9, exit: 'error' },
      { name: 'beta_100%', n: 4, tag: ' zebra' },
      { name: 'gamma', n: 6, exit: 'never', tag: ' ünï' },
      { name: 'Alpha_3', n: 2 },
    ]),
  );
});

const names = (q: Parameters<Corpus['listTraces']>[0]) => corpus.listTraces(q).rows.map((r) => r.name);

describe('listTraces', () => {
  it('filters by name substring (ASCII case-insensitive), with LIKE wildcards taken literally', () => {
    expect(names({ search: 'alpha' })).toEqual(['alpha_1', 'alpha_2', 'Alpha_3']);
    expect(names({ search: '100%' })).toEqual(['beta_100%']);
    expect(names({ search: '%' })).toEqual(['beta_100%']);
    // '_' matches only itself: 'gamma' would match 'a_' if it were LIKE's any-character.
    expect(names({ search: 'a_' })).toEqual(['alpha_1', 'alpha_2', 'beta_100%', 'Alpha_3']);
  });

  it('filters by exit status and reports the total before paging', () => {
    expect(names({ exit: 'error' })).toEqual(['alpha_2']);
    expect(names({ exit: 'never' })).toEqual(['gamma']);
    const page = corpus.listTraces({ sort: 'name', limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.name)).toEqual(['alpha_1', 'alpha_2']);
  });

  it('sorts by events, name or id, ascending or descending', () => {
    expect(corpus.listTraces({ sort: 'events', desc: true }).rows.map((r) => r.events)).toEqual([24, 18, 14, 10, 8]);
    expect(names({ sort: 'name' })).toEqual(['Alpha_3', 'alpha_1', 'alpha_2', 'beta_100%', 'gamma']);
    expect(names({ sort: 'id', desc: true })).toEqual(['Alpha_3', 'gamma', 'beta_100%', 'alpha_2', 'alpha_1']);
  });

  it('finds traces by a substring of any local repr, not of local names', () => {
    expect(names({ value: 'zebra' })).toEqual(['beta_100%']);
    expect(names({ value: 'ünï' })).toEqual(['gamma']);
    expect(names({ value: '36' })).toEqual(['alpha_2']); // acc reaches 36 only when n = 9
    expect(names({ value: 'acc' })).toEqual([]); // a name, never a repr
    expect(names({ value: 'zebra', exit: 'normal' })).toEqual(['beta_100%']);
    expect(names({ value: 'zebra', exit: 'error' })).toEqual([]);
    // The total counts every match, whatever page is asked for.
    expect(corpus.listTraces({ value: '0', limit: 2 })).toMatchObject({ total: 5, rows: [{ name: 'alpha_1' }, { name: 'alpha_2' }] });
    expect(corpus.listTraces({ value: '0', limit: 2, offset: 10 })).toEqual({ total: 5, rows: [] });
    expect(corpus.listTraces({ value: 'no such repr', limit: 2 })).toEqual({ total: 0, rows: [] });
  });

  it('finds traces by a substring of the program source', () => {
    expect(names({ code: 'range(n)' })).toHaveLength(5);
    expect(names({ code: 'while True' })).toEqual([]);
  });

  it('rejects a sort key or exit outside the fixed set instead of splicing it into SQL', () => {
    // @ts-expect-error not a sort key: its type refuses it, and so must the store at run time
    expect(() => corpus.listTraces({ sort: 'name; DROP TABLE traces' })).toThrow(RangeError);
    // @ts-expect-error not an exit kind: its type refuses it, and so must the store at run time
    expect(() => corpus.listTraces({ exit: 'x' })).toThrow(RangeError);
  });
});

describe('events by window', () => {
  it('returns the half-open window [from, to) in seq order, and the iterator agrees', () => {
    const id = corpus.listTraces({ search: 'alpha_2' }).rows[0].id;
    expect(corpus.getEvents(id, 3, 7).map((e) => e.seq)).toEqual([3, 4, 5, 6]);
    expect(corpus.getEvents(id, 20).map((e) => e.seq)).toEqual([20, 21, 22, 23]);
    expect(corpus.getEvents(id, 30)).toEqual([]);
    expect([...corpus.iterateEvents(id, 3, 7)]).toEqual(corpus.getEvents(id, 3, 7));
    expect(corpus.getEvents(id).length).toBe(corpus.getTrace(id)!.events);
  });

  it('is a range scan of the events primary key (EXPLAIN QUERY PLAN)', () => {
    const plan = connectionOf(corpus).prepare(`EXPLAIN QUERY PLAN ${WINDOW_SQL}`).all(1, 0, 10) as { detail: string }[];
    expect(plan).toHaveLength(1);
    expect(plan[0].detail).toMatch(/^SEARCH events USING PRIMARY KEY \(trace_id=\? AND seq>\? AND seq<\?\)$/);
  });

  it('the exit filter and the name sort use their indexes', () => {
    const exitPlan = connectionOf(corpus).prepare("EXPLAIN QUERY PLAN SELECT id FROM traces t WHERE t.exit = ? ORDER BY t.name").all('error') as { detail: string }[];
    expect(exitPlan.map((p) => p.detail).join('\n')).toMatch(/USING (COVERING )?INDEX traces_exit/);
    const namePlan = connectionOf(corpus).prepare('EXPLAIN QUERY PLAN SELECT id FROM traces t ORDER BY t.name_key, t.id LIMIT 50').all() as { detail: string }[];
    expect(namePlan.map((p) => p.detail).join('\n')).toMatch(/traces_name_key/);
  });
});
