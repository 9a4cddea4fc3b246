/**
 * The schema a corpus gets: every table, column and index docs/schema.md names exists in a
 * fresh corpus (made by running every migration). A migration whose statement is lost
 * leaves a corpus without trajectories, or without the indexes a sorted listing and the
 * dashboard read. Each test builds its
 * own corpus.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/open.js';
import { cleanTempDirs, tempDir } from './fixtures.js';

afterAll(cleanTempDirs);

const doc = readFileSync(join(import.meta.dirname, '../../docs/schema.md'), 'utf8');

/** The names in the third column of docs/schema.md's table of migrations, by version. */
function documented(): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const m of doc.matchAll(/^\| (\d+) \| `\d{3}-[a-z-]+` \| (.*) \|$/gm)) {
    // Backquoted names before any parenthesis: `traces.tampered` (recorder trust, below).
    const names = [...m[2].replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+(?:\.[a-z_]+)?)`/g)].map((n) => n[1]);
    out.set(Number(m[1]), names);
  }
  return out;
}

describe('a fresh corpus has the schema docs/schema.md describes', () => {
  it('every table and column named in the table of migrations', () => {
    const byVersion = documented();
    expect([...byVersion.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(byVersion.get(2)).toEqual(['trajectories', 'trajectory_steps']);
    expect(byVersion.get(8)).toEqual(['predictions_verdicts']);
    const db = openDatabase(join(tempDir(), 'c.db'), { create: true });
    const objects = new Map(
      (db.prepare("SELECT name, type FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").all() as { name: string; type: string }[]).map((o) => [o.name, o.type]),
    );
    const missing: string[] = [];
    for (const [version, names] of byVersion) {
      for (const name of names) {
        const [table, column] = name.split('.');
        const ok = column === undefined
          ? objects.has(table)
          : (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).includes(column);
        if (!ok) missing.push(`${version}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(objects.get('trajectory_steps')).toBe('table');
    expect(objects.get('predictions_verdicts')).toBe('index');
    db.close();
  });

  it('every index the column descriptions name, on the table it is described under', () => {
    // "indexed (`traces_name`)", "indexed with id (`traces_name_key`)": the listings' indexes.
    const named = [...doc.matchAll(/indexed[^|(]*\(`([a-z_]+)`\)/g)].map((m) => m[1]);
    expect(named).toEqual(expect.arrayContaining(['traces_name', 'traces_name_key', 'traces_exit', 'traces_events']));
    const db = openDatabase(join(tempDir(), 'c.db'), { create: true });
    const indexes = db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'").all() as { name: string; tbl_name: string }[];
    expect(named.filter((n) => !indexes.some((i) => i.name === n))).toEqual([]);
    expect(indexes.find((i) => i.name === 'traces_name_key')?.tbl_name).toBe('traces');
    // A listing sorted by name reads that index rather than sorting every trace.
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM traces ORDER BY name_key, id LIMIT 50').all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('; ')).toMatch(/USING (COVERING )?INDEX traces_name_key/);
    db.close();
  });
});
