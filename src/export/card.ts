/**
 * The dataset card, README.md: the Hugging Face YAML header (configs with data_files per
 * split, dataset_info features and splits, license, task categories, size category) and a
 * body saying what the rows are, how they were selected, the counts, and how to load them.
 * YAML strings are written as JSON strings, which YAML reads as double-quoted scalars.
 */
import { ORIGIN_WORDS } from './benchmarks.js';
import type { Column } from './columns.js';
import type { Manifest } from './manifest.js';

const q = JSON.stringify;
const duck = (glob: string, format: string) => (format === 'jsonl' ? `read_json_auto('${glob}')` : `'${glob}'`);

const WHAT: Record<string, string> = {
  trajectories:
    "one stored trajectory per row: its full serialized text in the paper's format (`text`), with the direction, entry, actions and exit it was walked with, and `target_spans`: the `[start, end]` of each state a model must predict in `text`, in code points (Python: `text[start:end]`), to mask the loss to the targets",
  'prompt-target':
    'one prompt and its target per row: evaluation-set items (`source` = `item`) and steps of stored trajectories (`source` = `trajectory`); the prompt ends with `<|frame_sep|>`, the target is the state (or exit token) that follows',
  corrections:
    "one model failure per row: the `prompt`, the true target (`chosen`), the model's wrong completion (`rejected`), the fields it got wrong (`wrong`) and the model's label (`model`); a rollout gives one row per wrong or labelled step (`step`), its prompt holding the model's own earlier states; ready for supervised fine-tuning on `chosen` or preference training (DPO) on `chosen`/`rejected`",
  traces:
    'one recorded event per row (`seq`, `event`, `frame`, `func`, `line`, `src`, `locals` as JSON text, `arg`, `parent`), for building other formats',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const code = (names: string[]) => names.map((n) => `\`${n}\``).join(', ');

/** The leakage guard's sentence: what it left out (or let through), and of which benchmarks. */
export function guardLine(m: Manifest): string {
  const named = m.benchmarks.map((b) => `\`${b.name}\` (${ORIGIN_WORDS[b.from]})`).join(', ');
  const splits = `training split${m.train_splits.length === 1 ? '' : 's'} ${code(m.train_splits)}`;
  if (m.allow_overlap)
    return `The leakage guard was turned off (\`--allow-overlap\`): ${plural(m.overlap_programs, 'program')} (${plural(m.overlap_rows, 'row')}) of benchmarks ${named || '(none)'} are in the ${splits || 'training splits (none)'}.`;
  if (!m.excluded_sets.length)
    return 'Leakage guard: no program of this corpus is known to belong to a benchmark (none of its traces was recorded from one, it has no CRUXEval evaluation set, and none was marked with `stepscope benchmark add`), so none was left out.';
  if (!m.train_splits.length)
    return `Leakage guard: no split is a training split (a name starting with \`train\`, or \`--train-splits\`), so the ${plural(m.benchmark_programs, 'benchmark program')} stayed in the splits they fell in.`;
  if (!m.benchmarks.length)
    return `Leakage guard: none of these rows' programs belongs to the corpus's benchmarks ${code(m.excluded_sets)}, so none was left out.`;
  return `Leakage guard: ${plural(m.excluded_programs, 'program')} (${plural(m.excluded_rows, 'row')}) of benchmarks ${named} were left out of the ${splits}.`;
}

/** Hugging Face's size_categories bucket for a row count. */
export function sizeCategory(n: number): string {
  const b = ['n<1K', '1K<n<10K', '10K<n<100K', '100K<n<1M', '1M<n<10M', '10M<n<100M', '100M<n<1B'];
  let k = 0;
  for (let limit = 1000; n >= limit && k < b.length - 1; limit *= 10) k++;
  return b[k];
}

function feature(c: Column): string[] {
  if (c.type === 'strings') return [`  - name: ${c.name}`, '    sequence: string'];
  if (c.type === 'spans') return [`  - name: ${c.name}`, '    sequence:', '      sequence: int32'];
  return [`  - name: ${c.name}`, `    dtype: ${c.type === 'int' ? 'int32' : 'string'}`];
}

export function datasetCard(m: Manifest, columns: Column[], license: string): string {
  const splits = Object.entries(m.splits).filter(([, s]) => s.rows > 0);
  const pattern = m.format;
  const yaml = [
    '---',
    `license: ${q(license)}`,
    'task_categories:',
    '- text-generation',
    'tags:',
    '- stepscope',
    '- neural-debugger',
    '- execution-traces',
    'size_categories:',
    `- ${sizeCategory(m.rows)}`,
    'configs:',
    '- config_name: default',
    '  data_files:',
    ...splits.flatMap(([name]) => [`  - split: ${q(name)}`, `    path: ${q(`data/${name}-*.${pattern}`)}`]),
    'dataset_info:',
    '  features:',
    ...columns.flatMap(feature),
    '  splits:',
    ...splits.flatMap(([name, s]) => [`  - name: ${q(name)}`, `    num_examples: ${s.rows}`]),
    '---',
  ];
  const labelNames = [...new Set(Object.values(m.splits).flatMap((s) => Object.keys(s.labels)))].sort();
  const body = [
    '',
    `# Stepscope export: ${m.kind}`,
    '',
    `Rows: ${WHAT[m.kind]}. Every row also names its trace (\`name\`, \`trace\`), its program (\`program\`: the sha256 of the program's source text) and its failure labels (\`labels\`, empty when none).`,
    '',
    '## How the rows were selected',
    '',
    m.filter.length ? m.filter.map((c) => `- \`${c}\``).join('\n') : 'Every row of the corpus (no filter).',
    '',
    `Corpus \`${m.corpus.file}\` (sha256 \`${m.corpus.sha256}\`, schema ${m.corpus.schema_version}), exported by Stepscope ${m.stepscope_version} on ${m.created}.`,
    `Splits are by program, never by row: each program (its source's hash) goes to one split, chosen by seed ${m.seed} (\`--split ${m.split}\`).`,
    guardLine(m),
    '',
    '## Counts',
    '',
    `| split | rows | programs | files |${labelNames.map((l) => ` ${l} |`).join('')}`,
    `| --- | ---: | ---: | ---: |${labelNames.map(() => ' ---: |').join('')}`,
    ...Object.entries(m.splits).map(
      ([name, s]) =>
        `| ${name} | ${s.rows} | ${s.programs} | ${s.files.length} |${labelNames.map((l) => ` ${s.labels[l] ?? 0} |`).join('')}`,
    ),
    '',
    labelNames.length ? 'Label columns count the rows carrying each label.' : 'No row carries a label.',
    '',
    ...counterfactualNote(m),
    '## Loading',
    '',
    '```python',
    'from datasets import load_dataset',
    `ds = load_dataset("${m.format === 'jsonl' ? 'json' : 'parquet'}", data_files={${splits.map(([n]) => `"${n}": "data/${n}-*.${pattern}"`).join(', ')}})`,
    '```',
    '',
    splits.length
      ? `or, from this folder, \`load_dataset(".")\`; with DuckDB: \`SELECT * FROM ${duck(`data/${splits[0][0]}-*.${pattern}`, m.format)}\`.`
      : '',
    '',
    `\`stepscope-export.json\` records the same counts, the filter, the seed and the corpus's hash.`,
    '',
  ];
  return yaml.join('\n') + '\n' + body.join('\n');
}

/**
 * Counterfactual traces (recorded with a value edited, docs/semantics.md §13) are rows like any other; the card says
 * which they are, so a trainer can keep them apart from plain recordings or use them as augmentation.
 */
function counterfactualNote(m: Manifest): string[] {
  const cf = m.counterfactuals ?? [];
  if (!cf.length) return [];
  const ids = cf.map((c) => c.trace);
  const shown = ids.length > 20 ? `${ids.slice(0, 20).join(', ')}, …` : ids.join(', ');
  return [
    '## Counterfactual traces',
    '',
    `${cf.length} of the exported traces are counterfactuals: recorded again from another trace with a local's ` +
      `value changed at one event (Stepscope's \`counterfactual\`, \`evalset create --task counterfactual\`). ` +
      `Their rows have \`trace\` in: ${shown}. \`stepscope-export.json\` (\`counterfactuals\`) gives each one's ` +
      "origin trace, edited event and new values. A counterfactual runs its origin's program, so both are in " +
      'the same split.',
    '',
  ];
}
