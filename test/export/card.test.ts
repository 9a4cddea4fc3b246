// The dataset card (README.md) made from hand-written manifests: the facts its reader needs
// (what the rows are, how they were selected, the counts per split and per label, the
// licence, how to load the files) and a YAML header the Hugging Face Hub reads. The card's
// prose is not pinned here: only the figures, names, tables and snippets that must be right.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { datasetCard, sizeCategory } from '../../src/export/card.js';
import { COLUMNS } from '../../src/export/columns.js';
import type { Manifest } from '../../src/export/manifest.js';

const files = (split: string, n: number, ext = 'jsonl') =>
  Array.from({ length: n }, (_, i) => `data/${split}-0000${i}-of-0000${n}.${ext}`);

/** The card does not show the split's program hashes and trace names (the manifest keeps them). */
const held = { program_hashes: [], trace_names: [] };
function manifestOf(over: Partial<Manifest> = {}): Manifest {
  return {
    stepscope_version: '9.8.7',
    created: '2026-12-01T14:00:00.000Z',
    corpus: { file: 'my-corpus.db', sha256: 'ab'.repeat(32), schema_version: 11 },
    kind: 'traces',
    format: 'jsonl',
    filter: [],
    split: 'train=0.8,validation=0.1,test=0.1',
    seed: 42,
    shard_rows: 100,
    allow_overlap: false,
    rows: 130,
    programs: 7,
    splits: {
      train: { rows: 120, programs: 6, files: files('train', 2), labels: { 'data.wrong_value': 2 }, ...held },
      validation: {
        rows: 10,
        programs: 1,
        files: files('validation', 1),
        labels: { 'control.wrong_line': 1, 'data.wrong_value': 4 },
        ...held,
      },
      test: { rows: 0, programs: 0, files: [], labels: {}, ...held },
    },
    train_splits: ['train'],
    benchmarks: [
      { name: 'cruxeval', from: 'traces', programs: 1 },
      { name: 'crux-out', from: 'evalset', programs: 1 },
    ],
    benchmark_programs: 1,
    excluded_programs: 1,
    excluded_rows: 5,
    excluded_sets: ['cruxeval', 'crux-out', 'crux-in'],
    overlap_programs: 0,
    overlap_rows: 0,
    ...over,
  };
}

function cardOf(m: Manifest, license = 'other') {
  const text = datasetCard(m, COLUMNS[m.kind as keyof typeof COLUMNS], license);
  const [before, header, ...rest] = text.split(/^---$/m);
  expect(before).toBe('');
  return { yaml: parseYaml(header), body: rest.join('---') };
}

/** The GitHub-flavoured table of a markdown text: its header cells, delimiter cells and rows. */
function tableOf(body: string): { header: string[]; delimiter: string[]; rows: string[][] } {
  const lines = body.split('\n').filter((l) => l.startsWith('|'));
  const cells = (l: string) =>
    l
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  const [header, delimiter, ...rows] = lines.map(cells);
  return { header, delimiter, rows };
}

/** The Hub's size_categories values (its dataset card metadata). */
const HUB_SIZES = [
  'n<1K',
  '1K<n<10K',
  '10K<n<100K',
  '100K<n<1M',
  '1M<n<10M',
  '10M<n<100M',
  '100M<n<1B',
  '1B<n<10B',
  '10B<n<100B',
  '100B<n<1T',
  'n>1T',
];

