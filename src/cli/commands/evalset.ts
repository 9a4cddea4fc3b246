/** `stepscope evalset create|list|export`: evaluation sets (docs/predictions.md). */
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { recordName } from '../../contract/predictions.js';
import { recordId } from '../../contract/traces.js';
import { int } from '../../contract/validate.js';
import { UserError } from '../../common/errors.js';
import {
  createCounterfactualSet,
  createEvalSet,
  DEFAULT_MAX_STEPS,
  DEFAULT_PER_ACTION,
  DEFAULT_PER_TRACE,
  DEFAULT_ROLLOUT_STEPS,
} from '../../predictions/create.js';
import { describeSkips } from '../../predictions/counterfactual-items.js';
import { importEvalSet } from '../../predictions/import-set.js';
import { exportLine, requireSet } from '../../predictions/views.js';
import { DIRECTION_CHOICES, EVAL_TASKS, isCruxevalTask } from '../../semantics/index.js';
import { mixedPythonsWarning } from '../../store/python-versions.js';
import {
  checkedOption,
  choiceOption,
  CliError,
  intOption,
  intOptions,
  requireString,
  usage,
  type Command,
} from '../command.js';
import { table, withCorpus } from '../open-corpus.js';
import { traceIdsOfSplit } from '../export-split.js';
import { traceIdsFromFile } from '../trace-list.js';

const HELP = `Usage: stepscope evalset create --db CORPUS --name NAME --task TASK [--per-action N] [--seed S]
                                [--direction forward|inverse|both] [--trace ID]... [--traces-from FILE]
                                [--from-export DIR --split NAME] [--max-steps K]
       stepscope evalset create --db CORPUS --name NAME --task rollout [--per-trace N] [--max-steps K]
                                [--direction D] [--seed S] [--trace ID]...
       stepscope evalset create --db CORPUS --name NAME --task next-state --prefixes-of ROLLOUT_SET
       stepscope evalset create --db CORPUS --name NAME --task counterfactual [--per-trace N] [--seed S]
                                [--max-steps K] [--trace ID]...
       stepscope evalset list --db CORPUS [--json]
       stepscope evalset export --db CORPUS --name NAME [-o FILE]
       stepscope evalset import FILE --db CORPUS [--name NAME]
       stepscope evalset delete --db CORPUS --name NAME

An evaluation set is a named list of items: a prompt (a trajectory's text up to and
including an action and the <|frame_sep|> after it) and its target (the next state, or
an exit token), as docs/semantics.md §6 defines them. The same corpus and options always
give the same items.

Tasks (docs/predictions.md explains each):
  next-state        for each of the eight action kinds (of the chosen directions), N items
                    cut right after an action of that kind in a trajectory sampled with the
                    paper's policy (--per-action N, default ${DEFAULT_PER_ACTION['next-state']}; --seed S, default 0;
                    --max-steps K caps the sampled trajectories, default ${DEFAULT_MAX_STEPS})
  cruxeval-output   per CRUXEval trace: step_into, step_into, step_return (f's return value)
  cruxeval-output-breakpoint   the same with 'breakpoint <f's return line>' last
  cruxeval-input    per CRUXEval trace: inv_step_call from f's inv_return (f's arguments)
  horizon           per call-mode trace and direction, N items (--per-action, default ${DEFAULT_PER_ACTION.horizon}) whose
                    final jump (step_return, inverse inv_step_call) skips a fraction of the
                    function's states evenly spaced from 1 (the whole function) to 0
  rollout           per trace and direction, N whole trajectories (--per-trace N, default ${DEFAULT_PER_TRACE}) sampled
                    with the paper's policy from a random entry, of at most K actions (--max-steps K,
                    default ${DEFAULT_ROLLOUT_STEPS}; --seed S): the model runs on its own states (stepscope rollouts)
  next-state --prefixes-of ROLLOUT_SET: one item per step of each rollout item (its actions up
                    to that step): the teacher-forced accuracy stepscope rollouts shows beside it
  counterfactual    per trace, N items (--per-trace N, default ${DEFAULT_PER_TRACE}; --seed S; --max-steps K, default
                    ${DEFAULT_MAX_STEPS}): at a state of a sampled forward trajectory one local is changed a little
                    (int +-1, bool flipped, one character of a str, one such element of a list; other types
                    are skipped), the program is recorded again from the edit ('stepscope counterfactual',
                    one recorder run per edit; the new traces stay in the corpus), and the item is the
                    next-state item of the new run at that state. Edits that change nothing after the
                    state and refused edits are skipped and counted; a trace that does not run the same way
                    twice gives no item
CRUXEval sets key items by task id (sample_12); record the traces with record-cruxeval.

export writes one JSON object per line: id, set, task, name (trace name), trace, direction,
entry, actions, action, horizon, prompt, target (rollout sets: id, set, task, name, trace,
direction, entry, actions, prompt up to the first action, targets: the true state after each; counterfactual
sets add origin: {trace, seq, set, first_difference}, the trace edited and the edit). Give each prompt to the model (raw, no chat
template, stop at <|action_sep|> and <|trace_end|>) and import the answers with
'stepscope predictions import'.

import makes again a set that evalset export wrote, on this corpus or another one holding the
same programs (recorded in any order: traces are found by name, not id). Each item is cut again
from this corpus's trace and its prompt and target must equal the file's byte for byte; the first
that does not is named (its id and line in FILE, where and how the texts differ) and nothing is
stored. The set keeps the file's name unless --name is given (a name the corpus already has is
refused). Its items get this corpus's ids: answer them by "prompt", or export the set again here.

delete removes a set with its items, runs and predictions (the traces stay).

Options:
  --db CORPUS        the corpus file
  --name NAME        the set's name (unique in the corpus); import: instead of the file's
  --task TASK        ${EVAL_TASKS.join(', ')}
  --per-trace N      rollout: items per trace and direction
  --prefixes-of SET  next-state: one item per step of each item of the rollout set SET
  --trace ID         only this trace; repeat for several (default: every trace)
  --traces-from FILE only the traces listed in FILE, one trace id or trace name a line (blank
                     lines and # comments skipped; with --trace, both lists)
  --from-export DIR  with --split NAME: only the traces of the programs of that split of an
                     earlier dataset export (its stepscope-export.json), matched by program
                     source, so the export may come from another corpus with the same programs
  --json             list: one JSON object per line
  -o, --output FILE  export: write here instead of standard output (replaced only when complete)`;

