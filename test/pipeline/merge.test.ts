// `stepscope corpus merge`: one corpus from shard corpora, ids renumbered, opened as any other;
// what cannot be merged (annotations, evaluation sets) is refused by name, leaving nothing.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanTempDirs, jsonl, tempDir, traceRecords } from '../store/fixtures.js';
import { cli, ensureBuilt, lines } from '../cli/helpers.js';
import { MERGED_TABLES, UNDER_UNMERGED, UNMERGED_TABLES } from '../../src/store/queries/merge.js';

let dir: string;
const shard = (name: string, traces: [string, number][]) => {
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, traces.map(([n, k]) => jsonl(traceRecords({ name: n, n: k }))).join(''));
  const db = join(dir, `${name}.db`);
  expect(cli(['ingest', file, '--db', db]).status).toBe(0);
  expect(cli(['sample', '--db', db, '--direction', 'both', '--seed', '4']).status).toBe(0);
  return db;
};
const sql = (db: string, q: string) => lines(cli(['sql', '--db', db, q]).stdout);

describe('stepscope corpus merge', () => {
  let a: string, b: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir('stepscope-merge-');
    a = shard('a', [
      ['t1', 2],
      ['t2', 3],
    ]);
    b = shard('b', [
      ['t3', 4],
      ['t1', 2], // the same recording as a's t1
    ]);
  });
  afterAll(cleanTempDirs);

  it('knows every table of a corpus: merged, refused by name, or only under a refused one', () => {
    const known = new Set<string>([...MERGED_TABLES, ...UNMERGED_TABLES, ...UNDER_UNMERGED, 'sqlite_sequence']);
    const tables = sql(a, "SELECT name FROM sqlite_schema WHERE type = 'table'").map((r) => String(r.name));
    expect(tables.filter((t) => !known.has(t))).toEqual([]);
    expect(tables).toContain('counterfactuals');
  });

  it('copies every trace once with its events and trajectories, under new ids', () => {
    const out = join(dir, 'out.db');
    const r = cli(['corpus', 'merge', out, a, b]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 traces');
    expect(r.stderr).toContain('1 traces already merged, skipped');
    expect(sql(out, 'SELECT id, name FROM traces ORDER BY id')).toEqual([
      { id: 1, name: 't1' },
      { id: 2, name: 't2' },
      { id: 3, name: 't3' },
    ]);
    // Each trace's events and trajectories are those of its shard.
    const count = (db: string, name: string) =>
      sql(
        db,
        `SELECT (SELECT count(*) FROM events e WHERE e.trace_id = t.id) ev,
                (SELECT group_concat(text, '|') FROM (SELECT text FROM trajectories j WHERE j.trace_id = t.id ORDER BY id)) tx,
                (SELECT count(*) FROM trajectory_steps s JOIN trajectories j ON j.id = s.trajectory_id
                  WHERE j.trace_id = t.id) st
         FROM traces t WHERE name = '${name}'`,
      )[0];
    expect(count(out, 't3')).toEqual(count(b, 't3'));
    expect(count(out, 't2')).toEqual(count(a, 't2'));
    expect(count(out, 't3').ev).toBeGreaterThan(0);
    // Sampling again with the shards' options finds every trajectory stored (keys renumbered).
    const again = cli(['sample', '--db', out, '--direction', 'both', '--seed', '4']);
    expect(again.stdout).toMatch(/stored 0, already stored 6/);
    const walk = cli(['replay', '--db', out, '--trace', '3', '--direction', 'forward', '--actions', 'step_into']);
    expect(walk.status, walk.stderr).toBe(0);
  });

  it('refuses a corpus with annotations, naming it, and writes nothing', () => {
    const c = shard('c', [['t4', 2]]);
    expect(cli(['annotate', '--db', c, '--trace', '1', '--seq', '1', '--label', 'data.wrong_value']).status).toBe(0);
    const out = join(dir, 'refused.db');
    const r = cli(['corpus', 'merge', out, a, c]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${c} holds annotations`);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('refused.db'))).toEqual([]); // no partial file left
  });

  it('refuses to write over an existing file, and a file that is not a corpus', () => {
    const r = cli(['corpus', 'merge', a, b]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('exists: merge writes a new corpus');
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not sqlite');
    const j = cli(['corpus', 'merge', join(dir, 'j.db'), junk]);
    expect(j.status).toBe(1);
    expect(j.stderr).toContain('is not a Stepscope corpus');
    expect(existsSync(join(dir, 'j.db'))).toBe(false);
  });
});
