/**
 * The plan of an export, made before anything is written (and shown by the app's preview):
 * each program goes to one split, chosen from the sha256 of its source text and the seed,
 * so one program never lands in two splits, a program keeps its split when others are
 * added, and the same seed gives the same splits. Programs of a benchmark eval set
 * (CRUXEval) are left out of training splits unless overlap is allowed (the leakage guard).
 */
import { createHash } from 'node:crypto';
import { DEFAULT_TAXONOMY, findLabel, type Taxonomy } from '../annotate/index.js';
import { UserError } from '../common/errors.js';
import {
  isTrainingSplit,
  parseSelect,
  parseSplit,
  type ExportFilter,
  type ExportKind,
} from '../semantics/export-select.js';
import type { ReadCorpus, RowSource } from '../store/corpus.js';

export interface ExportOptions {
  kind: ExportKind;
  /** The filter's clauses as given (`KEY=VALUE`). */
  select: string[];
  /** `train=0.9,validation=0.1`; default `train=1`. */
  split?: string;
  seed?: number;
  allowOverlap?: boolean;
}

export interface SplitPlan {
  name: string;
  fraction: number;
  rows: number;
  programs: number;
}

export interface Plan {
  options: Required<ExportOptions>;
  filter: ExportFilter;
  sources: RowSource[];
  splits: SplitPlan[];
  /** Per program id: its source hash and split (absent: not exported). */
  programs: Map<number, { hash: string; split: number }>;
  excluded: { programs: number; rows: number; sets: string[] };
}

export const sourceHash = (source: string) => createHash('sha256').update(source).digest('hex');

/** Where in [0, 1) a program falls for a seed: the first 48 bits of sha256(seed:hash). */
export function splitPoint(hash: string, seed: number): number {
  return parseInt(createHash('sha256').update(`${seed}:${hash}`).digest('hex').slice(0, 12), 16) / 2 ** 48;
}

export function splitIndex(point: number, fractions: number[]): number {
  let acc = 0;
  for (let k = 0; k < fractions.length; k++) {
    acc += fractions[k];
    if (point < acc) return k;
  }
  return fractions.length - 1;
}

/** Label keys need annotations, and name labels of the corpus's taxonomy (old ids and deprecated ones too). */
function checkLabelKeys(corpus: ReadCorpus, f: ExportFilter): void {
  if (!corpus.hasAnnotations()) {
    throw new UserError(
      `--select labels-any, labels-all, labels-none and annotator: there are no annotations in this corpus (${corpus.path})`,
      'bad-input',
    );
  }
  const stored = corpus.latestTaxonomy();
  const t = stored ? (JSON.parse(stored.body) as Taxonomy) : DEFAULT_TAXONOMY;
  for (const [key, ids] of [
    ['labels-any', f.labelsAny],
    ['labels-all', f.labelsAll],
    ['labels-none', f.labelsNone],
  ] as const) {
    for (const id of ids ?? []) {
      if (!findLabel(t, id)) {
        throw new UserError(
          `--select ${key}: unknown label '${id}' (taxonomy '${t.name}' version ${t.version}; \`stepscope taxonomy\` lists the labels)`,
          'bad-input',
        );
      }
    }
  }
}

export function planExport(corpus: ReadCorpus, opts: ExportOptions): Plan {
  const options: Required<ExportOptions> = {
    kind: opts.kind,
    select: opts.select,
    split: opts.split ?? 'train=1',
    seed: opts.seed ?? 0,
    allowOverlap: opts.allowOverlap ?? false,
  };
  const filter = parseSelect(options.select);
  if (filter.labelsAny || filter.labelsAll || filter.labelsNone || filter.annotator !== undefined)
    checkLabelKeys(corpus, filter);
  const splits = parseSplit(options.split).map((s) => ({ ...s, rows: 0, programs: 0 }));
  const sources = corpus.exportSources(options.kind, filter);
  const weights = new Map<number, number>();
  for (const src of sources)
    for (const [id, n] of corpus.exportWeights(src, filter)) weights.set(id, (weights.get(id) ?? 0) + n);
  const bench = corpus.benchmarkPrograms();
  // Benchmark membership is by source hash: the same function under another call is the same program.
  const found = new Map<number, { hash: string; rows: number }>();
  const benchHashes = new Set<string>();
  for (const { id, source } of corpus.iterateProgramSources()) {
    const rows = weights.get(id) ?? 0;
    const inBench = bench.programs.has(id);
    if (!rows && !inBench) continue;
    const hash = sourceHash(source);
    if (inBench) benchHashes.add(hash);
    if (rows) found.set(id, { hash, rows });
  }
  const programs = new Map<number, { hash: string; split: number }>();
  const counted = new Set<string>(); // a source recorded under several calls counts once
  const excludedHashes = new Set<string>();
  let excludedRows = 0;
  for (const [id, { hash, rows }] of found) {
    const split = splitIndex(
      splitPoint(hash, options.seed),
      splits.map((s) => s.fraction),
    );
    if (!options.allowOverlap && isTrainingSplit(splits[split].name) && benchHashes.has(hash)) {
      excludedHashes.add(hash);
      excludedRows += rows;
      continue;
    }
    programs.set(id, { hash, split });
    splits[split].rows += rows;
    if (!counted.has(hash)) {
      counted.add(hash);
      splits[split].programs++;
    }
  }
  return {
    options,
    filter,
    sources,
    splits,
    programs,
    excluded: { programs: excludedHashes.size, rows: excludedRows, sets: bench.sets },
  };
}
