// The fast path for the recorder's event lines (fast-event.ts) must hand a negative parent
// to the full check, which refuses it: the regular expression for integers lets `-1` through,
// so only the range check stands between such a line and the corpus. Found untested by the
// quieter mutation run (the full check's own test writes compact JSON, which never takes the
// fast path). Everything is built inside each test.
import { afterAll, describe, expect, it } from 'vitest';
import { fastEvent } from '../../src/store/fast-event.js';
import { cleanTempDirs, jsonl, refusedIngest, traceRecords } from './fixtures.js';

afterAll(cleanTempDirs);

/** The recorder-layout lines of a small trace: line 4 is the event with seq 2, parent 1. */
function lines(): string[] {
  return jsonl(traceRecords({ name: 'f', n: 1 })).split('\n').slice(0, -1);
}

describe('fast-event: the parent', () => {
  it('a negative parent is not taken by the fast path', () => {
    const line = lines()[3].replace('"parent": 1', '"parent": -1');
    expect(line).toContain('"parent": -1}');
    const out: unknown[] = [];
    expect(fastEvent(line, 2, out)).toBe(false);
    expect(out).toEqual([]);
  });

  it('a recorder-layout line with a negative parent is refused on its line, nothing stored', async () => {
    const ls = lines();
    ls[3] = ls[3].replace('"parent": 1', '"parent": -1');
    expect(await refusedIngest(ls, 'f.jsonl')).toBe('f.jsonl:4: expected "parent" to be null or the seq of an earlier event (0 to 1), got -1');
  });

  it('a parent of 0 is stored as 0 from a recorder-layout line', async () => {
    const ls = lines();
    ls[3] = ls[3].replace('"parent": 1', '"parent": 0');
    const out: unknown[] = [];
    expect(fastEvent(ls[3], 2, out)).toBe(true);
    expect(out[9]).toBe(0);
  });
});
