/**
 * `stepscope pipeline`'s last step: one manifest and one dataset card over the exports of all
 * its shards (docs/pipeline.md). Each shard exported its own corpus with the same options;
 * a program's split depends only on its source's hash and the seed (plan.ts), so the union is
 * the split a single export of all the programs would make. The shards' data files are linked
 * (hard links; copied where linking fails) into OUT/data/ under names that keep `data/<split>-*`.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError } from '../common/errors.js';
import type { ExportKind } from '../semantics/export-select.js';
import type { BenchmarkInfo } from './benchmarks.js';
import { datasetCard } from './card.js';
import { COLUMNS } from './columns.js';
import { MANIFEST, type Manifest } from './manifest.js';
import { version } from './version.js';

/** The combined manifest: an export's keys, and where each shard's part came from. */
export interface PipelineManifest extends Manifest {
  shards: { shard: number; corpus: string; corpus_sha256: string; rows: number; programs: number }[];
}

/** One shard as the pipeline left it: its folder (OUT/shards/NNNN) and its index. */
export interface ShardPart {
  shard: number;
  dir: string;
}

const sortedUnion = (lists: string[][]) => [...new Set(lists.flat())].sort();

function readManifest(file: string): Manifest {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (e) {
    throw new UserError(`${file}: cannot read the shard's export manifest: ${(e as Error).message}`, 'bad-input');
  }
}

/** Merges the shards' manifests (same options each); files are the paths inside OUT. */
export function combineManifests(
  parts: { shard: number; m: Manifest; files: Record<string, string[]> }[],
): PipelineManifest {
  if (!parts.length) throw new UserError('pipeline: no shard to combine', 'bad-input');
  const first = parts[0].m;
  for (const { shard, m } of parts)
    for (const key of ['kind', 'format', 'split', 'seed', 'allow_overlap'] as const)
      if (JSON.stringify(m[key]) !== JSON.stringify(first[key]))
        throw new UserError(
          `pipeline: shard ${shard} was exported with another ${key} than shard ${parts[0].shard}`,
          'bad-input',
        );
  const splits: Manifest['splits'] = {};
  for (const name of Object.keys(first.splits)) {
    const each = parts.map((p) => p.m.splits[name]).filter(Boolean);
    const labels: Record<string, number> = {};
    for (const s of each) for (const [l, n] of Object.entries(s.labels)) labels[l] = (labels[l] ?? 0) + n;
    const hashes = sortedUnion(each.map((s) => s.program_hashes));
    splits[name] = {
      rows: each.reduce((a, s) => a + s.rows, 0),
      programs: hashes.length,
      files: parts.flatMap((p) => p.files[name] ?? []),
      labels: Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1))),
      program_hashes: hashes,
      trace_names: sortedUnion(each.map((s) => s.trace_names)),
    };
  }
  const benchmarks = new Map<string, BenchmarkInfo>();
  for (const { m } of parts)
    for (const b of m.benchmarks) {
      const key = `${b.name}\0${b.from}`;
      const had = benchmarks.get(key);
      benchmarks.set(key, had ? { ...had, programs: had.programs + b.programs } : { ...b });
    }
  const sum = (k: 'benchmark_programs' | 'excluded_programs' | 'excluded_rows' | 'overlap_programs' | 'overlap_rows') =>
    parts.reduce((a, p) => a + p.m[k], 0);
  const corpusHash = createHash('sha256');
  for (const { m } of parts) corpusHash.update(m.corpus.sha256);
  return {
    stepscope_version: version,
    created: new Date().toISOString(),
    corpus: {
      file: `shards/*/corpus.db (${parts.length} shard${parts.length === 1 ? '' : 's'})`,
      sha256: corpusHash.digest('hex'),
      schema_version: first.corpus.schema_version,
    },
    kind: first.kind,
    format: first.format,
    filter: first.filter,
    split: first.split,
    seed: first.seed,
    shard_rows: first.shard_rows,
    allow_overlap: first.allow_overlap,
    rows: Object.values(splits).reduce((a, s) => a + s.rows, 0),
    programs: Object.values(splits).reduce((a, s) => a + s.programs, 0),
    splits,
    train_splits: first.train_splits,
    benchmarks: [...benchmarks.values()],
    benchmark_programs: sum('benchmark_programs'),
    excluded_programs: sum('excluded_programs'),
    excluded_rows: sum('excluded_rows'),
    excluded_sets: sortedUnion(parts.map((p) => p.m.excluded_sets)),
    overlap_programs: sum('overlap_programs'),
    overlap_rows: sum('overlap_rows'),
    shards: parts.map(({ shard, m }) => ({
      shard,
      corpus: `shards/${String(shard).padStart(4, '0')}/corpus.db`,
      corpus_sha256: m.corpus.sha256,
      rows: m.rows,
      programs: m.programs,
    })),
  };
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Writes OUT/data/ (the shards' files), OUT/README.md and OUT/stepscope-export.json; run again
 * it rebuilds them. The card and the manifest are renamed into place, the manifest last.
 */
export function combineShards(out: string, parts: ShardPart[], license = 'other'): PipelineManifest {
  const data = join(out, 'data');
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const read = parts.map(({ shard, dir }) => {
    const exportDir = join(dir, 'export');
    const m = readManifest(join(exportDir, MANIFEST));
    const files: Record<string, string[]> = {};
    for (const [name, s] of Object.entries(m.splits))
      files[name] = s.files.map((f) => {
        // data/train-00000-of-00002.parquet → data/train-s0003-00000-of-00002.parquet
        const linked = `data/${basename(f).replace(`${name}-`, `${name}-s${String(shard).padStart(4, '0')}-`)}`;
        linkOrCopy(join(exportDir, f), join(out, linked));
        return linked;
      });
    return { shard, m, files };
  });
  const m = combineManifests(read);
  const card =
    datasetCard(m, COLUMNS[m.kind as ExportKind], license) +
    [
      '## Shards',
      '',
      `Made by \`stepscope pipeline\` in ${parts.length} shard${parts.length === 1 ? '' : 's'}, each recorded into ` +
        'its own corpus (`shards/NNNN/corpus.db`). Ids (`trace`, and `id` where the kind has it) number the rows ' +
        "within their shard's corpus: with the shard (`-sNNNN-` in a file's name) they name one row; the trace " +
        'name and the program hash mean the same in every shard.',
      '',
    ].join('\n');
  const put = (name: string, text: string) => {
    const tmp = join(out, `.${name}.tmp-${process.pid}`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(out, name));
  };
  put('README.md', card);
  put(MANIFEST, JSON.stringify(m, null, 2) + '\n');
  return m;
}
