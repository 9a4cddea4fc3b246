// Integration: the 800 CRUXEval tasks recorded by the Python recorder, ingested through the
// CLI and checked against the recorded file and the dataset; and `stepscope record-cruxeval`
// writing exactly what the recorder writes. The recording of all 800 is the one the other
// CRUXEval tests share (cruxevalRecording: made once per recorder version, by the recorder's
// own record-cruxeval); the CLI records the first tasks again, and its file must be the same
// records, so the wrapper is not trusted to pass the work on unchanged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, cleanTempDirs } from '../store/fixtures.js';
import { cruxevalPath, cruxevalRecording } from '../semantics/helpers.js';
import { cli, ensureBuilt, lines } from './helpers.js';

afterAll(cleanTempDirs);

const dataset = cruxevalPath;
let dir: string;
let recording: string;
/** name -> event count, read straight from the recorded file's end records. */
const expected = new Map<string, number>();

beforeAll(() => {
  ensureBuilt();
  dir = tempDir('stepscope-crux-');
  recording = cruxevalRecording();
  let name = '';
  for (const line of readFileSync(recording, 'utf8').split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line);
    if (rec.type === 'trace') name = rec.name;
    if (rec.type === 'end') expected.set(name, rec.events);
  }
}, 900_000); // the first run of a recorder version records all of CRUXEval (see cruxevalRecording)

/** A trace file's records, without the one field that differs between two recordings: the time taken. */
const records = (text: string) => lines(text).map(({ seconds: _, ...r }) => r);

describe('stepscope record-cruxeval', () => {
  it('writes the records the recorder writes, task for task, in dataset order (--limit, --jobs)', () => {
    const out = join(dir, 'first.jsonl');
    const r = cli(['record-cruxeval', dataset, '-o', out, '--limit', '40', '--jobs', '2']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/recorded 40 traces/);
    const got = records(readFileSync(out, 'utf8'));
    const all = records(readFileSync(recording, 'utf8'));
    const ends = all.flatMap((rec, i) => (rec.type === 'end' ? [i] : []));
    expect(got).toEqual(all.slice(0, ends[39] + 1));
    expect(got.filter((x) => x.type === 'trace').map((x) => x.name)).toEqual(
      lines(readFileSync(dataset, 'utf8'))
        .slice(0, 40)
        .map((x) => x.id),
    );
  });
});

describe('CRUXEval: 800 recorded tasks in a corpus', () => {
  it('stores 800 traces with the recorded event counts, and a re-ingest inserts nothing', () => {
    const db = join(dir, 'crux.db');
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    expect(expected.size).toBe(800);

    const first = cli(['ingest', recording, '--db', db, '--json']);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ files: 1, traces: 800, inserted: 800, skipped: 0, events: total });

    const rows = lines(cli(['traces', '--db', db, '--json']).stdout);
    expect(rows).toHaveLength(800);
    const ids = lines(readFileSync(dataset, 'utf8')).map((r) => r.id);
    expect(rows.map((r) => r.name).sort()).toEqual([...ids].sort());
    for (const r of rows) expect(r.events, String(r.name)).toBe(expected.get(r.name as string));
    expect(rows.every((r) => r.exit === 'normal' && r.mode === 'call')).toBe(true);

    // The events table agrees with the traces table, trace by trace.
    const mismatch = lines(
      cli([
        'sql',
        '--db',
        db,
        'SELECT t.name FROM traces t WHERE t.events <> (SELECT count(*) FROM events e WHERE e.trace_id = t.id)',
      ]).stdout,
    );
    expect(mismatch).toEqual([]);

    // The dataset's expected output travels in the header meta.
    const [task0] = lines(readFileSync(dataset, 'utf8'));
    const meta = lines(
      cli(['sql', '--db', db, "SELECT json_extract(meta, '$.output') AS output FROM traces WHERE name = 'sample_0'"])
        .stdout,
    );
    expect(meta).toEqual([{ output: task0.output }]);

    const again = cli(['ingest', recording, '--db', db, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ files: 1, traces: 800, inserted: 0, skipped: 800, events: total });
    expect(lines(cli(['sql', '--db', db, 'SELECT count(*) AS n FROM events']).stdout)).toEqual([{ n: total }]);
  });
});
