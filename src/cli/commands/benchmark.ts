/**
 * `stepscope benchmark`: the programs the leakage guard keeps out of training splits
 * (docs/export.md, "The leakage guard"). `list` shows every benchmark the corpus knows (traces
 * recorded from one, CRUXEval evaluation sets, marks); `add` and `remove` change the marks,
 * stored by the sha256 of each program's source (the export's `program`).
 */
import { readFileSync } from 'node:fs';
import { recordId } from '../../contract/traces.js';
import { knownBenchmarks, ORIGIN_WORDS, sourceHash, type BenchmarkInfo } from '../../export/benchmarks.js';
import type { ReadCorpus } from '../../store/corpus.js';
import { CliError, intOptions, requireString, usage, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';
import { traceIdsFromFile } from '../trace-list.js';

const HELP = `Usage: stepscope benchmark list --db CORPUS [--json]
       stepscope benchmark add --db CORPUS --name NAME PROGRAMS
       stepscope benchmark remove --db CORPUS --name NAME [PROGRAMS]

A benchmark's programs are left out of training splits by 'stepscope dataset export' and
the app's Export (unless --allow-overlap). The corpus knows some by itself: the programs of
traces recorded from a benchmark (meta.task = cruxeval, as record-cruxeval writes, or
meta.benchmark = NAME) and of CRUXEval evaluation sets. 'add' marks more, 'remove' unmarks
them (all of NAME's without PROGRAMS). A program is its source text: marking one trace marks
every recording of the same function.

PROGRAMS, one or more of:
  --trace ID          a trace's program; repeat for several
  --traces-from FILE  the programs of the traces in FILE, one trace id or name a line
  --programs FILE     JSON Lines, one program a line: {"program": SHA256} (the export's
                      program column, so a split's data file works as is), or
                      {"source": TEXT} / {"code": TEXT} (the program's text, as in cruxeval.jsonl)
  --set NAME          the programs of an evaluation set's items, as they are now

Options:
  --db CORPUS   the corpus file
  --name NAME   the benchmark (free text, e.g. humaneval-heldout)
  --json        list: one JSON object a line (name, from, programs, in_corpus)`;

export const command: Command = {
  name: 'benchmark',
  summary: 'List, mark and unmark benchmark programs (kept out of training splits)',
  help: HELP,
  options: {
    db: { type: 'string' },
    name: { type: 'string' },
    trace: { type: 'string', multiple: true },
    'traces-from': { type: 'string' },
    programs: { type: 'string' },
    set: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: true,
  async run(values, positionals) {
    const sub = positionals[0];
    if (positionals.length !== 1 || !['list', 'add', 'remove'].includes(sub))
      throw usage("benchmark: expected 'list', 'add' or 'remove'. Try 'stepscope benchmark --help'.");
    if (sub === 'list')
      return withCorpus(values, 'benchmark', { readonly: true }, (c) => list(c, Boolean(values.json)));
    const name = benchmarkName(requireString(values, 'name', 'benchmark'));
    const chosen = ['trace', 'traces-from', 'programs', 'set'].some((k) => values[k] !== undefined);
    if (sub === 'add' && !chosen)
      throw usage('benchmark add: name the programs with --trace, --traces-from, --programs or --set');
    return withCorpus(values, 'benchmark', {}, (corpus) => {
      const hashes = chosen ? programsOf(corpus, values, `benchmark ${sub}`) : undefined;
      if (sub === 'add') {
        const added = corpus.markPrograms(name, hashes!);
        const known = hashes!.length - added;
        console.log(
          `benchmark ${name}: marked ${count(added, 'program')}${known ? ` (${count(known, 'program')} already marked)` : ''}; exports leave them out of training splits`,
        );
        return 0;
      }
      const removed = corpus.unmarkPrograms(name, hashes);
      if (!removed && !hashes) {
        const other = knownBenchmarks(corpus).benchmarks.find((b) => b.name === name && b.from !== 'marked');
        throw new CliError(
          other
            ? `benchmark remove: ${name} is not marked: its programs are known from ${other.from === 'traces' ? "its traces' meta" : 'its CRUXEval evaluation set'}, which 'remove' cannot change (dataset export --allow-overlap exports them anyway)`
            : `benchmark remove: no programs are marked as ${name} ('stepscope benchmark list' shows the marks)`,
          1,
          'not-found',
        );
      }
      console.log(`benchmark ${name}: unmarked ${count(removed, 'program')}`);
      return 0;
    });
  },
};

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function benchmarkName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (name.length > 200 || /[\u0000-\u001f\u007f]/.test(name) || !name.trim())
    throw usage(
      `benchmark: --name expects a name of 1 to 200 characters without control characters, got ${JSON.stringify(name)}`,
    );
  return name;
}

function list(corpus: ReadCorpus, json: boolean): number {
  const all = knownBenchmarks(corpus, () => true);
  const recorded = new Set(all.hashOf.values());
  // How many of a benchmark's programs have a recording in this corpus (a mark may name others).
  const inCorpus = (b: BenchmarkInfo, k: number) =>
    b.from !== 'marked' ? b.programs : [...all.byHash].filter(([h, ks]) => ks.includes(k) && recorded.has(h)).length;
  const rows = all.benchmarks.map((b, k) => ({ ...b, in_corpus: inCorpus(b, k) }));
  if (json) {
    for (const r of rows) console.log(JSON.stringify(r));
    return 0;
  }
  if (!rows.length) {
    console.log(
      "no benchmark programs in this corpus: no trace recorded from a benchmark, no CRUXEval set, no marks ('benchmark add')",
    );
    return 0;
  }
  console.log(
    table(
      ['benchmark', 'from', 'programs', 'in corpus'],
      rows.map((r) => [r.name, ORIGIN_WORDS[r.from], r.programs, r.in_corpus]),
    ),
  );
  const total = new Set(all.byHash.keys()).size;
  console.log(`${count(total, 'distinct program')} in all; exports leave them out of training splits`);
  return 0;
}

/** The source hashes of the programs the options name, each once, in the order given. */
function programsOf(corpus: ReadCorpus, values: Record<string, unknown>, who: string): string[] {
  const ids = intOptions(values, 'trace', who, recordId);
  if (typeof values['traces-from'] === 'string') ids.push(...traceIdsFromFile(corpus, values['traces-from'], who));
  const out = new Set<string>();
  for (const id of ids) {
    const t = corpus.getTrace(id);
    if (!t) throw new CliError(`${who}: no trace with id ${id} in ${corpus.path}`, 1, 'not-found');
    out.add(sourceHash(t.source));
  }
  if (typeof values.set === 'string') {
    const set = corpus.getEvalSet(values.set);
    if (!set)
      throw new CliError(`${who}: no evaluation set named ${values.set} ('stepscope evalset list')`, 1, 'not-found');
    const traces = new Set<number>();
    for (const it of corpus.iterateItems(set.id)) traces.add(it.traceId);
    for (const id of traces) out.add(sourceHash(corpus.getTrace(id)!.source));
  }
  if (typeof values.programs === 'string') for (const h of programsFile(values.programs, who)) out.add(h);
  return [...out];
}

function programsFile(file: string, who: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`${who}: cannot read --programs ${file}: ${(e as Error).message}`, 1, 'not-found');
  }
  const out: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/^\uFEFF/, '').trim();
    if (!line) return;
    const bad = () =>
      new CliError(
        `${who}: ${file}:${i + 1}: expected a JSON object with "program" (a sha256 in hex), "source" or "code" (the program's text)`,
      );
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      throw bad();
    }
    if (typeof r !== 'object' || r === null) throw bad();
    const o = r as Record<string, unknown>;
    if (typeof o.program === 'string' && /^[0-9a-f]{64}$/.test(o.program)) out.push(o.program);
    else if (typeof o.source === 'string') out.push(sourceHash(o.source));
    else if (typeof o.code === 'string') out.push(sourceHash(o.code));
    else throw bad();
  });
  if (!out.length) throw new CliError(`${who}: ${file}: expected programs, one JSON object a line; it has none`);
  return out;
}
