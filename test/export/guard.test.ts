// The leakage guard from the command line (docs/export.md, "The leakage guard"): benchmark
// programs known from the traces' meta, from a CRUXEval set by program content (another
// trace of the same function), and from `stepscope benchmark add`; an export whose training
// split would be empty, or lose most of its programs, exits 1 with one sentence naming
// --allow-overlap, which lets it through with the overlap recorded.
//
// The corpus: CRUXEval tasks sample_0..5 as recorded (meta.task = cruxeval), tasks 6..11
// recorded as the user's own programs (own_6..own_11, no meta), and sample_0's function
// recorded again under another name and trace id (again_0, no meta).
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceHash } from '../../src/export/benchmarks.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { openCorpus } from '../../src/store/corpus.js';
import { cli, ensureBuilt } from '../cli/helpers.js';
import { corpusOf, cruxevalTraces } from '../predictions/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { dataFiles, jsonlRead } from './helpers.js';

let db: string;
let dir: string;
let n = 0;
const source = new Map<string, string>(); // trace name -> program source
const ids = new Map<string, number>(); // trace name -> trace id

beforeAll(async () => {
  ensureBuilt();
  const tasks = cruxevalTraces(Array.from({ length: 12 }, (_, k) => `sample_${k}`));
  const plain = (t: (typeof tasks)[number], name: string) => ({ ...t, header: { ...t.header, name, meta: {} } });
  const traces = [
    ...tasks.slice(0, 6),
    ...tasks.slice(6).map((t) => plain(t, t.header.name.replace('sample', 'own'))),
    plain(tasks[0], 'again_0'),
  ];
  const c = await corpusOf(traces, 'stepscope-guard-');
  for (const r of c.corpus.query(
    'SELECT t.id, t.name, p.source FROM traces t JOIN programs p ON p.id = t.program_id',
  )) {
    source.set(r.name as string, r.source as string);
    ids.set(r.name as string, r.id as number);
  }
  c.corpus.close();
  ({ path: db, dir } = c);
}, 300_000);
afterAll(cleanTempDirs);

const out = () => join(dir, `ds${n++}`);
const manifestOf = (o: string) => JSON.parse(readFileSync(join(o, 'stepscope-export.json'), 'utf8'));
const names = (o: string) => new Set(jsonlRead(dataFiles(o).train ?? []).map((r) => r.name as string));
/** A copy of the corpus to change (a set, marks, meta) without touching the others' corpus. */
function copyOf(name: string): string {
  const path = join(dir, `${name}.db`);
  copyFileSync(db, path);
  return path;
}

