// Curated export (docs/export.md): every kind in both formats read back by DuckDB and
// hyparquet with their column types; rows checked against the corpus itself and against
// the semantics' own prompt/target cut; splits by program, the leakage guard on CRUXEval,
// byte-identical reruns, the dataset card's YAML and counts, and a failed export's leftovers.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportDataset, previewExport, type WriteOptions } from '../../src/export/run.js';
import type { Manifest } from '../../src/export/manifest.js';
import { contextFor, promptTarget, textParts, type Trajectory } from '../../src/semantics/index.js';
import type { Corpus } from '../../src/store/corpus.js';
import { loadTrace } from '../../src/trajectories/load.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { dataFiles, duckRead, exportCorpus, hyparquetRead, jsonlRead } from './helpers.js';

let corpus: Corpus;
let db: string;
let dir: string;
let n = 0;

beforeAll(async () => {
  ({ corpus, path: db, dir } = await exportCorpus());
}, 900_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

async function run(opts: Partial<WriteOptions> & Pick<WriteOptions, 'kind'>): Promise<{ out: string; m: Manifest }> {
  const out = join(dir, `out${n++}`);
  const m = await exportDataset(db, out, { select: [], ...opts });
  return { out, m };
}

const sql = <T = Record<string, unknown>>(q: string) => [...corpus.query(q)] as T[];
const one = (q: string) => Object.values(sql(q)[0])[0] as number;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** Program id -> sha256 of its source, computed here from the programs table. */
const programHash = () =>
  new Map(sql<{ id: number; source: string }>('SELECT id, source FROM programs').map((p) => [p.id, sha(p.source)]));

describe('every kind in both formats reads back with an independent reader', () => {
  const TYPES: Record<string, Record<string, string>> = {
    trajectories: {
      name: 'VARCHAR',
      trace: 'INTEGER',
      program: 'VARCHAR',
      labels: 'VARCHAR[]',
      id: 'INTEGER',
      text: 'VARCHAR',
      direction: 'VARCHAR',
      entry: 'INTEGER',
      actions: 'VARCHAR[]',
      exit: 'VARCHAR',
      target_spans: 'INTEGER[][]',
    },
    'prompt-target': {
      name: 'VARCHAR',
      trace: 'INTEGER',
      program: 'VARCHAR',
      labels: 'VARCHAR[]',
      source: 'VARCHAR',
      id: 'INTEGER',
      set: 'VARCHAR',
      key: 'VARCHAR',
      step: 'INTEGER',
      direction: 'VARCHAR',
      entry: 'INTEGER',
      actions: 'VARCHAR[]',
      action: 'VARCHAR',
      prompt: 'VARCHAR',
      target: 'VARCHAR',
    },
    corrections: {
      name: 'VARCHAR',
      trace: 'INTEGER',
      program: 'VARCHAR',
      labels: 'VARCHAR[]',
      prediction: 'INTEGER',
      item: 'INTEGER',
      set: 'VARCHAR',
      key: 'VARCHAR',
      model: 'VARCHAR',
      sample: 'INTEGER',
      direction: 'VARCHAR',
      action: 'VARCHAR',
      step: 'INTEGER',
      prompt: 'VARCHAR',
      chosen: 'VARCHAR',
      rejected: 'VARCHAR',
      wrong: 'VARCHAR[]',
    },
    traces: {
      name: 'VARCHAR',
      trace: 'INTEGER',
      program: 'VARCHAR',
      labels: 'VARCHAR[]',
      seq: 'INTEGER',
      event: 'VARCHAR',
      frame: 'INTEGER',
      func: 'VARCHAR',
      line: 'INTEGER',
      src: 'VARCHAR',
      locals: 'VARCHAR',
      arg: 'VARCHAR',
      parent: 'INTEGER',
    },
  };
  const EXPECTED_ROWS: Record<string, string> = {
    trajectories: 'SELECT count(*) FROM trajectories',
    'prompt-target': 'SELECT (SELECT count(*) FROM evalset_items) + (SELECT count(*) FROM trajectory_steps)',
    corrections: 'SELECT count(*) FROM predictions WHERE correct = 0',
    traces: 'SELECT count(*) FROM events',
  };

  for (const kind of ['trajectories', 'prompt-target', 'corrections', 'traces'] as const) {
    it(`${kind}: Parquet (DuckDB, hyparquet) and JSONL (DuckDB, JSON.parse) hold the same rows, typed, as many as the corpus has`, async () => {
      const pq = await run({ kind, format: 'parquet', allowOverlap: true, shardRows: 700 });
      const js = await run({ kind, format: 'jsonl', allowOverlap: true, shardRows: 700 });
      const files = { pq: dataFiles(pq.out).train, js: dataFiles(js.out).train };
      const fromParquet = await duckRead(files.pq, 'parquet');
      const fromJson = await duckRead(files.js, 'jsonl');
      const parsed = jsonlRead(files.js);
      const hyp = (await Promise.all(files.pq.map(hyparquetRead))).flat();
      expect(fromParquet.types).toEqual(TYPES[kind]);
      expect(Object.keys(parsed[0])).toEqual(Object.keys(TYPES[kind]));
      expect(parsed.length).toBe(one(EXPECTED_ROWS[kind]));
      expect(parsed.length).toBeGreaterThan(10);
      expect(fromParquet.rows).toEqual(parsed);
      expect(hyp).toEqual(parsed);
      // DuckDB's JSON reader types columns by sampling; the values are what matter there.
      expect(fromJson.rows.map((r) => r.program)).toEqual(parsed.map((r) => r.program));
      expect(pq.m.splits.train.files.length).toBe(Math.ceil(parsed.length / 700));
      expect(files.pq.length).toBe(pq.m.splits.train.files.length);
      for (const f of files.js)
        expect(readFileSync(f, 'utf8').split('\n').filter(Boolean).length).toBeLessThanOrEqual(700);
      const hashes = programHash();
      const traceProgram = new Map(
        sql<{ id: number; program_id: number }>('SELECT id, program_id FROM traces').map((t) => [t.id, t.program_id]),
      );
      for (const r of parsed) {
        expect(r.program).toBe(hashes.get(traceProgram.get(r.trace as number)!));
        expect(r.labels).toEqual([]);
      }
    });
  }

  it('trajectories rows carry the stored text, direction, entry, actions and exit', async () => {
    const { out } = await run({ kind: 'trajectories', allowOverlap: true });
    const rows = jsonlRead(dataFiles(out).train);
    for (const r of rows) {
      const t = corpus.getTrajectory(r.id as number)!;
      expect(r).toMatchObject({
        name: t.name,
        trace: t.traceId,
        text: t.text,
        direction: t.direction,
        entry: t.entry,
        exit: t.exit,
      });
      expect(r.actions).toEqual(t.actions.map((a) => (a.action === 'breakpoint' ? `breakpoint ${a.src}` : a.action)));
      // target_spans: Python's text[start:end] (code points) is each step's target, after its prompt.
      const tr = loadTrace(corpus, t.traceId);
      const walked = { ...t, states: stateNodes(t) } as unknown as Trajectory;
      const parts = textParts(tr.index, walked, contextFor(t.direction, tr.record));
      const points = Array.from(r.text as string);
      const spans = r.target_spans as unknown as [number, number][];
      expect(spans).toHaveLength(t.actions.length);
      spans.forEach(([s, e], k) => {
        const want = promptTarget(parts, k);
        expect(points.slice(s, e).join('')).toBe(want.target);
        expect(points.slice(0, s).join('')).toBe(want.prompt);
      });
    }
  });

  it("prompt-target: trajectory steps equal the semantics' prompt and target of that step; items equal the stored items", async () => {
    const { out } = await run({ kind: 'prompt-target', allowOverlap: true });
    const rows = jsonlRead(dataFiles(out).train);
    const steps = rows.filter((r) => r.source === 'trajectory');
    const items = rows.filter((r) => r.source === 'item');
    expect(steps.length).toBe(one('SELECT count(*) FROM trajectory_steps'));
    expect(items.length).toBe(one('SELECT count(*) FROM evalset_items'));
    for (const r of steps) {
      const t = corpus.getTrajectory(r.id as number)!;
      const tr = loadTrace(corpus, t.traceId);
      const walked: Trajectory = {
        direction: t.direction,
        entry: t.entry,
        actions: t.actions,
        states: stateNodes(t),
        exit: t.exit,
      } as Trajectory;
      const want = promptTarget(textParts(tr.index, walked, contextFor(t.direction, tr.record)), r.step as number);
      expect({ prompt: r.prompt, target: r.target }).toEqual(want);
      // The actions taken up to and including this step.
      expect(r.actions).toEqual(
        t.actions
          .slice(0, (r.step as number) + 1)
          .map((a) => (a.action === 'breakpoint' ? `breakpoint ${a.src}` : a.action)),
      );
    }
    for (const r of items) {
      const it = corpus.getItem(r.id as number)!;
      expect(r).toMatchObject({
        prompt: it.prompt,
        target: it.target,
        key: it.key,
        action: it.action,
        step: it.actions.length - 1,
      });
    }
  });

  it("corrections: prompt, chosen = the item's target, rejected = the wrong completion, the model and the fields it got wrong", async () => {
    const { out } = await run({ kind: 'corrections', allowOverlap: true });
    const rows = jsonlRead(dataFiles(out).train);
    const truth = new Map(
      sql<
        {
          id: number;
          prompt: string;
          target: string;
          completion: string;
          label: string;
          format_error: number | null;
        } & Record<string, number | null>
      >(
        'SELECT p.id, i.prompt, i.target, p.completion, r.label, p.em_event, p.em_src, p.em_locals, p.em_arg, p.format_error FROM predictions p JOIN evalset_items i ON i.id = p.item_id JOIN runs r ON r.id = p.run_id WHERE p.correct = 0',
      ).map((p) => [p.id, p]),
    );
    expect(rows.length).toBe(truth.size);
    for (const r of rows) {
      const p = truth.get(r.prediction as number)!;
      expect(r).toMatchObject({ prompt: p.prompt, chosen: p.target, rejected: p.completion, model: p.label });
      expect(r.chosen).not.toBe(r.rejected);
      expect(r.wrong).toEqual([
        ...(p.format_error === 1 ? ['format'] : []),
        ...['event', 'src', 'locals', 'arg'].filter((f) => p[`em_${f}`] === 0),
      ]);
    }
  });
});

/** The tree nodes of a stored trajectory's states (inverse: 2*seq, +1 for an inv_line_call). */
function stateNodes(t: { direction: string; states: number[]; lineCalls: number[] }): number[] {
  return t.states.map((seq, j) => (t.direction === 'forward' ? seq : 2 * seq + (t.lineCalls.includes(j) ? 1 : 0)));
}

describe('splits are by program and reproducible', () => {
  it('no program is in two splits; the same seed gives byte-identical data files, another seed other splits', async () => {
    for (const format of ['jsonl', 'parquet'] as const) {
      const a = await run({
        kind: 'traces',
        format,
        split: 'train=0.5,validation=0.3,test=0.2',
        seed: 7,
        allowOverlap: true,
        shardRows: 500,
      });
      const b = await run({
        kind: 'traces',
        format,
        split: 'train=0.5,validation=0.3,test=0.2',
        seed: 7,
        allowOverlap: true,
        shardRows: 500,
      });
      const fa = dataFiles(a.out);
      expect(Object.keys(fa).sort()).toEqual(['test', 'train', 'validation']);
      const bytes = (out: string) =>
        Object.values(dataFiles(out))
          .flat()
          .map((f) => [f.slice(out.length), sha(readFileSync(f) as unknown as string)]);
      expect(bytes(b.out)).toEqual(bytes(a.out));
      const programsOf: Record<string, Set<string>> = {};
      for (const [split, files] of Object.entries(fa)) {
        const rows = format === 'jsonl' ? jsonlRead(files) : (await duckRead(files, 'parquet')).rows;
        programsOf[split] = new Set(rows.map((r) => r.program as string));
        expect(rows.length).toBe(a.m.splits[split].rows);
        expect(programsOf[split].size).toBe(a.m.splits[split].programs);
      }
      for (const x of Object.keys(programsOf))
        for (const y of Object.keys(programsOf))
          if (x < y) for (const p of programsOf[x]) expect(programsOf[y].has(p)).toBe(false);
      expect(a.m.rows).toBe(one('SELECT count(*) FROM events'));
    }
    const other = await run({
      kind: 'traces',
      split: 'train=0.5,validation=0.3,test=0.2',
      seed: 8,
      allowOverlap: true,
    });
    const same = await run({ kind: 'traces', split: 'train=0.5,validation=0.3,test=0.2', seed: 7, allowOverlap: true });
    expect(other.m.splits.train.rows).not.toBe(same.m.splits.train.rows);
  });

  it('the same function under several calls is one program: its traces share a split', async () => {
    const { out } = await run({ kind: 'traces', split: 'train=0.5,test=0.5', seed: 3, allowOverlap: true });
    const split = new Map<string, string>();
    for (const [name, files] of Object.entries(dataFiles(out)))
      for (const r of jsonlRead(files)) split.set(r.name as string, name);
    const bySource = sql<{ source: string; names: string }>(
      "SELECT p.source, group_concat(t.name, '|') AS names FROM traces t JOIN programs p ON p.id = t.program_id GROUP BY p.source",
    );
    for (const g of bySource) expect(new Set(g.names.split('|').map((nm) => split.get(nm))).size).toBe(1);
  });
});

describe('the leakage guard', () => {
  // The vectors' four programs and four CRUXEval tasks: the guard takes a few of the training
  // split's programs, not most, so the export goes through.
  const FEW = "sql=t.name NOT GLOB 'sample_*' OR t.name IN ('sample_0', 'sample_1', 'sample_2', 'sample_3')";

  it('leaves the benchmark programs (CRUXEval traces, the CRUXEval set) out of the training split, counts them, and keeps them with --allow-overlap', async () => {
    const benchmark = new Set(
      sql<{ source: string }>(
        "SELECT DISTINCT p.source FROM traces t JOIN programs p ON p.id = t.program_id WHERE t.name IN ('sample_0', 'sample_1', 'sample_2', 'sample_3')",
      ).map((p) => sha(p.source)),
    );
    expect(benchmark.size).toBe(4);
    const guarded = await run({ kind: 'traces', select: [FEW], split: 'train=0.5,test=0.5', seed: 8 });
    const files = dataFiles(guarded.out);
    const inSplit = (s: string) => new Set(jsonlRead(files[s] ?? []).map((r) => r.program as string));
    const train = inSplit('train');
    const test = inSplit('test');
    for (const p of benchmark) expect(train.has(p)).toBe(false);
    const benchInTest = [...benchmark].filter((p) => test.has(p)).length;
    expect(benchInTest).toBeGreaterThan(0); // kept in the test split
    expect(guarded.m.excluded_programs).toBe(benchmark.size - benchInTest);
    expect(guarded.m.excluded_programs).toBeGreaterThan(0);
    expect(guarded.m.excluded_sets).toEqual(['cruxeval', 'crux-out']);
    expect(guarded.m.benchmarks).toEqual([
      { name: 'cruxeval', from: 'traces', programs: 4 },
      { name: 'crux-out', from: 'evalset', programs: 4 },
    ]);
    expect(guarded.m.train_splits).toEqual(['train']);
    const open = await run({ kind: 'traces', select: [FEW], split: 'train=0.5,test=0.5', seed: 8, allowOverlap: true });
    const trainOpen = new Set(jsonlRead(dataFiles(open.out).train).map((r) => r.program as string));
    expect([...benchmark].filter((p) => trainOpen.has(p)).length).toBe(guarded.m.excluded_programs);
    expect(open.m.excluded_programs).toBe(0);
    expect(open.m).toMatchObject({
      overlap_programs: guarded.m.excluded_programs,
      overlap_rows: guarded.m.excluded_rows,
    });
    expect(open.m.splits.train.rows - guarded.m.splits.train.rows).toBe(guarded.m.excluded_rows);
    expect(readFileSync(join(guarded.out, 'README.md'), 'utf8')).toContain(
      `Leakage guard: ${guarded.m.excluded_programs} programs`,
    );
  });

  it('refuses an export whose training split would lose most of its programs, in one sentence naming --allow-overlap; the preview says so without refusing', async () => {
    const out = join(dir, 'most');
    const opts = { kind: 'traces' as const, select: [], split: 'train=0.7,test=0.3', seed: 1 };
    const plan = previewExport(db, opts);
    expect(plan.guard.refusal).toMatch(
      /^the leakage guard would take \d+ of the \d+ programs of training split train, as they belong to cruxeval \(recorded from it\) or crux-out \(evaluation set\); give --allow-overlap to keep them there \(the dataset card then records the overlap\), or select other rows\.$/,
    );
    expect(plan.guard.excluded.programs * 2).toBeGreaterThan(plan.guard.trainingPrograms);
    await expect(exportDataset(db, out, { ...opts })).rejects.toThrow(plan.guard.refusal!);
    expect(existsSync(out)).toBe(false);
    const m = await exportDataset(db, out, { ...opts, allowOverlap: true });
    expect(m.overlap_programs).toBe(plan.guard.excluded.programs);
  });
});

describe('the filter', () => {
  const rowsOf = async (kind: WriteOptions['kind'], select: string[]) =>
    jsonlRead(dataFiles((await run({ kind, select, allowOverlap: true })).out).train ?? []);

  it('selects by exit, name pattern, length, direction, action, set, run and verdicts, matching plain SQL over the corpus', async () => {
    expect((await rowsOf('traces', ['exit=error'])).length).toBe(
      one("SELECT count(*) FROM events e JOIN traces t ON t.id = e.trace_id WHERE t.exit = 'error'"),
    );
    const named = await rowsOf('trajectories', ['name=sample_1*', 'length=3..']);
    expect(named.length).toBe(
      one(
        "SELECT count(*) FROM trajectories j JOIN traces t ON t.id = j.trace_id WHERE t.name GLOB 'sample_1*' AND j.steps >= 3",
      ),
    );
    expect(named.every((r) => (r.name as string).startsWith('sample_1') && (r.actions as string[]).length >= 3)).toBe(
      true,
    );
    const inv = await rowsOf('prompt-target', ['direction=inverse', 'action=inv_step_over', 'source=trajectories']);
    expect(inv.length).toBe(
      one(
        "SELECT count(*) FROM trajectory_steps st JOIN trajectories j ON j.id = st.trajectory_id WHERE j.direction = 'inverse' AND st.action = 'inv_step_over'",
      ),
    );
    expect(inv.every((r) => r.action === 'inv_step_over' && r.direction === 'inverse')).toBe(true);
    const wrongItems = await rowsOf('prompt-target', ['set=ns', 'run=half', 'verdict.all=wrong']);
    expect(wrongItems.length).toBe(one('SELECT count(DISTINCT item_id) FROM predictions WHERE em_all = 0'));
    const locals = await rowsOf('corrections', ['verdict.locals=wrong', 'run=half']);
    expect(locals.length).toBe(one('SELECT count(*) FROM predictions WHERE em_locals = 0 AND correct = 0'));
    expect(locals.every((r) => (r.wrong as string[]).includes('locals'))).toBe(true);
  });

  it('a SQL condition over the documented schema selects rows; values of other keys are bound, never spliced', async () => {
    const long = await rowsOf('trajectories', ["sql=t.events > 30 AND j.direction = 'forward'"]);
    expect(long.length).toBe(
      one(
        "SELECT count(*) FROM trajectories j JOIN traces t ON t.id = j.trace_id WHERE t.events > 30 AND j.direction = 'forward'",
      ),
    );
    expect(long.length).toBeGreaterThan(0);
    expect(await rowsOf('traces', ["name=x' OR '1'='1"])).toEqual([]);
  });

  it('refuses a condition that could write, end the statement or escape its parentheses, and the corpus is unchanged', async () => {
    const before = sql(
      'SELECT (SELECT count(*) FROM traces) AS t, (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM predictions) AS p',
    );
    const refusals: [string, RegExp][] = [
      ['sql=1; DELETE FROM traces', /a ; \(one condition only\)/],
      ['sql=1) OR (1', /a \) that closes nothing/],
      ['sql=1 -- comment', /a comment/],
      ["sql=t.name = 'x", /an unclosed '/],
      ['sql=(SELECT 1', /an unclosed \(/],
      ['sql=t.id IN (DELETE FROM traces RETURNING id)', /--select sql: /],
      ['sql=t.id IN (WITH d AS (DELETE FROM traces RETURNING id) SELECT id FROM d)', /--select sql: /],
      ['sql=no_such_column > 1', /no such column: no_such_column/],
    ];
    for (const [clause, message] of refusals)
      await expect(run({ kind: 'trajectories', select: [clause] }), clause).rejects.toThrow(message);
    expect(
      sql(
        'SELECT (SELECT count(*) FROM traces) AS t, (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM predictions) AS p',
      ),
    ).toEqual(before);
  });

  it('refuses keys that do not apply to the kind, and label filters while the corpus has no annotations', async () => {
    await expect(run({ kind: 'traces', select: ['direction=forward'] })).rejects.toThrow(
      '--select direction does not apply to --kind traces',
    );
    await expect(run({ kind: 'trajectories', select: ['run=half'] })).rejects.toThrow(
      '--select run does not apply to --kind trajectories',
    );
    await expect(run({ kind: 'corrections', select: ['labels-any=off-by-one'] })).rejects.toThrow(
      /no annotations in this corpus/,
    );
    await expect(run({ kind: 'traces', select: ['length=9..2'] })).rejects.toThrow(/whose start is not after its end/);
    await expect(run({ kind: 'traces', select: ['colour=red'] })).rejects.toThrow(/KEY one of labels-any/);
  });
});

describe('the dataset card and the manifest', () => {
  it('README.md has a Hugging Face YAML header whose files, features and counts match the data; the manifest has every key', async () => {
    const { out, m } = await run({
      kind: 'prompt-target',
      format: 'parquet',
      split: 'train=0.8,validation=0.2',
      seed: 4,
      shardRows: 300,
      select: ['source=items'],
      // Every item, the CRUXEval ones too (this test checks the counts against the corpus).
      allowOverlap: true,
    });
    const text = readFileSync(join(out, 'README.md'), 'utf8');
    const [, header, body] = text.split(/^---$/m);
    const card = parseYaml(header);
    const files = dataFiles(out);
    expect(card.license).toBe('other');
    expect(card.task_categories).toEqual(['text-generation']);
    expect(card.size_categories).toEqual(['n<1K']);
    expect(card.configs[0].data_files.map((d: { split: string }) => d.split).sort()).toEqual(Object.keys(files).sort());
    for (const d of card.configs[0].data_files) {
      const glob = new RegExp('^' + d.path.replace('.', '\\.').replace('*', '.*') + '$');
      expect(
        readdirSync(join(out, 'data'))
          .filter((f) => glob.test(`data/${f}`))
          .map((f) => join(out, 'data', f)),
      ).toEqual(files[d.split]);
    }
    const read = await duckRead(files.train, 'parquet');
    expect(card.dataset_info.features.map((f: { name: string }) => f.name)).toEqual(Object.keys(read.types));
    expect(card.dataset_info.features.find((f: { name: string }) => f.name === 'labels')).toEqual({
      name: 'labels',
      sequence: 'string',
    });
    expect(card.dataset_info.features.find((f: { name: string }) => f.name === 'step')).toEqual({
      name: 'step',
      dtype: 'int32',
    });
    for (const s of card.dataset_info.splits)
      expect(s.num_examples).toBe((await duckRead(files[s.name], 'parquet')).rows.length);
    expect(body).toContain('- `source=items`');
    expect(body).toMatch(/\| train \| \d+ \| \d+ \| \d+ \|/);
    expect(body).toContain('load_dataset("parquet"');
    const onDisk = JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8'));
    expect(onDisk).toEqual(m);
    expect(Object.keys(onDisk).sort()).toEqual(
      [
        'allow_overlap',
        'benchmark_programs',
        'benchmarks',
        'corpus',
        'created',
        'excluded_programs',
        'excluded_rows',
        'excluded_sets',
        'filter',
        'format',
        'kind',
        'overlap_programs',
        'overlap_rows',
        'programs',
        'rows',
        'seed',
        'shard_rows',
        'split',
        'splits',
        'stepscope_version',
        'train_splits',
      ].sort(),
    );
    expect(onDisk.corpus.sha256).toBe(sha(readFileSync(db) as unknown as string));
    expect(onDisk.corpus.schema_version).toBe(one('PRAGMA user_version'));
    expect(onDisk.splits.train.files).toEqual(files.train.map((f) => f.slice(out.length + 1)));
    // Each split names the programs and traces of its rows (what evalset create --from-export reads).
    for (const name of ['train', 'validation']) {
      const { rows } = await duckRead(files[name], 'parquet');
      expect(rows.length).toBeGreaterThan(0);
      expect(onDisk.splits[name].program_hashes).toEqual([...new Set(rows.map((r) => r.program))].sort());
      expect(onDisk.splits[name].trace_names).toEqual([...new Set(rows.map((r) => r.name))].sort());
    }
    expect(onDisk.excluded_rows).toBe(0);
    expect(onDisk.rows).toBe(one('SELECT count(*) FROM evalset_items'));
    expect(onDisk.overlap_rows).toBeGreaterThan(0);
  });

  it("the preview gives the same counts as the export, the guard's too, without writing", async () => {
    const before = readdirSync(dir).length;
    const opts = {
      kind: 'traces' as const,
      select: ['exit=normal', "sql=t.name NOT GLOB 'sample_*' OR t.name IN ('sample_0', 'sample_1')"],
      split: 'train=0.6,test=0.4',
      seed: 2,
    };
    const plan = previewExport(db, opts);
    expect(readdirSync(dir).length).toBe(before);
    const { m } = await run(opts);
    expect(plan.splits.map((s) => [s.name, s.rows, s.programs])).toEqual(
      Object.entries(m.splits).map(([k, s]) => [k, s.rows, s.programs]),
    );
    expect(plan.excluded.programs).toBeGreaterThan(0);
    expect([plan.excluded.programs, plan.excluded.rows]).toEqual([m.excluded_programs, m.excluded_rows]);
  });
});

describe('the output folder', () => {
  it('refuses a non-empty folder unless --force, and --force replaces only an earlier export', async () => {
    // The whole corpus, mostly CRUXEval programs: these tests are about the folder, not the guard.
    const { out } = await run({ kind: 'trajectories', allowOverlap: true });
    await expect(exportDataset(db, out, { kind: 'traces', select: [] })).rejects.toThrow(/is not empty: give --force/);
    const m = await exportDataset(db, out, { kind: 'traces', select: [], force: true, allowOverlap: true });
    expect(JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8')).kind).toBe('traces');
    expect(m.kind).toBe('traces');
    const mine = join(dir, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep me');
    await expect(
      exportDataset(db, mine, { kind: 'traces', select: [], force: true, allowOverlap: true }),
    ).rejects.toThrow(/not a Stepscope export/);
    expect(readFileSync(join(mine, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('a failure while writing leaves neither the folder nor a temporary one, and an earlier export stays as it was', async () => {
    const listing = () => readdirSync(dir).sort();
    const before = listing();
    const out = join(dir, 'failing');
    const boom = () => {
      throw new Error('disk full');
    };
    const all = { kind: 'traces' as const, select: [], allowOverlap: true };
    await expect(exportDataset(db, out, { ...all, onProgress: boom })).rejects.toThrow('disk full');
    expect(listing()).toEqual(before);
    const { out: earlier } = await run({ kind: 'trajectories', allowOverlap: true });
    const snapshot = readdirSync(join(earlier, 'data')).map((f) => readFileSync(join(earlier, 'data', f), 'utf8'));
    await expect(exportDataset(db, earlier, { ...all, force: true, onProgress: boom })).rejects.toThrow('disk full');
    expect(readdirSync(join(earlier, 'data')).map((f) => readFileSync(join(earlier, 'data', f), 'utf8'))).toEqual(
      snapshot,
    );
    expect(existsSync(join(earlier, 'stepscope-export.json'))).toBe(true);
    expect(listing()).toEqual([...before, earlier.slice(dir.length + 1)].sort());
  });
});
