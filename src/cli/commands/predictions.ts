/** `stepscope predictions [import]`: bring a model's completions in, and list them with their verdicts. */
import { recordName } from '../../contract/predictions.js';
import { int } from '../../contract/validate.js';
import { UserError } from '../../common/errors.js';
import { importPredictions } from '../../predictions/import.js';
import { requireSet, runsOf } from '../../predictions/views.js';
import type { PredictionRecord } from '../../store/corpus.js';
import { checkedOption, CliError, intOption, requireString, usage, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';
import { runChecks } from '../run-checks.js';

const HELP = `Usage: stepscope predictions import FILE --db CORPUS --set NAME --model LABEL [--params JSON] [--replace]
       stepscope predictions --db CORPUS --set NAME [--model LABEL] [--failed] [--json] [--limit N]

import reads a model's completions for the items of a set and stores them as one run,
labelled LABEL, with every verdict (docs/predictions.md). FILE is one of:
  - JSON Lines: {"id": ITEM, "completion": TEXT} or {"id": ITEM, "completions": [TEXT, ...]}
    (k draws); ITEM is the item id from 'evalset export' (or the task id on CRUXEval sets);
  - CRUXEval's generations.json ({"sample_0": [TEXT, ...], ...}) or a released scored file
    (its raw_generations; its verdicts and pass@k are ignored), for CRUXEval sets only.
The whole file is checked first: a problem is reported as FILE:LINE and nothing is stored.
Importing the same file again stores nothing; another file under a label that exists is
refused unless --replace (the run's earlier predictions are then deleted).
CRUXEval sets and the arguments of calls are also checked by running them (Python, under
PYTHONHASHSEED=0); that runs right after the import, and again where it left off if stopped.

Without import: the predictions of a set, one line each (id, item, model, draw: the model's
answer 1, 2 ... of the item, verdicts, completion). Verdict columns: ev src loc arg all (exact match), exec (execution), alt
(valid alternative): + right, - wrong, . not applicable, ? not checked yet.

Options:
  --db CORPUS      the corpus file
  --set NAME       the evaluation set
  --model LABEL    import: the run's label (e.g. codellama-7b-t0.2); list: only this run
  --params JSON    import: a JSON object kept with the run (temperature, checkpoint ...)
  --replace        import: replace the run labelled LABEL
  --failed         list: only wrong predictions (format errors included)
  --limit N        list: at most N predictions
  --json           list: one JSON object per line: id, item, key, model, sample (the draw, from 0), completion,
                   format_error, parse_error, em_event, em_src, em_locals, em_arg, em_all,
                   exec_status, exec_pass, alt_status, valid_alternative, correct`;

export const command: Command = {
  name: 'predictions',
  summary: "Import a model's predictions for an evaluation set, or list them with their verdicts",
  help: HELP,
  options: {
    db: { type: 'string' },
    set: { type: 'string' },
    model: { type: 'string' },
    params: { type: 'string' },
    replace: { type: 'boolean' },
    failed: { type: 'boolean' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: true,
  run(values, positionals) {
    const set = checkedOption(values, 'set', 'predictions', recordName) ?? requireString(values, 'set', 'predictions');
    const label = checkedOption(values, 'model', 'predictions', recordName);
    if (positionals[0] === 'import') {
      if (positionals.length !== 2)
        throw usage("predictions import: expected one FILE. Try 'stepscope predictions --help'.");
      if (label === undefined) throw usage("predictions import: --model LABEL is required (the run's label)");
      return importFile(values, positionals[1], set, label);
    }
    if (positionals.length)
      throw usage(`predictions: unknown subcommand '${positionals[0]}' (expected import, or none to list)`);
    return list(values, set, label);
  },
};

function paramsOption(values: Record<string, unknown>): Record<string, unknown> | undefined {
  if (values.params === undefined) return undefined;
  let p: unknown;
  try {
    p = JSON.parse(values.params as string);
  } catch (e) {
    throw usage(`predictions import: --params expects a JSON object, got '${values.params}' (${(e as Error).message})`);
  }
  if (typeof p !== 'object' || p === null || Array.isArray(p))
    throw usage(`predictions import: --params expects a JSON object, got '${values.params}'`);
  return p as Record<string, unknown>;
}

function importFile(values: Record<string, unknown>, file: string, set: string, label: string): Promise<number> {
  const params = paramsOption(values);
  return withCorpus(values, 'predictions', {}, async (corpus) => {
    let r;
    try {
      r = importPredictions(corpus, { file, set, label, params, replace: values.replace === true });
    } catch (e) {
      if (e instanceof UserError) throw new CliError(`predictions import: ${e.message}`, 1, e.code);
      throw e;
    }
    const what = {
      stored: 'stored',
      replaced: 'stored (replacing the earlier run)',
      unchanged: 'already imported: nothing new stored',
    }[r.outcome];
    console.log(
      `${file}: run ${JSON.stringify(label)} of ${set}: ${r.run.predictions} predictions for ${r.run.items} items ${what}`,
    );
    return runChecks(corpus, r.run.id);
  });
}

const mark = (v: boolean | null | undefined) => (v === null || v === undefined ? '.' : v ? '+' : '-');
const statusMark = (s: string | null | undefined) =>
  s === null || s === undefined ? '.' : s === 'pending' ? '?' : s === 'pass' ? '+' : '-';

function jsonLine(p: PredictionRecord) {
  const passed = (s: { status: string } | null) => (s === null || s.status === 'pending' ? null : s.status === 'pass');
  return {
    id: p.id,
    item: p.itemId,
    key: p.itemKey,
    model: p.model,
    sample: p.sample,
    completion: p.completion,
    format_error: p.formatError,
    parse_error: p.parseError?.message ?? null,
    em_event: p.em.event,
    em_src: p.em.src,
    em_locals: p.em.locals,
    em_arg: p.em.arg,
    em_all: p.em.all,
    exec_status: p.exec?.status ?? null,
    exec_pass: passed(p.exec),
    alt_status: p.alt?.status ?? null,
    valid_alternative: passed(p.alt),
    correct: p.correct,
  };
}

function list(values: Record<string, unknown>, setName: string, label: string | undefined): Promise<number> {
  const limit = values.limit === undefined ? undefined : intOption(values, 'limit', 'predictions', undefined, int(1));
  return withCorpus(values, 'predictions', { readonly: true }, (corpus) => {
    const set = requireSet(corpus, setName);
    const runs = runsOf(corpus, set, label);
    const q = {
      setId: set.id,
      runId: label === undefined ? undefined : runs[0].id,
      failed: values.failed === true,
      limit,
    };
    const rows: (string | number)[][] = [];
    let out = '';
    for (const p of corpus.iteratePredictions(q)) {
      if (values.json) {
        out += JSON.stringify(jsonLine(p)) + '\n';
        if (out.length > 1 << 16) {
          process.stdout.write(out);
          out = '';
        }
        continue;
      }
      const e = p.em;
      const text = JSON.stringify(p.completion);
      rows.push([
        p.id,
        p.itemKey,
        p.model,
        p.sample + 1, // a draw's number from 1; --json keeps the field `sample`, from 0
        mark(e.event),
        mark(e.src),
        mark(e.locals),
        mark(e.arg),
        mark(e.all),
        statusMark(p.exec?.status),
        statusMark(p.alt?.status),
        text.length > 70 ? text.slice(0, 67) + '...' : text,
      ]);
    }
    process.stdout.write(out);
    if (!values.json) {
      if (rows.length)
        console.log(
          table(['id', 'item', 'model', 'draw', 'ev', 'src', 'loc', 'arg', 'all', 'exec', 'alt', 'completion'], rows),
        );
      console.log(`${rows.length} prediction${rows.length === 1 ? '' : 's'}${values.failed ? ' wrong' : ''}`);
    }
    return 0;
  });
}