describe('benchmark programs known from the traces themselves', () => {
  it("leaves out the CRUXEval tasks' programs and the same function recorded again without meta, and says so on stderr", () => {
    const o = out();
    const r = cli(['dataset', 'export', '--db', db, '-o', o, '--kind', 'traces']);
    expect(r.status).toBe(0);
    const m = manifestOf(o);
    const rows = m.excluded_rows;
    expect(r.stderr).toBe(
      `leakage guard: left out 6 programs (${rows} rows) from training split train as programs of cruxeval (recorded from it)\n`,
    );
    expect([...names(o)].sort()).toEqual(['own_10', 'own_11', 'own_6', 'own_7', 'own_8', 'own_9']);
    expect(m).toMatchObject({
      excluded_programs: 6,
      excluded_sets: ['cruxeval'],
      benchmarks: [{ name: 'cruxeval', from: 'traces', programs: 6 }],
      benchmark_programs: 6,
      train_splits: ['train'],
    });
    const events = openCorpus(db, { readonly: true });
    const [{ n: benchEvents }] = [
      ...events.query("SELECT sum(events) AS n FROM traces WHERE name GLOB 'sample_*' OR name = 'again_0'"),
    ];
    events.close();
    expect(rows).toBe(benchEvents);
    expect(readFileSync(join(o, 'README.md'), 'utf8')).toContain(
      `Leakage guard: 6 programs (${rows} rows) of benchmarks \`cruxeval\` (recorded from it) were left out of the training split \`train\`.`,
    );
  });

  it('an empty training split: exit 1, one sentence naming --allow-overlap, nothing written; --allow-overlap exports with the overlap recorded', () => {
    const o = out();
    const args = ['dataset', 'export', '--db', db, '-o', o, '--kind', 'traces', '--select', 'name=sample_*'];
    const r = cli(args);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'stepscope: dataset export: the leakage guard would leave training split train empty, as all 6 of its programs belong to cruxeval (recorded from it); give --allow-overlap to keep them there (the dataset card then records the overlap), or select other rows.\n',
    );
    expect(existsSync(o)).toBe(false);
    const open = cli([...args, '--allow-overlap']);
    expect(open.status).toBe(0);
    const m = manifestOf(o);
    expect(m).toMatchObject({ allow_overlap: true, overlap_programs: 6, excluded_programs: 0, excluded_sets: [] });
    expect(m.overlap_rows).toBe(m.splits.train.rows);
    expect(open.stderr).toBe(
      `leakage guard off (--allow-overlap): 6 benchmark programs (${m.overlap_rows} rows) in training split train, of cruxeval (recorded from it)\n`,
    );
    expect(readFileSync(join(o, 'README.md'), 'utf8')).toContain(
      `The leakage guard was turned off (\`--allow-overlap\`): 6 programs (${m.overlap_rows} rows) of benchmarks`,
    );
  });

  it('a training split that would lose most (more than half) of its programs is refused; half goes through', () => {
    const most = cli([
      'dataset',
      'export',
      '--db',
      db,
      '-o',
      out(),
      '--kind',
      'traces',
      '--select',
      "sql=t.name GLOB 'sample_*' OR t.name = 'own_6'",
    ]);
    expect(most.status).toBe(1);
    expect(most.stderr).toContain('the leakage guard would take 6 of the 7 programs of training split train');
    expect(most.stderr).toContain('--allow-overlap');
    expect(most.stderr.trimEnd().split('\n')).toHaveLength(1);
    // The whole corpus: 6 of 12 programs, half, not most (the first test).
  });

  it('--train-splits names the training splits; with none, the guard keeps nothing out and says so', () => {
    const o = out();
    const none = cli(['dataset', 'export', '--db', db, '-o', o, '--kind', 'traces', '--split', 'sft=1']);
    expect(none.status).toBe(0);
    expect(none.stderr).toBe(
      'leakage guard: no split is a training split (--train-splits names them), so 6 benchmark programs stayed in their splits\n',
    );
    expect(manifestOf(o).splits.sft.programs).toBe(12);
    const named = cli(
      ['dataset', 'export', '--db', db, '-o', out(), '--kind', 'traces', '--select', 'name=sample_*'].concat([
        '--split',
        'sft=1',
        '--train-splits',
        'sft',
      ]),
    );
    expect(named.status).toBe(1);
    expect(named.stderr).toContain('would leave training split sft empty');
    const wrong = cli(['dataset', 'export', '--db', db, '-o', out(), '--kind', 'traces', '--train-splits', 'sft']);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('--train-splits: "sft" is not one of the splits (train)');
  });
});

describe('benchmark programs known from an evaluation set, by content', () => {
  it("a CRUXEval set's programs are left out when another trace of the same function (another id, no meta) is exported", () => {
    const path = copyOf('evalset');
    const c = openCorpus(path);
    createEvalSet(c, {
      name: 'crux-out',
      task: 'cruxeval-output',
      traceIds: ['sample_0', 'sample_1'].map((k) => ids.get(k)!),
    });
    c.close();
    // Only the set knows now: the traces' meta is gone (as in a corpus recorded by another tool).
    const raw = new Database(path);
    raw.prepare("UPDATE traces SET meta = '{}'").run();
    raw.close();
    const o = out();
    const s = cli([
      'dataset',
      'export',
      '--db',
      path,
      '-o',
      o,
      '--kind',
      'traces',
      '--select',
      "sql=t.name NOT GLOB 'sample_*'",
    ]);
    expect(s.status).toBe(0);
    expect(ids.get('again_0')).not.toBe(ids.get('sample_0'));
    expect(names(o).has('again_0')).toBe(false);
    expect(manifestOf(o)).toMatchObject({
      excluded_programs: 1,
      excluded_sets: ['crux-out'],
      benchmarks: [{ name: 'crux-out', from: 'evalset', programs: 1 }],
    });
    expect(s.stderr).toContain('left out 1 program');
    expect(s.stderr).toContain('as programs of crux-out (evaluation set)');
    const list = cli(['benchmark', 'list', '--db', path, '--json']);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ name: 'crux-out', from: 'evalset', programs: 2, in_corpus: 2 }]);
    // A mark from the set, as it is now, outlives the set.
    const mark = cli(['benchmark', 'add', '--db', path, '--name', 'crux-copy', '--set', 'crux-out']);
    expect(mark.stdout).toBe('benchmark crux-copy: marked 2 programs; exports leave them out of training splits\n');
  });
});

