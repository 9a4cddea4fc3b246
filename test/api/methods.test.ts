/**
 * What each API method answers over a real corpus, checked against what was ingested (the
 * fixture's records), the store's own reads and a re-walk by the semantics: the listing's
 * filters and defaults, a trace's header and end, event windows, skeletons, search, walks and
 * stored trajectories.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeSkeleton } from '../../src/contract/index.js';
import { createApi, openForReading } from '../../src/api/handlers/index.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { sampleCorpus } from '../../src/trajectories/sample-corpus.js';
import { cleanTempDirs, jsonl, tempDir, traceRecords, type Rec } from '../store/fixtures.js';
import { writeFileSync } from 'node:fs';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch, type ResultOf } from './call.js';

let corpus: Corpus;
let api: ReturnType<typeof createApi>;
let db: string;
const specs = [
  { name: 'sum_3', n: 3 },
  { name: 'boom_2', n: 2, exit: 'error' as const },
  { name: 'long_600', n: 600, tag: 'needle' },
];
/** The records as ingested, by trace name. */
const written = new Map<string, Rec[]>();

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-api-methods-');
  db = join(dir, 'c.db');
  const recs = specs.map((s) => traceRecords(s));
  // One trace carries what the recorder writes when the program printed something.
  recs[0].at(-1)!.stdout_bytes = 17;
  for (const r of recs) written.set(r[0].name as string, r);
  // 100 more small traces, so that the listing's default page is full.
  const filler = Array.from({ length: 100 }, (_, i) => traceRecords({ name: `z_${String(i).padStart(3, '0')}`, n: 0 }));
  writeFileSync(join(dir, 't.jsonl'), [...recs, ...filler].map(jsonl).join(''));
  corpus = openCorpus(db, { create: true });
  await corpus.ingest(join(dir, 't.jsonl'));
  sampleCorpus(corpus, { seed: 3, perTrace: 60, direction: 'both', entry: 'root', traceId: 1, maxSteps: 8 });
  api = createApi(corpus);
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

/** The value of a call that must succeed. */
async function value<M extends string>(method: M, params: unknown): Promise<ResultOf<M>> {
  const r = await dispatch(api, method, params);
  if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
  return r.value;
}
const idOf = async (name: string) => (await value('listTraces', { name })).rows[0].id as number;

describe('listTraces', () => {
  it('answers 100 rows by default, from the first, with the total of all', async () => {
    const all = await value('listTraces', {});
    expect(all.total).toBe(103);
    expect(all.rows).toHaveLength(100);
    expect(all.rows[0].name).toBe('sum_3');
  });

  it('filters by name and by code, and says how many match', async () => {
    expect((await value('listTraces', { name: 'BOOM' })).rows.map((r) => r.name)).toEqual(['boom_2']);
    // Every fixture trace runs the same program.
    expect((await value('listTraces', { code: 'acc += i' })).total).toBe(103);
    expect((await value('listTraces', { code: 'no such code' })).total).toBe(0);
  });

  it('sorts by name and events, either way', async () => {
    expect((await value('listTraces', { sort: 'name', limit: 2 })).rows.map((r) => r.name)).toEqual([
      'boom_2',
      'long_600',
    ]);
    expect((await value('listTraces', { sort: 'name', desc: true, limit: 1 })).rows[0].name).toBe('z_099');
    expect((await value('listTraces', { sort: 'events', desc: false, limit: 1 })).rows[0].events).toBe(6);
  });
});

describe('getTrace', () => {
  it('gives back the header and end as ingested', async () => {
    for (const [name, recs] of written) {
      const info = await value('getTrace', { id: await idOf(name) });
      const { type: _t, format: _f, version: _v, ...header } = recs[0];
      const { type: _e, ...end } = recs.at(-1)!;
      expect(info.header, name).toStrictEqual(header);
      expect(info.end, name).toStrictEqual(end);
      expect(Object.keys(info.header)).toEqual(Object.keys(header));
    }
  });
});

describe('getEvents', () => {
  it('answers the window from..to-1, as ingested, up to 5000 events at once', async () => {
    const id = await idOf('sum_3');
    const events = written
      .get('sum_3')!
      .filter((r) => r.type === 'event')
      .map(({ type: _t, ...e }) => e);
    expect(await value('getEvents', { traceId: id, from: 0, to: 5000 })).toEqual(events);
    expect(await value('getEvents', { traceId: id, from: 3, to: 5 })).toEqual(events.slice(3, 5));
    const long = await idOf('long_600');
    expect((await value('getEvents', { traceId: long, from: 1, to: 5001 })).length).toBe(1205);
  });

  it('refuses a window backwards, over 5000 events, or of an unknown trace', async () => {
    const id = await idOf('sum_3');
    expect(await dispatch(api, 'getEvents', { traceId: id, from: 5, to: 4 })).toEqual({
      ok: false,
      error: { code: 'bad-input', message: 'getEvents: to (4) is before from (5)' },
    });
    expect(await dispatch(api, 'getEvents', { traceId: id, from: 10, to: 5011 })).toEqual({
      ok: false,
      error: { code: 'bad-input', message: 'getEvents: at most 5000 events at once, asked for 5001' },
    });
    expect(await dispatch(api, 'getEvents', { traceId: 999, from: 0, to: 1 })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'no trace with id 999' },
    });
  });
});

