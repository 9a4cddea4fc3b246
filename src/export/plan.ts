/**
 * The plan of an export, made before anything is written (and shown by the app's preview):
 * each program goes to one split, chosen from the sha256 of its source text and the seed,
 * so one program never lands in two splits, a program keeps its split when others are
 * added, and the same seed gives the same splits. Benchmark programs (benchmarks.ts) are
 * left out of training splits unless overlap is allowed (the leakage guard); a plan whose
 * guard takes more than half of the training splits' programs carries a refusal, which the
 * export throws (the preview only shows it).
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
import { knownBenchmarks, ORIGIN_WORDS, sourceHash, type BenchmarkInfo, type BenchmarkOrigin } from './benchmarks.js';

export { sourceHash };

export interface ExportOptions {
  kind: ExportKind;
  /** The filter's clauses as given (`KEY=VALUE`). */
  select: string[];
  /** `train=0.9,validation=0.1`; default `train=1`. */
  split?: string;
  seed?: number;
  allowOverlap?: boolean;
  /** The splits the leakage guard protects; default every split whose name starts with `train`. */
  trainSplits?: string[];
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
  /** Left out of training splits by the guard, and the names of every benchmark the corpus knows. */
  excluded: { programs: number; rows: number; sets: string[] };
  guard: Guard;
}

/** What the leakage guard did, or would do (the app's preview shows it before Export). */
export interface Guard {
  trainingSplits: string[];
  /** Every benchmark the corpus knows, with its programs in the corpus. */
  known: BenchmarkInfo[];
  /** The benchmarks of the selected rows' programs, with how many of them each holds. */
  benchmarks: BenchmarkInfo[];
  /** Selected programs that belong to a benchmark, in any split. */
  benchmarkPrograms: number;
  /** Programs the training splits would hold without the guard. */
  trainingPrograms: number;
  /** Left out of training splits. */
  excluded: { programs: number; rows: number };
  /** Benchmark programs kept in training splits by --allow-overlap. */
  overlap: { programs: number; rows: number };
  /** Why the export is refused (one sentence), or null. */
  refusal: string | null;
}

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
  const filter = parseSelect(opts.select);
  if (filter.labelsAny || filter.labelsAll || filter.labelsNone || filter.annotator !== undefined)
    checkLabelKeys(corpus, filter);
  const splits = parseSplit(opts.split ?? 'train=1').map((s) => ({ ...s, rows: 0, programs: 0 }));
  const options: Required<ExportOptions> = {
    kind: opts.kind,
    select: opts.select,
    split: opts.split ?? 'train=1',
    seed: opts.seed ?? 0,
    allowOverlap: opts.allowOverlap ?? false,
    trainSplits: trainingSplits(
      splits.map((s) => s.name),
      opts.trainSplits,
    ),
  };
  const sources = corpus.exportSources(options.kind, filter);
  const weights = new Map<number, number>();
  for (const src of sources)
    for (const [id, n] of corpus.exportWeights(src, filter)) weights.set(id, (weights.get(id) ?? 0) + n);
  const known = knownBenchmarks(corpus, (id) => weights.has(id));
  const training = new Set(options.trainSplits);
  const programs = new Map<number, { hash: string; split: number }>();
  const counted = new Set<string>(); // a source recorded under several calls counts once
  const trainingHashes = new Set<string>();
  const benchHashes = new Set<string>();
  const inTraining = { hashes: new Set<string>(), rows: 0 }; // benchmark programs a training split would get
  for (const [id, rows] of weights) {
    if (!rows) continue;
    const hash = known.hashOf.get(id)!;
    const split = splitIndex(
      splitPoint(hash, options.seed),
      splits.map((s) => s.fraction),
    );
    const isTraining = training.has(splits[split].name);
    const isBench = known.byHash.has(hash);
    if (isBench) benchHashes.add(hash);
    if (isTraining) trainingHashes.add(hash);
    if (isTraining && isBench) {
      inTraining.hashes.add(hash);
      inTraining.rows += rows;
      if (!options.allowOverlap) continue;
    }
    programs.set(id, { hash, split });
    splits[split].rows += rows;
    if (!counted.has(hash)) {
      counted.add(hash);
      splits[split].programs++;
    }
  }
  // The benchmarks of the export's programs, with how many of them each holds.
  const held = known.benchmarks.map(() => 0);
  for (const h of benchHashes) for (const k of known.byHash.get(h)!) held[k]++;
  const benchmarks = known.benchmarks.map((b, k) => ({ ...b, programs: held[k] })).filter((b) => b.programs);
  const taken = options.allowOverlap
    ? { programs: 0, rows: 0 }
    : { programs: inTraining.hashes.size, rows: inTraining.rows };
  const guard: Guard = {
    trainingSplits: options.trainSplits,
    known: known.benchmarks,
    benchmarks,
    benchmarkPrograms: benchHashes.size,
    trainingPrograms: trainingHashes.size,
    excluded: taken,
    overlap: options.allowOverlap
      ? { programs: inTraining.hashes.size, rows: inTraining.rows }
      : { programs: 0, rows: 0 },
    refusal: null,
  };
  // Refused when the guard takes most of what the training splits would hold (all of it: empty).
  if (taken.programs > 0 && taken.programs * 2 > trainingHashes.size) {
    const owners = known.benchmarks.filter((_, k) =>
      [...inTraining.hashes].some((h) => known.byHash.get(h)!.includes(k)),
    );
    guard.refusal = refusal(options.trainSplits, taken.programs, trainingHashes.size, owners);
  }
  return {
    options,
    filter,
    sources,
    splits,
    programs,
    excluded: { ...taken, sets: known.benchmarks.map((b) => b.name) },
    guard,
  };
}

/** The training splits: those named (each must be a split), else every split whose name starts with `train`. */
function trainingSplits(names: string[], given?: string[]): string[] {
  if (!given) return names.filter(isTrainingSplit);
  for (const n of given)
    if (!names.includes(n))
      throw new UserError(
        `--train-splits: ${JSON.stringify(n)} is not one of the splits (${names.join(', ')})`,
        'bad-input',
      );
  return names.filter((n) => given.includes(n));
}

/** The one sentence of a refused export (the CLI and the app show it as is). */
function refusal(splits: string[], taken: number, had: number, owners: { name: string; from: BenchmarkOrigin }[]) {
  const which = `training split${splits.length === 1 ? '' : 's'} ${splits.join(', ')}`;
  const whose = owners.map((b) => `${b.name} (${ORIGIN_WORDS[b.from]})`).join(' or ');
  const what =
    taken === had
      ? `leave ${which} empty, as ${had === 1 ? `${splits.length === 1 ? 'its' : 'their'} one program belongs` : `all ${had} of ${splits.length === 1 ? 'its' : 'their'} programs belong`} to ${whose}`
      : `take ${taken} of the ${had} programs of ${which}, as they belong to ${whose}`;
  return `the leakage guard would ${what}; give --allow-overlap to keep them there (the dataset card then records the overlap), or select other rows.`;
}
