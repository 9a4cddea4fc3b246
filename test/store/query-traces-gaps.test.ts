/**
 * listTraces (src/store/queries/traces.ts): the descending sort, the checks that keep a
 * value the types forbid out of the SQL (RangeError, with words that say what was wrong),
 * and the value filter's total. Each test builds its own small corpus (Stryker's per-test
 * coverage does not see beforeAll fixtures).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { listTraces } from '../../src/store/queries/traces.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

async function small(): Promise<Corpus> {
  const dir = tempDir();
  const c = openCorpus(join(dir, 'c.db'), { create: true });
  // Ids 1..3; events 8, 12, 10; names sort b_2 < b_10 < c.
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'b_10', n: 1 }, { name: 'c', n: 3, tag: ' zebra' }, { name: 'b_2', n: 2, tag: ' zebra' }]));
  return c;
}

const names = (c: Corpus, q: Parameters<Corpus['listTraces']>[0]) => c.listTraces(q).rows.map((r) => r.name);

function rangeError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RangeError);
    return (e as Error).message;
  }
  throw new Error('not refused');
}

describe('listTraces', () => {
  it('sorts descending by id, name and events', async () => {
    const c = await small();
    expect(names(c, { desc: true })).toEqual(['b_2', 'c', 'b_10']);
    expect(names(c, { sort: 'id', desc: true })).toEqual(['b_2', 'c', 'b_10']);
    expect(names(c, { sort: 'name', desc: true })).toEqual(['c', 'b_10', 'b_2']);
    expect(names(c, { sort: 'events', desc: true })).toEqual(['c', 'b_2', 'b_10']);
    expect(names(c, { sort: 'name' })).toEqual(['b_2', 'b_10', 'c']);
    c.close();
  });

  it('refuses an exit or sort outside the fixed set, naming the value', async () => {
    const c = await small();
    // @ts-expect-error not an exit kind
    expect(rangeError(() => c.listTraces({ exit: 'x' }))).toBe('exit must be normal, error or never, got "x"');
    // @ts-expect-error not a sort key
    expect(rangeError(() => c.listTraces({ sort: 'name; DROP TABLE traces' }))).toBe('sort must be name, events or id, got "name; DROP TABLE traces"');
    expect(names(c, {})).toHaveLength(3);
    c.close();
  });

  it('refuses a limit or offset that is not a whole number, or a negative offset', async () => {
    const c = await small();
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
    const c = await small();
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
        const wrap = (m: 'all' | 'get') => (...args: unknown[]) => (ran.push({ sql, args }), (stmt[m] as (...a: unknown[]) => unknown)(...args));
        return new Proxy(stmt, {
          get(s, k) {
            if (k === 'all' || k === 'get') return wrap(k);
            if (k === 'pluck') return () => (stmt.pluck(), new Proxy(stmt, { get: (s2, k2) => (k2 === 'get' ? wrap('get') : Reflect.get(s2, k2, s2)) }));
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
    const c = await small();
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
    const c = await small();
    const r = recorded(connectionOf(c), { value: 'zebra' });
    expect(r.ran[0].args.slice(0, 2)).toEqual(['%zebra%', '%zebra%']);
    // A quote is stored escaped (\"), so the prefilter looks for the escaped text.
    expect(recorded(connectionOf(c), { value: 'a"b' }).ran[0].args[0]).toBe('%a\\\\"b%');
    c.close();
  });

  it('without a value filter, counts and pages as two plain statements', async () => {
    const c = await small();
    const r = recorded(connectionOf(c), { limit: 1 });
    expect(r.answer).toMatchObject({ total: 3, rows: [{ name: 'b_10' }] });
    expect(r.ran.map((s) => /OVER/.test(s.sql))).toEqual([false, false]);
    c.close();
  });
});
