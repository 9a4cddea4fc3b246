/**
 * The trace shape (queries/events.ts traceShape, Corpus.getTraceShape): the columns that lay
 * out a trace's trees, parsed from SQLite's group_concat strings. The fixture traces of the
 * other tests hold only one-digit lines, frames and parents, and always end inside a call, so
 * the mutation run of src/store/queries left the number parser and the function list
 * untested. The corpus is built inside the test.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, jsonl, tempDir, traceRecords, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

/**
 * A trace with many-digit numbers: main runs lines 17..27 (seq 0..11), calls g from seq 10
 * at frame 13 (lines 101, 102), and the trace ends with main's return, whose parent is null.
 */
function bigNumbers(): Rec[] {
  const [header, ...rest] = traceRecords({ name: 'digits' });
  const end = rest[rest.length - 1];
  const events: Rec[] = [];
  const ev = (event: string, frame: number, func: string, line: number, parent: number | null) =>
    events.push({ type: 'event', seq: events.length, event, frame, func, line, src: `x = ${line}`, locals: {}, arg: null, parent });
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
    const cols = { count: s!.count, kind: [...s!.kind], parent: [...s!.parent], frame: [...s!.frame], line: [...s!.line], func: [...s!.func], funcs: s!.funcs };
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