describe('getSkeleton', () => {
  it("has every event's frame, and each function name once", async () => {
    const id = await idOf('boom_2');
    const sk = decodeSkeleton(await value('getSkeleton', { traceId: id }));
    const events = corpus.getEvents(id);
    expect(Array.from(sk.frame)).toEqual(events.map((e) => e.frame));
    expect(Array.from(sk.kind)).toEqual(events.map((e) => ['call', 'line', 'return', 'exception'].indexOf(e.event)));
    expect(sk.funcs).toEqual(['main', 'f']);
    expect(Array.from(sk.func, (i) => sk.funcs[i])).toEqual(events.map((e) => e.func));
  });
});

describe('findInTrace', () => {
  it('finds a text in a value returned or raised', async () => {
    const id = await idOf('boom_2');
    const events = corpus.getEvents(id);
    const raised = events.filter((e) => e.event === 'exception').map((e) => e.seq);
    expect(raised).toHaveLength(1);
    expect(await value('findInTrace', { traceId: id, text: "ValueError('boom')" })).toEqual({ total: 1, seqs: raised });
  });

  it('answers the first 1000 seqs by default and counts them all', async () => {
    const id = await idOf('long_600');
    const hits = corpus
      .getEvents(id, 0, 5000)
      .filter((e) => Object.values(e.locals).some((v) => v.includes('needle')))
      .map((e) => e.seq);
    expect(hits.length).toBeGreaterThan(1000);
    expect(await value('findInTrace', { traceId: id, text: 'needle' })).toEqual({
      total: hits.length,
      seqs: hits.slice(0, 1000),
    });
  });
});

describe('walk', () => {
  it('starts at the root by default, and at a call when given one', async () => {
    const id = await idOf('sum_3');
    const root = await value('walk', { traceId: id, direction: 'forward', actions: ['step_into'] });
    expect(root.states.map((s) => s.seq)).toEqual([0, 1]);
    const inF = await value('walk', {
      traceId: id,
      direction: 'forward',
      entry: 2,
      actions: ['step_into', 'step_return'],
    });
    expect(inF.states.map((s) => s.seq)).toEqual([2, 3, 11]);
    expect(inF.exit).toBe(null);
  });
});

describe('stored trajectories', () => {
  it('lists 100 per page by default, each as getTrajectory gives it, and each replays as stored', async () => {
    const stored = [...corpus.iterateTrajectories(1)];
    expect(stored.length).toBeGreaterThan(100);
    const page = await value('listTrajectories', { traceId: 1 });
    expect(page.total).toBe(stored.length);
    expect(page.rows).toHaveLength(100);
    const rest = await value('listTrajectories', { traceId: 1, offset: 100 });
    expect(rest.rows).toHaveLength(stored.length - 100);
    expect([...page.rows, ...rest.rows].map((r) => r.id)).toEqual(stored.map((t) => t.id));
    let breakpoints = 0;
    for (const row of [...page.rows, ...rest.rows]) {
      expect(await value('getTrajectory', { id: row.id })).toEqual(row);
      const again = await value('walk', {
        traceId: row.traceId,
        direction: row.direction,
        entry: row.entry,
        actions: row.actions,
      });
      expect({ states: again.states.length, exit: again.exit }).toEqual({ states: row.states, exit: row.exit });
      breakpoints += row.actions.filter((a: string) => a.startsWith('breakpoint ')).length;
    }
    expect(breakpoints).toBeGreaterThan(0);
    expect(new Set(stored.map((t) => t.direction))).toEqual(new Set(['forward', 'inverse']));
  });

  it('refuses an unknown trajectory', async () => {
    expect(await dispatch(api, 'getTrajectory', { id: 12345 })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'no trajectory with id 12345' },
    });
  });
});

describe('openForReading', () => {
  it('serves the corpus at a path until closed', async () => {
    const corpus = openForReading(db);
    expect(corpus.path).toBe(db);
    const served = createApi(corpus);
    const r = await dispatch(served, 'listTraces', { limit: 1 });
    expect(r.ok && r.value.total).toBe(103);
    corpus.close();
    const after = await dispatch(served, 'getTrace', { id: 3 });
    expect(after.ok).toBe(false);
  });
});