export const command: Command = {
  name: 'evalset',
  summary: 'Make, list, export, import and delete evaluation sets (prompts and targets for a model)',
  help: HELP,
  options: {
    db: { type: 'string' },
    name: { type: 'string' },
    task: { type: 'string' },
    'per-action': { type: 'string' },
    seed: { type: 'string' },
    direction: { type: 'string' },
    trace: { type: 'string', multiple: true },
    'traces-from': { type: 'string' },
    'from-export': { type: 'string' },
    split: { type: 'string' },
    'max-steps': { type: 'string' },
    'per-trace': { type: 'string' },
    'prefixes-of': { type: 'string' },
    json: { type: 'boolean' },
    output: { type: 'string', short: 'o' },
  },
  positionals: true,
  run(values, positionals) {
    const [sub, ...rest] = positionals;
    if (sub === 'import') {
      if (rest.length !== 1) throw usage("evalset import: expected one FILE. Try 'stepscope evalset --help'.");
      return importSet(values, rest[0]);
    }
    if (rest.length || !['create', 'list', 'export', 'delete'].includes(sub ?? '')) {
      throw usage(
        "evalset: expected 'create', 'list', 'export', 'import' or 'delete'. Try 'stepscope evalset --help'.",
      );
    }
    if (sub === 'create') return create(values);
    if (sub === 'list') return list(values);
    if (sub === 'delete') return remove(values);
    return exportSet(values);
  },
};