describe('the YAML header', () => {
  it("size_categories: the Hub's bucket of the row count, at each bucket's edges, and a Hub value however many rows", () => {
    const cases: [number, string][] = [
      [0, 'n<1K'],
      [999, 'n<1K'],
      [1000, '1K<n<10K'],
      [9999, '1K<n<10K'],
      [10_000, '10K<n<100K'],
      [99_999, '10K<n<100K'],
      [100_000, '100K<n<1M'],
      [1_000_000, '1M<n<10M'],
      [10_000_000, '10M<n<100M'],
      [100_000_000, '100M<n<1B'],
    ];
    for (const [n, bucket] of cases) expect(sizeCategory(n), String(n)).toBe(bucket);
    for (const n of [1e9, 1e10, 1e13]) expect(HUB_SIZES, String(n)).toContain(sizeCategory(n));
    expect(cardOf(manifestOf({ rows: 1500 })).yaml.size_categories).toEqual(['1K<n<10K']);
  });

  it('license, task, tags; a config whose data_files name each split with rows (an empty split has none); its num_examples', () => {
    const { yaml } = cardOf(manifestOf(), 'mit');
    expect(yaml.license).toBe('mit');
    expect(yaml.task_categories).toEqual(['text-generation']);
    expect(yaml.tags).toEqual(['stepscope', 'neural-debugger', 'execution-traces']);
    expect(yaml.configs).toEqual([
      {
        config_name: 'default',
        data_files: [
          { split: 'train', path: 'data/train-*.jsonl' },
          { split: 'validation', path: 'data/validation-*.jsonl' },
        ],
      },
    ]);
    expect(yaml.dataset_info.splits).toEqual([
      { name: 'train', num_examples: 120 },
      { name: 'validation', num_examples: 10 },
    ]);
    const pq = cardOf(manifestOf({ format: 'parquet' })).yaml;
    expect(pq.configs[0].data_files.map((d: { path: string }) => d.path)).toEqual([
      'data/train-*.parquet',
      'data/validation-*.parquet',
    ]);
  });

  it('features: every column of each kind, in order, typed string, int32, a sequence of strings or of int32 pairs', () => {
    for (const kind of Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]) {
      const { yaml } = cardOf(manifestOf({ kind }));
      const want = COLUMNS[kind].map((c) =>
        c.type === 'strings'
          ? { name: c.name, sequence: 'string' }
          : c.type === 'spans'
            ? { name: c.name, sequence: { sequence: 'int32' } }
            : { name: c.name, dtype: c.type === 'int' ? 'int32' : 'string' },
      );
      expect(yaml.dataset_info.features, kind).toEqual(want);
      // Both kinds of scalar are there in every kind.
      expect(want.some((f) => f.dtype === 'string') && want.some((f) => f.dtype === 'int32')).toBe(true);
    }
    // The trajectories card lists target_spans, as a list of lists of int32, and says what it is.
    const t = cardOf(manifestOf({ kind: 'trajectories' }));
    expect(t.yaml.dataset_info.features.at(-1)).toEqual({ name: 'target_spans', sequence: { sequence: 'int32' } });
    expect(t.body).toContain('`target_spans`');
    expect(t.body).toContain('in code points (Python: `text[start:end]`)');
  });
});

