/**
 * Listing traces and reading their events (queries/traces.ts, queries/events.ts): the filters,
 * sorts and totals of listTraces, the checks that keep a value the types forbid out of the SQL
 * (RangeError, with words that say what was wrong), how many statements a listing runs, the
 * window of events, and a trace's shape (the columns that lay out its trees). The tests that
 * count on one corpus share it; the others build their own small corpus inside the test
 * (Stryker's per-test coverage does not see beforeAll fixtures).
 */
import type Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { WINDOW_SQL } from '../../src/store/queries/events.js';
import { listTraces } from '../../src/store/queries/traces.js';
import { cleanTempDirs, jsonl, tempDir, traceRecords, writeTraces, type Rec } from './fixtures.js';
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
    expect(corpus.listTraces({ value: '0', limit: 2 })).toMatchObject({
      total: 5,
      rows: [{ name: 'alpha_1' }, { name: 'alpha_2' }],
    });
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

async function smallCorpus(): Promise<Corpus> {
  const dir = tempDir();
  const c = openCorpus(join(dir, 'c.db'), { create: true });
  // Ids 1..3; events 8, 12, 10; names sort b_2 < b_10 < c.
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'b_10', n: 1 },
      { name: 'c', n: 3, tag: ' zebra' },
      { name: 'b_2', n: 2, tag: ' zebra' },
    ]),
  );
  return c;
}

const namesIn = (c: Corpus, q: Parameters<Corpus['listTraces']>[0]) => c.listTraces(q).rows.map((r) => r.name);

function rangeError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RangeError);
    return (e as Error).message;
  }
  throw new Error('not refused');
}

describe("listTraces: descending sorts, values refused, the value filter's total", () => {
  it('sorts descending by id, name and events', async () => {
    const c = await smallCorpus();
    expect(namesIn(c, { desc: true })).toEqual(['b_2', 'c', 'b_10']);
    expect(namesIn(c, { sort: 'id', desc: true })).toEqual(['b_2', 'c', 'b_10']);
    expect(namesIn(c, { sort: 'name', desc: true })).toEqual(['c', 'b_10', 'b_2']);
    expect(namesIn(c, { sort: 'events', desc: true })).toEqual(['c', 'b_2', 'b_10']);
    expect(namesIn(c, { sort: 'name' })).toEqual(['b_2', 'b_10', 'c']);
    c.close();
  });

  it('refuses an exit or sort outside the fixed set, naming the value', async () => {
    const c = await smallCorpus();
    // @ts-expect-error not an exit kind
    expect(rangeError(() => c.listTraces({ exit: 'x' }))).toBe('exit must be normal, error or never, got "x"');
    // @ts-expect-error not a sort key
    expect(rangeError(() => c.listTraces({ sort: 'name; DROP TABLE traces' }))).toBe(
      'sort must be name, events or id, got "name; DROP TABLE traces"',
    );
    expect(namesIn(c, {})).toHaveLength(3);
    c.close();
  });

  it('refuses a limit or offset that is not a whole number, or a negative offset', async () => {
    const c = await smallCorpus();
    const msg = 'limit and offset must be whole numbers';
    expect(rangeError(() => c.listTraces({ limit: 1.5 }))).toBe(msg);
    expect(rangeError(() => c.listTraces({ offset: 0.5 }))).toBe(msg);
    expect(rangeError(() => c.listTraces({ limit: 1.5, offset: 1 }))).toBe(msg);
    expect(rangeError(() => c.listTraces({ offset: -1 }))).toBe(msg);
    expect(rangeError(() => c.listTraces({ limit: 2, offset: -1 }))).toBe(msg);
    expect(rangeError(() => c.listTraces({ value: 'zebra', offset: -1 }))).toBe(msg);
    // Whole numbers pass; no limit means every row.
    expect(c.listTraces({ limit: 1, offset: 1 })).toMatchObject({ total: 3, rows: [{ name: 'c' }] });
    c.close();
  });

  it('with a value filter, counts every match whatever the page', async () => {
    const c = await smallCorpus();
    expect(c.listTraces({ value: 'zebra', limit: 1 })).toMatchObject({ total: 2, rows: [{ name: 'c' }] });
    expect(c.listTraces({ value: 'zebra', limit: 1, offset: 1 })).toMatchObject({ total: 2, rows: [{ name: 'b_2' }] });
    expect(c.listTraces({ value: 'zebra', offset: 5 })).toEqual({ total: 2, rows: [] });
    expect(c.listTraces({ value: 'zebra', desc: true }).rows.map((r) => r.name)).toEqual(['b_2', 'c']);
    expect(c.listTraces({ value: 'nothing like it' })).toEqual({ total: 0, rows: [] });
    c.close();
  });
});

/** The statements listTraces runs on `db` (their SQL and bound values), with its answer. */
function recorded(db: Database.Database, q: Parameters<typeof listTraces>[1]) {
  const ran: { sql: string; args: unknown[] }[] = [];
  const spy = new Proxy(db, {
    get(target, key) {
      if (key !== 'prepare') return Reflect.get(target, key, target);
      return (sql: string) => {
        const stmt = target.prepare(sql);
        const wrap =
          (m: 'all' | 'get') =>
          (...args: unknown[]) => (ran.push({ sql, args }), (stmt[m] as (...a: unknown[]) => unknown)(...args));
        return new Proxy(stmt, {
          get(s, k) {
            if (k === 'all' || k === 'get') return wrap(k);
            if (k === 'pluck')
              return () => (
                stmt.pluck(),
                new Proxy(stmt, { get: (s2, k2) => (k2 === 'get' ? wrap('get') : Reflect.get(s2, k2, s2)) })
              );
            return Reflect.get(s, k, s);
          },
        });
      };
    },
  });
  const answer = listTraces(spy, q);
  return { ran, answer };
}