function create(values: Record<string, unknown>): Promise<number> {
  const name = checkedOption(values, 'name', 'evalset', recordName) ?? requireString(values, 'name', 'evalset');
  const task = choiceOption(values, 'task', 'evalset', EVAL_TASKS);
  if (!task) throw usage(`evalset: --task is required (${EVAL_TASKS.join(', ')})`);
  const given = (k: string) => values[k] !== undefined;
  for (const k of ['per-action', 'seed', 'direction', 'max-steps', 'per-trace', 'prefixes-of']) {
    const fits =
      task === 'next-state'
        ? k !== 'per-trace'
        : task === 'horizon'
          ? k === 'per-action' || k === 'direction'
          : task === 'counterfactual'
            ? k === 'per-trace' || k === 'seed' || k === 'max-steps'
            : task === 'rollout' && k !== 'per-action' && k !== 'prefixes-of';
    if (given(k) && !fits) throw usage(`evalset: --${k} does not apply to --task ${task}`);
  }
  if (given('prefixes-of'))
    for (const k of ['per-action', 'seed', 'direction', 'max-steps'])
      if (given(k))
        throw usage(`evalset: --${k} does not apply with --prefixes-of (the rollout set's actions are used)`);
  const opt = (k: string, min: number) => (given(k) ? intOption(values, k, 'evalset', undefined, int(min)) : undefined);
  const traceIds = intOptions(values, 'trace', 'evalset', recordId);
  return withCorpus(values, 'evalset', {}, async (corpus) => {
    const listed =
      typeof values['traces-from'] === 'string' ? traceIdsFromFile(corpus, values['traces-from'], 'evalset') : [];
    const fromExport = values['from-export'];
    if ((typeof fromExport === 'string') !== (typeof values.split === 'string'))
      throw usage('evalset: --from-export DIR and --split NAME go together');
    const ofSplit =
      typeof fromExport === 'string' ? traceIdsOfSplit(corpus, fromExport, values.split as string, 'evalset') : [];
    const chosen = [...new Set([...traceIds, ...listed, ...ofSplit])];
    const started = performance.now();
    if (task === 'counterfactual') {
      let c;
      try {
        c = await createCounterfactualSet(corpus, {
          name,
          task,
          perTrace: opt('per-trace', 1),
          seed: given('seed') ? intOption(values, 'seed', 'evalset') : undefined,
          maxSteps: opt('max-steps', 1),
          traceIds: chosen.length ? chosen : undefined,
        });
      } catch (e) {
        if (e instanceof UserError) throw new CliError(`evalset: ${e.message}`, 1, e.code);
        throw e;
      }
      const s = ((performance.now() - started) / 1000).toFixed(1);
      const per = c.recorded ? ` (${Math.round(c.recordMs / c.recorded)} ms each)` : '';
      console.log(
        `evaluation set ${JSON.stringify(c.set.name)} (counterfactual): ${c.set.items} items in ${s}s; ` +
          `${c.recorded} counterfactual runs recorded${per}; ${c.differing} targets differ from the origin's`,
      );
      for (const l of describeSkips(c)) console.log(`  ${l}`);
      if (c.short.length)
        console.error(`  ${c.short.length} trace(s) gave fewer items than asked, e.g. trace ${c.short[0].trace}`);
      return 0;
    }
    let r;
    try {
      r = createEvalSet(corpus, {
        name,
        task,
        perAction: opt('per-action', 1),
        seed: given('seed') ? intOption(values, 'seed', 'evalset') : undefined,
        direction: choiceOption(values, 'direction', 'evalset', DIRECTION_CHOICES),
        maxSteps: opt('max-steps', 1),
        perTrace: opt('per-trace', 1),
        prefixesOf: checkedOption(values, 'prefixes-of', 'evalset', recordName),
        traceIds: chosen.length ? chosen : undefined,
      });
    } catch (e) {
      if (e instanceof UserError) throw new CliError(`evalset: ${e.message}`, 1, e.code);
      throw e;
    }
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`evaluation set ${JSON.stringify(r.set.name)} (${task}): ${r.set.items} items in ${s}s`);
    for (const x of r.short)
      console.error(`  ${x.action}: ${x.made} items, fewer than asked (no more trajectories with this action)`);
    if (r.skipped.length) {
      console.error(
        `  ${r.skipped.length} trace${r.skipped.length === 1 ? '' : 's'} gave no item, e.g. ${r.skipped[0].name} (trace ${r.skipped[0].trace}): ${r.skipped[0].reason}`,
      );
    }
    const mixed = mixedPythonsWarning(corpus, { evalSet: r.set.id });
    if (mixed) console.error(`  warning: the set ${mixed}`);
    if (isCruxevalTask(task))
      console.log(`items are keyed by task id; export them with: stepscope evalset export --db … --name ${name}`);
    return 0;
  });
}

