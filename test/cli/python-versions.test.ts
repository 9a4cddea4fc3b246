// Traces recorded under different Python minor versions differ in their events
// (docs/semantics.md §12): an evaluation set or an export mixing them says so on stderr,
// naming each version and how many traces it has; one version (any patch) says nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { mixedPythonsWarning } from '../../src/store/python-versions.js';
import { cleanTempDirs, jsonl, tempDir, traceRecords } from '../store/fixtures.js';
import { cli, ensureBuilt } from './helpers.js';

let dir: string;
let db: string;
// ids 1..4, in this order
const PYTHONS = ['3.11.7', '3.11.2', '3.12.1', '3.13.0'];

beforeAll(() => {
  ensureBuilt();
  dir = tempDir('stepscope-pythons-');
  db = join(dir, 'c.db');
  const file = join(dir, 't.jsonl');
  const text = PYTHONS.map((python, i) => {
    const recs = traceRecords({ name: `t${i + 1}`, n: 3 + i });
    recs[0].python = python;
    return jsonl(recs);
  }).join('');
  writeFileSync(file, text);
  expect(cli(['ingest', file, '--db', db]).status).toBe(0);
});
afterAll(cleanTempDirs);

const create = (name: string, ...traces: number[]) =>
  cli([
    'evalset',
    'create',
    '--db',
    db,
    '--name',
    name,
    '--task',
    'next-state',
    '--per-action',
    '2',
    ...traces.flatMap((t) => ['--trace', String(t)]),
  ]);

describe('mixedPythonsWarning', () => {
  it('counts traces per minor version, patch versions together', () => {
    const c = openCorpus(db, { readonly: true });
    try {
      expect(mixedPythonsWarning(c, [1, 2])).toBeUndefined();
      expect(mixedPythonsWarning(c, [])).toBeUndefined();
      expect(mixedPythonsWarning(c, [4, 1, 2, 3])).toBe(
        'mixes Python versions: 3.11 (2 traces), 3.12 (1 trace), 3.13 (1 trace); their events differ (docs/semantics.md §12)',
      );
    } finally {
      c.close();
    }
  });
});

describe('the warning on the command line', () => {
  it('evalset create and evalset export warn about a mixed set, and not about a set of one version', () => {
    const one = create('one', 1, 2);
    expect(one.status, one.stderr).toBe(0);
    expect(one.stderr).not.toMatch(/Python/);
    const mixed = create('mixed', 1, 3);
    expect(mixed.status, mixed.stderr).toBe(0);
    expect(mixed.stderr).toMatch(/warning: the set mixes Python versions: 3\.11 \(1 trace\), 3\.12 \(1 trace\);/);
    const out = cli(['evalset', 'export', '--db', db, '--name', 'mixed']);
    expect(out.status).toBe(0);
    expect(out.stderr).toMatch(/^evalset: warning: mixed mixes Python versions: 3\.11 \(1 trace\), 3\.12/);
    expect(out.stdout.split('\n')[0]).toMatch(/^\{"id"/); // stdout holds the items only
    expect(cli(['evalset', 'export', '--db', db, '--name', 'one']).stderr).toBe('');
  });

  it('export warns when the traces it writes mix versions', () => {
    const all = cli(['export', '--db', db, '-o', join(dir, 'all.jsonl')]);
    expect(all.status).toBe(0);
    expect(all.stderr).toMatch(/export: warning: the export mixes Python versions: 3\.11 \(2 traces\), 3\.12/);
    const same = cli(['export', '--db', db, '--trace', '1', '--trace', '2']);
    expect(same.status).toBe(0);
    expect(same.stderr).toBe('');
  });
});
