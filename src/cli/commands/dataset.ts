/** `stepscope dataset export`: curated, training-ready subsets of a corpus (docs/export.md). */
import { int } from '../../contract/validate.js';
import { UserError } from '../../common/errors.js';
import { describeBenchmarks } from '../../export/benchmarks.js';
import type { Manifest } from '../../export/manifest.js';
import { DEFAULT_SHARD_ROWS, exportDataset, removePartial } from '../../export/run.js';
import { EXPORT_FORMATS, EXPORT_KINDS } from '../../semantics/export-select.js';
import { choiceOption, CliError, intOption, requireString, usage, type Command } from '../command.js';
import { ProgressBar } from '../progress.js';

const HELP = `Usage: stepscope dataset export --db CORPUS -o DIR --kind KIND [--select KEY=VALUE]...
           [--format jsonl|parquet] [--split train=0.9,validation=0.1] [--seed S]
           [--shard-rows N] [--allow-overlap] [--train-splits NAMES] [--license ID] [--force]

Writes a training-ready subset of the corpus into the folder DIR: data/<split>-NNNNN-of-NNNNN
files, a dataset card README.md (Hugging Face YAML header) and stepscope-export.json.
docs/export.md describes every kind's columns and every filter key.

Kinds:
  trajectories   stored trajectories: text, direction, entry, actions, exit
  prompt-target  evaluation-set items and steps of stored trajectories as prompt/target
  corrections    model failures: prompt, chosen (the truth), rejected (the model's text)
  traces         the raw events, one row per event

Filter (--select, repeatable; every clause must hold; lists comma-separated):
  labels-any=…  labels-all=…  labels-none=…   failure label ids (data.wrong_value); a row's
    labels: its adjudicator's, else the union of its annotators' (docs/export.md, Labels)
  annotator=NAME   rows NAME labelled, with NAME's labels alone
  run=LABEL  set=NAME  verdict.FIELD=right|wrong (FIELD: event, src, locals, arg, all,
  exec, alt, correct)  action=KIND  direction=forward|inverse  exit=normal,error,never
  name=GLOB (trace name, e.g. sample_1*)  length=N | N..M | N.. | ..M (actions; traces: events)
  source=items|trajectories (prompt-target)
  sql=CONDITION  a read-only SQL condition over docs/schema.md's tables (aliases in docs/export.md)

Splits are by program (the hash of its source), deterministic for a seed.

Leakage guard: benchmark programs are left out of training splits (names starting with
'train', or --train-splits) and counted on stderr, in the card and the manifest. A program
is a benchmark's when a trace of it was recorded from one (meta.task = cruxeval, or
meta.benchmark), when a CRUXEval evaluation set is over it, or when 'stepscope benchmark add'
marked it; by its source text, so the same function recorded again counts too. An export
where the guard would take more than half of the training splits' programs (all of them:
an empty training split) is refused (exit 1) unless --allow-overlap.

Options:
  --db CORPUS        the corpus file (opened read-only)
  -o, --output DIR   the folder to write (must be empty or absent; --force replaces an earlier export)
  --kind KIND        ${EXPORT_KINDS.join(', ')}
  --format FORMAT    ${EXPORT_FORMATS.join(' or ')} (default jsonl)
  --split SPEC       split names and fractions (default train=1)
  --seed S           the split's seed (default 0)
  --shard-rows N     rows per file (default ${DEFAULT_SHARD_ROWS})
  --allow-overlap    keep benchmark programs in training splits (the card and manifest record them)
  --train-splits NAMES  the training splits, comma-separated (default: those starting with 'train')
  --license ID       the card's license (default other)
  --force            replace an earlier export in DIR`;

export const command: Command = {
  name: 'dataset',
  summary: 'Export curated training data (JSONL or Parquet, with a dataset card)',
  help: HELP,
  options: {
    db: { type: 'string' },
    output: { type: 'string', short: 'o' },
    kind: { type: 'string' },
    select: { type: 'string', multiple: true },
    format: { type: 'string' },
    split: { type: 'string' },
    seed: { type: 'string' },
    'shard-rows': { type: 'string' },
    'allow-overlap': { type: 'boolean' },
    'train-splits': { type: 'string' },
    license: { type: 'string' },
    force: { type: 'boolean' },
  },
  positionals: true,
  async run(values, positionals) {
    if (positionals.length !== 1 || positionals[0] !== 'export')
      throw usage("dataset: expected 'export'. Try 'stepscope dataset --help'.");
    const db = requireString(values, 'db', 'dataset');
    const out = requireString(values, 'output', 'dataset');
    const kind = choiceOption(values, 'kind', 'dataset', EXPORT_KINDS);
    if (!kind) throw usage(`dataset: --kind is required (${EXPORT_KINDS.join(', ')})`);
    const bar = process.stderr.isTTY ? new ProgressBar('export', undefined, (n) => `${n} rows`) : undefined;
    // Ctrl+C: leave nothing half-written (the export yields every few thousand rows, so this runs).
    const interrupted = () => {
      bar?.clear();
      removePartial(out);
      console.error(`dataset export: interrupted; ${out} was not written`);
      process.exit(130);
    };
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    let m;
    try {
      m = await exportDataset(db, out, {
        kind,
        select: (values.select as string[] | undefined) ?? [],
        format: choiceOption(values, 'format', 'dataset', EXPORT_FORMATS, 'jsonl'),
        split: values.split as string | undefined,
        seed: intOption(values, 'seed', 'dataset', 0),
        shardRows: intOption(values, 'shard-rows', 'dataset', DEFAULT_SHARD_ROWS, int(1)),
        allowOverlap: Boolean(values['allow-overlap']),
        trainSplits: splitNames(values['train-splits']),
        force: Boolean(values.force),
        license: values.license as string | undefined,
        onProgress: bar && ((done, total) => bar.update(done, `of ${total}`)),
      });
    } catch (e) {
      if (e instanceof UserError && !(e instanceof CliError))
        throw new CliError(`dataset export: ${e.message}`, 1, e.code);
      throw e;
    } finally {
      bar?.clear();
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
    }
    for (const [name, s] of Object.entries(m.splits))
      console.log(
        `${name}: ${s.rows} rows, ${s.programs} program${s.programs === 1 ? '' : 's'}, ${s.files.length} file${s.files.length === 1 ? '' : 's'}`,
      );
    console.error(guardSummary(m));
    console.log(`${out}: ${m.rows} rows (${m.kind}, ${m.format}), README.md, stepscope-export.json`);
    return 0;
  },
};

const splitNames = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

const n = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;

/** The guard's line on stderr: what it left out (or let through), and of which benchmarks. */
export function guardSummary(m: Manifest): string {
  const named = describeBenchmarks(m.benchmarks);
  const splits = `training split${m.train_splits.length === 1 ? '' : 's'} ${m.train_splits.join(', ')}`;
  if (m.allow_overlap)
    return `leakage guard off (--allow-overlap): ${n(m.overlap_programs, 'benchmark program')} (${n(m.overlap_rows, 'row')}) in ${splits}${named ? `, of ${named}` : ''}`;
  if (!m.excluded_sets.length)
    return "leakage guard: this corpus knows no benchmark programs ('stepscope benchmark add' marks some)";
  if (!m.train_splits.length)
    return `leakage guard: no split is a training split (--train-splits names them), so ${n(m.benchmark_programs, 'benchmark program')} stayed in their splits`;
  return `leakage guard: left out ${n(m.excluded_programs, 'program')} (${n(m.excluded_rows, 'row')}) from ${splits}${named ? ` as programs of ${named}` : ''}`;
}