describe('the body', () => {
  it('names the kind and the columns every row has', () => {
    for (const kind of Object.keys(COLUMNS)) {
      const { body } = cardOf(manifestOf({ kind }));
      expect(body).toMatch(new RegExp(`^# .*\\b${kind}$`, 'm'));
      for (const c of ['name', 'trace', 'program', 'labels']) expect(body, `${kind} ${c}`).toContain(`\`${c}\``);
    }
  });

  it('the filter as given, one clause a line, or that there was none', () => {
    const lines = cardOf(manifestOf({ filter: ['exit=error', 'name=sum_*'] })).body.split('\n');
    expect(lines).toContain('- `exit=error`');
    expect(lines).toContain('- `name=sum_*`');
    expect(cardOf(manifestOf()).body).toMatch(/no filter/);
  });

  it('the corpus (file, sha256, schema), the Stepscope version and time, the split rule and the seed', () => {
    const { body } = cardOf(manifestOf());
    for (const fact of [
      'my-corpus.db',
      'ab'.repeat(32),
      '9.8.7',
      '2026-12-01T14:00:00.000Z',
      'train=0.8,validation=0.1,test=0.1',
    ])
      expect(body).toContain(fact);
    expect(body).toMatch(/schema 11\b/);
    expect(body).toMatch(/seed 42\b/);
  });

  it('the leakage guard: what it left out of which training split, and of which benchmarks (by origin)', () => {
    const guarded = cardOf(manifestOf()).body;
    expect(guarded).toContain(
      'Leakage guard: 1 program (5 rows) of benchmarks `cruxeval` (recorded from it), `crux-out` (evaluation set) were left out of the training split `train`.',
    );
    const many = cardOf(manifestOf({ excluded_programs: 2, excluded_rows: 9, train_splits: ['train', 'train2'] })).body;
    expect(many).toMatch(/Leakage guard: 2 programs \(9 rows\) of benchmarks .* training splits `train`, `train2`\./);
  });

  it('the leakage guard with nothing to guard: no benchmark known, none among the rows, no training split', () => {
    // The corpus knows no benchmark: said so, not "0 programs of the benchmark sets".
    const none = cardOf(
      manifestOf({ benchmarks: [], benchmark_programs: 0, excluded_programs: 0, excluded_rows: 0, excluded_sets: [] }),
    ).body;
    expect(none).toContain('Leakage guard: no program of this corpus is known to belong to a benchmark');
    expect(none).not.toMatch(/Leakage guard: 0 programs/);
    const other = cardOf(
      manifestOf({ benchmarks: [], benchmark_programs: 0, excluded_programs: 0, excluded_rows: 0 }),
    ).body;
    expect(other).toContain("none of these rows' programs belongs to the corpus's benchmarks `cruxeval`, `crux-out`");
    const untrained = cardOf(
      manifestOf({ train_splits: [], benchmark_programs: 4, excluded_programs: 0, excluded_rows: 0 }),
    ).body;
    expect(untrained).toContain('no split is a training split');
    expect(untrained).toContain('the 4 benchmark programs stayed in the splits they fell in');
  });

  it('--allow-overlap: the overlap is recorded (benchmark programs and rows in training splits)', () => {
    const off = cardOf(
      manifestOf({
        allow_overlap: true,
        excluded_programs: 0,
        excluded_rows: 0,
        excluded_sets: [],
        overlap_programs: 3,
        overlap_rows: 12,
      }),
    ).body;
    expect(off).toContain(
      'The leakage guard was turned off (`--allow-overlap`): 3 programs (12 rows) of benchmarks `cruxeval` (recorded from it), `crux-out` (evaluation set) are in the training split `train`.',
    );
    expect(off).not.toMatch(/Leakage guard: \d/);
  });

  it('a table of rows, programs and files per split (an empty split too) with one column per label, in name order', () => {
    const { header, delimiter, rows } = tableOf(cardOf(manifestOf()).body);
    expect(header).toEqual(['split', 'rows', 'programs', 'files', 'control.wrong_line', 'data.wrong_value']);
    // A markdown table needs a delimiter row with one cell per column.
    expect(delimiter.length).toBe(header.length);
    for (const d of delimiter) expect(d).toMatch(/^:?-{3,}:?$/);
    expect(rows).toEqual([
      ['train', '120', '6', '2', '0', '2'],
      ['validation', '10', '1', '1', '1', '4'],
      ['test', '0', '0', '0', '0', '0'],
    ]);
    const bare = cardOf(
      manifestOf({ splits: { train: { rows: 3, programs: 1, files: files('train', 1), labels: {}, ...held } } }),
    ).body;
    expect(tableOf(bare)).toEqual({
      header: ['split', 'rows', 'programs', 'files'],
      delimiter: Array(4).fill(expect.stringMatching(/^:?-{3,}:?$/)),
      rows: [['train', '3', '1', '1']],
    });
    expect(bare).toMatch(/No row carries a label/);
  });

  it('a Python block that loads each split with rows from its files, with the loader of the format', () => {
    for (const [format, loader] of [
      ['jsonl', 'json'],
      ['parquet', 'parquet'],
    ] as const) {
      const { body } = cardOf(manifestOf({ format }));
      const code = /```python\n([\s\S]*?)\n```/.exec(body)?.[1];
      expect(code, format).toBeDefined();
      const [imports, call] = code!.split('\n');
      expect(imports).toBe('from datasets import load_dataset');
      const m = /^ds = load_dataset\("(\w+)", data_files=(\{.*\})\)$/.exec(call);
      expect(m, call).not.toBeNull();
      expect(m![1]).toBe(loader);
      expect(JSON.parse(m![2])).toEqual({ train: `data/train-*.${format}`, validation: `data/validation-*.${format}` });
    }
  });
});