describe('benchmark programs a person marks (stepscope benchmark add | list | remove)', () => {
  it('marks by trace, trace list, program file (hash or source) and set; exports leave them out; remove unmarks', () => {
    const path = copyOf('marks');
    const raw = new Database(path);
    raw.prepare("UPDATE traces SET meta = '{}'").run(); // no benchmark known by itself
    raw.close();
    expect(cli(['benchmark', 'list', '--db', path]).stdout).toContain('no benchmark programs in this corpus');
    const list = join(dir, 'held.txt');
    writeFileSync(list, '# the held-out tasks\nown_7\n');
    const programs = join(dir, 'held.jsonl');
    writeFileSync(
      programs,
      [
        JSON.stringify({ program: sourceHash(source.get('own_8')!) }),
        JSON.stringify({ code: source.get('own_9') }),
        JSON.stringify({ source: 'def never_recorded():\n    return 1\n' }),
      ].join('\n') + '\n',
    );
    const add = cli([
      'benchmark',
      'add',
      '--db',
      path,
      '--name',
      'held',
      '--trace',
      String(ids.get('own_6')),
      '--traces-from',
      list,
      '--programs',
      programs,
    ]);
    expect(add.stderr).toBe('');
    expect(add.stdout).toBe('benchmark held: marked 5 programs; exports leave them out of training splits\n');
    const again = cli(['benchmark', 'add', '--db', path, '--name', 'held', '--trace', String(ids.get('own_6'))]);
    expect(again.stdout).toContain('marked 0 programs (1 program already marked)');
    expect(cli(['benchmark', 'list', '--db', path, '--json']).stdout.trim()).toBe(
      JSON.stringify({ name: 'held', from: 'marked', programs: 5, in_corpus: 4 }),
    );
    const o = out();
    const r = cli(['dataset', 'export', '--db', path, '-o', o, '--kind', 'traces']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('left out 4 programs');
    expect(r.stderr).toContain('as programs of held (marked)');
    for (const k of ['own_6', 'own_7', 'own_8', 'own_9']) expect(names(o).has(k)).toBe(false);
    expect(names(o).has('own_10')).toBe(true);
    const one = cli(['benchmark', 'remove', '--db', path, '--name', 'held', '--trace', String(ids.get('own_6'))]);
    expect(one.stdout).toBe('benchmark held: unmarked 1 program\n');
    const rest = cli(['benchmark', 'remove', '--db', path, '--name', 'held']);
    expect(rest.stdout).toBe('benchmark held: unmarked 4 programs\n');
    const gone = cli(['benchmark', 'remove', '--db', path, '--name', 'held']);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain('no programs are marked as held');
    const bad = cli(['benchmark', 'add', '--db', path, '--name', 'held']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('name the programs with --trace, --traces-from, --programs or --set');
    writeFileSync(programs, '{"program": "abc"}\n');
    const badFile = cli(['benchmark', 'add', '--db', path, '--name', 'held', '--programs', programs]);
    expect(badFile.status).toBe(1);
    expect(badFile.stderr).toContain(`${programs}:1: expected a JSON object with "program" (a sha256 in hex)`);
  });

  it("a benchmark known from the traces' meta cannot be removed: the refusal says where it comes from", () => {
    const r = cli(['benchmark', 'remove', '--db', db, '--name', 'cruxeval']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("cruxeval is not marked: its programs are known from its traces' meta");
    const list = cli(['benchmark', 'list', '--db', db]);
    expect(list.stdout).toMatch(/^benchmark +from +programs +in corpus\ncruxeval +recorded from it +6 +6\n/);
  });
});