describe('listTraces with a value filter reads the events once (docs/schema.md)', () => {
  it('runs one statement for the page and the total, not a count and a page', async () => {
    const c = await smallCorpus();
    const r = recorded(connectionOf(c), { value: 'zebra', limit: 1 });
    expect(r.answer).toMatchObject({ total: 2, rows: [{ name: 'c' }] });
    expect(r.ran).toHaveLength(1);
    // No match at the first page: nothing else to count either.
    const none = recorded(connectionOf(c), { value: 'nothing like it' });
    expect(none.answer).toEqual({ total: 0, rows: [] });
    expect(none.ran).toHaveLength(1);
    // Past the last match the page is empty, so the total needs its own count.
    const past = recorded(connectionOf(c), { value: 'zebra', offset: 5 });
    expect(past.answer).toEqual({ total: 2, rows: [] });
    expect(past.ran).toHaveLength(2);
    c.close();
  });

  it('prefilters the stored events by the value as stored text, not by an empty pattern', async () => {
    const c = await smallCorpus();
    const r = recorded(connectionOf(c), { value: 'zebra' });
    expect(r.ran[0].args.slice(0, 2)).toEqual(['%zebra%', '%zebra%']);
    // A quote is stored escaped (\"), so the prefilter looks for the escaped text.
    expect(recorded(connectionOf(c), { value: 'a"b' }).ran[0].args[0]).toBe('%a\\\\"b%');
    c.close();
  });

  it('without a value filter, counts and pages as two plain statements', async () => {
    const c = await smallCorpus();
    const r = recorded(connectionOf(c), { limit: 1 });
    expect(r.answer).toMatchObject({ total: 3, rows: [{ name: 'b_10' }] });
    expect(r.ran.map((s) => /OVER/.test(s.sql))).toEqual([false, false]);
    c.close();
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
    const exitPlan = connectionOf(corpus)
      .prepare('EXPLAIN QUERY PLAN SELECT id FROM traces t WHERE t.exit = ? ORDER BY t.name')
      .all('error') as { detail: string }[];
    expect(exitPlan.map((p) => p.detail).join('\n')).toMatch(/USING (COVERING )?INDEX traces_exit/);
    const namePlan = connectionOf(corpus)
      .prepare('EXPLAIN QUERY PLAN SELECT id FROM traces t ORDER BY t.name_key, t.id LIMIT 50')
      .all() as { detail: string }[];
    expect(namePlan.map((p) => p.detail).join('\n')).toMatch(/traces_name_key/);
  });
});

/**
 * A trace with many-digit numbers: main runs lines 17..27 (seq 0..11), calls g from seq 10
 * at frame 13 (lines 101, 102), and the trace ends with main's return, whose parent is null.
 */
function bigNumbers(): Rec[] {
  const [header, ...rest] = traceRecords({ name: 'digits' });
  const end = rest[rest.length - 1];
  const events: Rec[] = [];
  const ev = (event: string, frame: number, func: string, line: number, parent: number | null) =>
    events.push({
      type: 'event',
      seq: events.length,
      event,
      frame,
      func,
      line,
      src: `x = ${line}`,
      locals: {},
      arg: null,
      parent,
    });
  ev('call', 0, 'main', 17, null);
  for (let l = 18; l <= 27; l++) ev('line', 0, 'main', l, null);
  ev('call', 13, 'g', 101, 10);
  ev('exception', 13, 'g', 102, 10);
  ev('return', 13, 'g', 102, 10);
  ev('return', 0, 'main', 27, null);
  return [header, ...events, { ...end, exit: 'normal', reason: null, events: events.length }];
}

describe('the trace shape', () => {
  it('gives every column of the events, numbers of several digits and a last parent of -1 included, and each function once', async () => {
    const dir = tempDir();
    const c = openCorpus(join(dir, 'c.db'), { create: true });
    const file = join(dir, 't.jsonl');
    writeFileSync(file, jsonl(bigNumbers()));
    await c.ingest(file);
    const [id] = c.traceIds();
    const s = c.getTraceShape(id);
    expect(s).not.toBeNull();
    const cols = {
      count: s!.count,
      kind: [...s!.kind],
      parent: [...s!.parent],
      frame: [...s!.frame],
      line: [...s!.line],
      func: [...s!.func],
      funcs: s!.funcs,
    };
    expect(cols).toEqual({
      count: 15,
      kind: [0, ...Array(10).fill(1), 0, 3, 2, 2],
      parent: [...Array(11).fill(-1), 10, 10, 10, -1],
      frame: [...Array(11).fill(0), 13, 13, 13, 0],
      line: [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 101, 102, 102, 27],
      func: [...Array(11).fill(0), 1, 1, 1, 0],
      funcs: ['main', 'g'],
    });
    // The same columns as the events themselves.
    const evs = c.getEvents(id);
    expect(cols.line).toEqual(evs.map((e) => e.line));
    expect(cols.parent).toEqual(evs.map((e) => e.parent ?? -1));
    expect(cols.func.map((k) => cols.funcs[k])).toEqual(evs.map((e) => e.func));
    // A trace id with no events has no shape.
    expect(c.getTraceShape(id + 1)).toBeNull();
    c.close();
  });
});