function importSet(values: Record<string, unknown>, file: string): Promise<number> {
  const name = checkedOption(values, 'name', 'evalset', recordName);
  return withCorpus(values, 'evalset', {}, (corpus) => {
    let r;
    try {
      r = importEvalSet(corpus, file, name);
    } catch (e) {
      if (e instanceof UserError) throw new CliError(`evalset import: ${e.message}`, 1, e.code);
      throw e;
    }
    const as = r.set.name === r.from ? '' : ` (${JSON.stringify(r.from)} in the file)`;
    console.log(
      `evaluation set ${JSON.stringify(r.set.name)}${as} (${r.set.task}): ${r.set.items} items over ${r.traces} ` +
        `traces imported from ${file}, every prompt and target the same as this corpus makes them`,
    );
    return 0;
  });
}

function list(values: Record<string, unknown>): Promise<number> {
  return withCorpus(values, 'evalset', { readonly: true }, (corpus) => {
    const runs = corpus.listRuns();
    const sets = corpus
      .listEvalSets()
      .map((s) => ({ ...s, runs: runs.filter((r) => r.setId === s.id).map((r) => r.label) }));
    if (values.json) {
      process.stdout.write(
        sets
          .map(
            (s) =>
              JSON.stringify({
                id: s.id,
                name: s.name,
                task: s.task,
                items: s.items,
                runs: s.runs,
                options: s.options,
                created: s.created,
              }) + '\n',
          )
          .join(''),
      );
      return 0;
    }
    if (sets.length)
      console.log(
        table(
          ['name', 'task', 'items', 'runs', 'options', 'created'],
          sets.map((s) => [s.name, s.task, s.items, s.runs.join(', '), JSON.stringify(s.options), s.created]),
        ),
      );
    console.log(`${sets.length} evaluation set${sets.length === 1 ? '' : 's'}`);
    return 0;
  });
}

function remove(values: Record<string, unknown>): Promise<number> {
  const name = checkedOption(values, 'name', 'evalset', recordName) ?? requireString(values, 'name', 'evalset');
  return withCorpus(values, 'evalset', {}, (corpus) => {
    const set = requireSet(corpus, name);
    const runs = corpus.listRuns(set.id);
    corpus.deleteEvalSet(set.id);
    const preds = runs.reduce((n, r) => n + r.predictions, 0);
    console.log(
      `deleted the evaluation set ${JSON.stringify(name)}: ${set.items} items, ${runs.length} runs, ${preds} predictions`,
    );
    return 0;
  });
}

function exportSet(values: Record<string, unknown>): Promise<number> {
  const name = checkedOption(values, 'name', 'evalset', recordName) ?? requireString(values, 'name', 'evalset');
  const output = values.output as string | undefined;
  return withCorpus(values, 'evalset', { readonly: true }, async (corpus) => {
    const set = requireSet(corpus, name);
    const mixed = mixedPythonsWarning(corpus, { evalSet: set.id });
    if (mixed) console.error(`evalset: warning: ${set.name} ${mixed}`);
    const tmp = output && `${output}.partial-${process.pid}`;
    let out: Writable = process.stdout;
    if (tmp) {
      out = createWriteStream(tmp);
      await Promise.race([
        once(out, 'open'),
        once(out, 'error').then(([e]) =>
          Promise.reject(new CliError(`evalset: cannot write ${output}: ${(e as Error).message}`)),
        ),
      ]);
    }
    try {
      let n = 0;
      for (const it of corpus.iterateItems(set.id)) {
        const steps = set.task === 'rollout' ? corpus.rolloutTargets([it.id]).get(it.id) : undefined;
        const origin = set.task === 'counterfactual' ? corpus.counterfactualOf(it.traceId) : undefined;
        if (!out.write(JSON.stringify(exportLine(set, it, steps, origin)) + '\n')) await once(out, 'drain');
        n++;
      }
      if (tmp) {
        out.end();
        await once(out, 'finish');
        renameSync(tmp, output!);
        console.error(`${output}: ${n} items of ${set.name}`);
      }
    } catch (e) {
      if (tmp) {
        out.destroy();
        rmSync(tmp, { force: true });
      }
      throw e;
    }
    return 0;
  });
}
