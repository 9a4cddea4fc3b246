// evalset create --traces-from FILE: a split's or a hand-made list of traces, by id or by name,
// instead of one --trace flag per trace; a line naming no trace (or several) is refused as
// FILE:LINE and no set is made.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { cli, ensureBuilt, lines } from './helpers.js';

let dir: string;
let db: string;
const list = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const sets = () => lines(cli(['evalset', 'list', '--db', db, '--json']).stdout).map((s) => s.name);

beforeAll(() => {
  ensureBuilt();
  dir = tempDir('stepscope-traces-from-');
  db = join(dir, 'c.db');
  const names = ['alpha', 'beta', 'gamma', 'beta']; // ids 1..4; "beta" names two traces
  const file = writeTraces(
    dir,
    't.jsonl',
    names.map((name, i) => ({ name, n: 3 + i })),
  );
  expect(cli(['ingest', file, '--db', db]).status).toBe(0);
});
afterAll(cleanTempDirs);

describe('evalset create --traces-from', () => {
  it('takes ids and names, skipping blank lines and comments, together with --trace', () => {
    const f = list('split.txt', '# validation programs\nalpha\n\n3\r\n');
    const r = cli([
      'evalset',
      'create',
      '--db',
      db,
      '--name',
      'val',
      '--task',
      'next-state',
      '--per-action',
      '4',
      '--traces-from',
      f,
      '--trace',
      '1',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const traces = new Set(lines(cli(['evalset', 'export', '--db', db, '--name', 'val']).stdout).map((it) => it.trace));
    expect([...traces].sort()).toEqual([1, 3]);
  });

  it('refuses an unknown name or id, and a name two traces share, at its line; no set is made', () => {
    const cases: [string, RegExp][] = [
      ['alpha\nomega\n', /unknown\.txt:2: expected a trace id or name of the corpus, got "omega"/],
      ['1\n99\n', /unknown\.txt:2: expected a trace id of the corpus, got 99/],
      ['beta\n', /unknown\.txt:1: "beta" names 2 traces \(ids 2, 4\): give their ids/],
      ['# nothing\n\n', /unknown\.txt: expected trace ids or names, one a line; it has none/],
    ];
    for (const [text, message] of cases) {
      const f = list('unknown.txt', text);
      const r = cli(['evalset', 'create', '--db', db, '--name', 'bad', '--task', 'next-state', '--traces-from', f]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(sets()).not.toContain('bad');
    }
  });
});

describe('evalset create --from-export DIR --split NAME', () => {
  it("makes a set over exactly one split's programs, matched by source; refuses a split it cannot make whole", () => {
    const out = join(dir, 'export');
    const e = cli([
      'dataset',
      'export',
      '--db',
      db,
      '-o',
      out,
      '--kind',
      'traces',
      '--split',
      'train=0.5,validation=0.5',
    ]);
    expect(e.status, e.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8'));
    // The four traces are calls of one program: it is in one split, the other is empty.
    const [full, empty] = m.splits.train.programs === 1 ? ['train', 'validation'] : ['validation', 'train'];
    expect(m.splits[full].program_hashes).toHaveLength(1);
    expect(m.splits[full].trace_names).toEqual(['alpha', 'beta', 'gamma']);

    const made = cli([
      'evalset',
      'create',
      '--db',
      db,
      '--name',
      'from-split',
      '--task',
      'next-state',
      '--per-action',
      '20',
      '--from-export',
      out,
      '--split',
      full,
    ]);
    expect(made.status, made.stderr).toBe(0);
    const traces = new Set(
      lines(cli(['evalset', 'export', '--db', db, '--name', 'from-split']).stdout).map((it) => it.trace),
    );
    expect([...traces].sort()).toEqual([1, 2, 3, 4]);

    const refused = (args: string[], at: string, message: RegExp) => {
      const r = cli(['evalset', 'create', '--db', at, '--name', 'no', '--task', 'next-state', ...args]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(message);
    };
    refused(['--from-export', out, '--split', empty], db, /split "(train|validation)" of .* holds no program/);
    refused(['--from-export', out, '--split', 'test'], db, /has no split "test"; its splits: train, validation/);
    refused(['--from-export', out], db, /--from-export DIR and --split NAME go together/);
    const other = join(dir, 'other.db');
    openCorpus(other, { create: true }).close();
    refused(['--from-export', out, '--split', full], other, /1 of the 1 programs of split .* are not in this corpus/);
    expect(sets()).not.toContain('no');
  });
});
