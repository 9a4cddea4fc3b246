// The packed skeleton kept per trace (table trace_skeletons, src/store/queries/skeletons.ts):
// what opening a trace reads instead of scanning its events. Each check compares it with the
// columns read straight from the trace's events, so the kept copy can never drift from them.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus, type ReadCorpus } from '../../src/store/corpus.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open.js';
import { decodeSkeleton, decodeSkeletonBytes, encodeSkeleton } from '../../src/trace/skeleton.js';
import { EVENT_KINDS } from '../../src/trace/types.js';
import { createApi } from '../../src/api/handlers/index.js';
import { dispatch } from '../api/call.js';
import { cleanTempDirs, seedOldCorpusFrom, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

const SPECS = [
  { name: 'small', n: 2 },
  { name: 'long', n: 200 },
  { name: 'raises', n: 3, exit: 'error' as const },
];

/** The columns the trees need, read from the events themselves (an independent derivation). */
function fromEvents(c: ReadCorpus, id: number) {
  const evs = c.getEvents(id);
  return {
    count: evs.length,
    kind: evs.map((e) => EVENT_KINDS.indexOf(e.event as (typeof EVENT_KINDS)[number])),
    parent: evs.map((e) => e.parent ?? -1),
    frame: evs.map((e) => e.frame),
    line: evs.map((e) => e.line),
    func: evs.map((e) => e.func),
  };
}

function unpacked(c: ReadCorpus, id: number) {
  const w = c.getPackedSkeleton(id);
  if (!w) throw new Error(`trace ${id} has no skeleton`);
  const s = decodeSkeleton(w);
  return {
    count: s.count,
    kind: [...s.kind],
    parent: [...s.parent],
    frame: [...s.frame],
    line: [...s.line],
    func: [...s.func].map((f) => s.funcs[f]),
  };
}

const keptRows = (c: ReadCorpus) =>
  connectionOf(c).prepare('SELECT trace_id FROM trace_skeletons ORDER BY trace_id').pluck().all();

describe('the packed skeleton kept per trace', () => {
  it('is written at ingest and equals the columns of the events', async () => {
    const dir = tempDir();
    const c = openCorpus(join(dir, 'c.db'), { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', SPECS));
    const ids = c.traceIds();
    expect(keptRows(c)).toEqual(ids);
    for (const id of ids) expect(unpacked(c, id)).toEqual(fromEvents(c, id));
    // The same file again is skipped and leaves one row per trace.
    await c.ingest(writeTraces(dir, 't.jsonl', SPECS));
    expect(keptRows(c)).toEqual(ids);
    c.close();
  });

  it('is packed for the traces of a corpus made before it existed, when the corpus is upgraded', async () => {
    const dir = tempDir();
    const path = join(dir, 'v7.db');
    openDatabase(path, { create: true, migrations: MIGRATIONS.filter((m) => m.version <= 7) }).close();
    await seedOldCorpusFrom(path, 7, dir, writeTraces(dir, 'old.jsonl', SPECS));
    const c = openCorpus(path);
    expect(keptRows(c)).toEqual(c.traceIds());
    for (const id of c.traceIds()) expect(unpacked(c, id)).toEqual(fromEvents(c, id));
    c.close();
  });

  it('is derived: without its row, or with a row of another format, a trace opens from its events alike', async () => {
    const dir = tempDir();
    const c = openCorpus(join(dir, 'c.db'), { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', SPECS));
    const [a, b] = c.traceIds();
    const api = createApi(c);
    const before = await dispatch(api, 'getSkeleton', { traceId: b });
    const db = connectionOf(c);
    db.prepare('DELETE FROM trace_skeletons WHERE trace_id = ?').run(a);
    db.prepare("UPDATE trace_skeletons SET format = 0, packed = 'not a skeleton' WHERE trace_id = ?").run(b);
    for (const id of [a, b]) expect(unpacked(c, id)).toEqual(fromEvents(c, id));
    const fresh = createApi(c); // a new cache: the trace is opened again
    expect(await dispatch(fresh, 'getSkeleton', { traceId: b })).toEqual(before);
    const walked = await dispatch(fresh, 'walk', {
      traceId: a,
      direction: 'forward',
      actions: ['step_into', 'step_into'],
    });
    expect(walked.ok && walked.value.states.map((s) => s.seq)).toEqual([0, 1, 2]);
    c.close();
  });

  it('is kept as bytes; a corpus whose rows are the JSON text of the version before is converted when upgraded (migration 010)', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const c = openCorpus(path, { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', SPECS));
    const ids = c.traceIds();
    const db = connectionOf(c);
    expect(db.prepare('SELECT DISTINCT format || typeof(packed) FROM trace_skeletons').pluck().all()).toEqual([
      '2blob',
    ]);
    // Back to what version 9 wrote: format 1, the wire form's JSON, packed here from the events.
    for (const id of ids) {
      const e = fromEvents(c, id);
      const funcs = [...new Set(e.func)];
      const wire = encodeSkeleton({ ...e, func: e.func.map((f) => funcs.indexOf(f)), funcs });
      db.prepare('UPDATE trace_skeletons SET format = 1, packed = ? WHERE trace_id = ?').run(JSON.stringify(wire), id);
    }
    // Made by migrations 011, 012 and 013: a version 9 corpus has none of them.
    db.exec('DROP TABLE review_quotas');
    db.exec('DROP TABLE benchmark_programs');
    db.exec('DROP TABLE rollout_steps');
    db.exec('DROP TABLE rollout_targets');
    db.exec('DROP TABLE counterfactuals');
    db.pragma('user_version = 9');
    c.close();
    const up = openCorpus(path);
    const rows = connectionOf(up)
      .prepare('SELECT trace_id, format, typeof(packed) AS type FROM trace_skeletons ORDER BY trace_id')
      .all();
    expect(rows).toEqual(ids.map((trace_id) => ({ trace_id, format: 2, type: 'blob' })));
    for (const id of ids) {
      expect(unpacked(up, id)).toEqual(fromEvents(up, id));
      const b = decodeSkeletonBytes(up.getSkeletonBytes(id)!);
      expect({
        count: b.count,
        kind: [...b.kind],
        parent: [...b.parent],
        frame: [...b.frame],
        line: [...b.line],
        func: [...b.func].map((f) => b.funcs[f]),
      }).toEqual(fromEvents(up, id));
    }
    up.close();
  });
});

describe('opening a trace reads the kept skeleton', () => {
  // The skeleton packed again from the events is the same bytes: only changing the events
  // behind the corpus's back shows which of the two was read.
  it('is what a trace opens from: the events are not read while the row is there', async () => {
    const dir = tempDir();
    const c = openCorpus(join(dir, 'c.db'), { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 3 }]));
    const [id] = c.traceIds();
    const kept = c.getSkeletonBytes(id);
    const wire = c.getPackedSkeleton(id);
    expect(kept).toBeInstanceOf(Uint8Array);
    // Move every event one line down, behind the corpus's back: a skeleton packed from the
    // events would now differ from the kept row, so equal answers show the row was read.
    connectionOf(c).prepare('UPDATE events SET line = line + 1 WHERE trace_id = ?').run(id);
    expect(c.getSkeletonBytes(id)).toEqual(kept);
    expect(c.getPackedSkeleton(id)).toEqual(wire);
    // Without the row, the trace opens from its (now changed) events.
    connectionOf(c).prepare('DELETE FROM trace_skeletons WHERE trace_id = ?').run(id);
    expect(c.getSkeletonBytes(id)).not.toEqual(kept);
    c.close();
  });
});
