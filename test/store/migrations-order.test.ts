/**
 * The migration files agree with the registry (src/store/migrations/index.ts) and with each
 * other: `NNN-name.ts` exports the migration with version NNN and name `name`, the numbers are
 * 1, 2, 3, … with none taken twice and none skipped, and the registry lists every file in that
 * order. A corpus records only the last version it ran (PRAGMA user_version, see
 * src/store/migrate.ts), so a migration that lands with a number at or below one already
 * shipped is never run on the corpora made in between. Two branches that each take the next
 * number therefore meet here as a duplicate, and a number reserved ahead (how 005 came to land
 * after 006, which 007-annotations-late repairs) as a gap. Renumber the migration that has not
 * shipped yet; never rename or renumber one that has (corpora already carry its number).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, type Migration } from '../../src/store/migrations/index.js';

const DIR = new URL('../../src/store/migrations/', import.meta.url);
const NOT_MIGRATIONS = new Set(['index.ts', 'types.ts']);
const files = readdirSync(DIR)
  .filter((f) => !NOT_MIGRATIONS.has(f))
  .sort();
const parsed = files.map((file) => {
  const m = /^(\d{3})-([a-z0-9]+(?:-[a-z0-9]+)*)\.ts$/.exec(file);
  return { file, number: m ? Number(m[1]) : NaN, name: m?.[2] };
});

describe('the migration files (src/store/migrations/)', () => {
  it('are named NNN-name.ts: a three-digit number and a lower-case name', () => {
    expect(parsed.filter((p) => Number.isNaN(p.number)).map((p) => p.file)).toEqual([]);
  });

  it('take each number once', () => {
    const byNumber = new Map<number, string[]>();
    for (const p of parsed) byNumber.set(p.number, [...(byNumber.get(p.number) ?? []), p.file]);
    const taken = [...byNumber.values()].filter((names) => names.length > 1);
    expect(taken, 'two files share a number: renumber the one not yet on main').toEqual([]);
  });

  it('are numbered 1, 2, 3, … with none skipped', () => {
    const numbers = [...new Set(parsed.map((p) => p.number))].sort((a, b) => a - b);
    expect(numbers, 'a number is missing: take the next one after the last shipped').toEqual(
      numbers.map((_, i) => i + 1),
    );
  });

  it('each export the migration their name says (version and name)', async () => {
    for (const p of parsed) {
      const { migration } = (await import(new URL(p.file, DIR).href)) as { migration: Migration };
      expect({ version: migration.version, name: migration.name }, p.file).toEqual({
        version: p.number,
        name: p.name,
      });
    }
  });

  it('are all in the registry, in the order of their numbers', () => {
    expect(MIGRATIONS.map((m) => `${String(m.version).padStart(3, '0')}-${m.name}.ts`)).toEqual(files);
  });
});
