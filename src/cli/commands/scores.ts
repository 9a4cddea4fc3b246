/** `stepscope scores`: a run's scores (exact match per field, execution, pass@k), whole or broken down. */
import { recordName } from '../../contract/predictions.js';
import { pass1Interval, scoreGroups } from '../../predictions/scores.js';
import { answeredText, requireSet, runsOf } from '../../predictions/views.js';
import { SCORE_BY, type ScoreLine } from '../../semantics/index.js';
import { int } from '../../contract/validate.js';
import { seedCheck } from '../../predictions/execute.js';
import { checkedOption, choiceOption, intOption, requireString, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'scores',
  summary: "Score a model's predictions: exact match per field, execution, pass@k",
  help: `Usage: stepscope scores --db CORPUS --set NAME [--model LABEL] [--by action|direction|horizon|field|length|depth] [--json]
       stepscope scores --db CORPUS --set NAME [--model LABEL] --seed-check S

Scores of each run of the set (or of the run labelled LABEL), computed from the verdicts
stored with its predictions (docs/predictions.md, "Metrics"). Percentages:
  em_event, em_src, em_locals, em_arg   exact match of one field, over the draws whose
                                        target has the field; em_all: every field
  exec_pass    passing its execution check (CRUXEval's on CRUXEval sets; the valid-alternative
               check on predicted arguments of calls elsewhere)
  pass@k       the unbiased estimator over each item's draws, averaged over items; correct
               by execution on CRUXEval sets, by em_all elsewhere; null where k > draws
A draw is one of the model's answers to an item (predict --samples K makes K; --json's field
"samples" counts them).
format_errors counts completions that could not be read (wrong on every field).
The table shows a 95% bootstrap interval for pass@1 (seeded: the same run, the same interval).

Options:
  --db CORPUS     the corpus file
  --set NAME      the evaluation set
  --model LABEL   only this run (default: every run of the set)
  --by KEY        also one line per action kind, direction, horizon (the fraction the jump
                  skips), field (event, src, locals, arg, all; pass@k on that field),
                  length (the trace's events, in power-of-two bins named by their lower
                  end: 8 is 8-15) or depth (calls between the trace's first frame and the
                  target state; "exit" for an exit token)
  --json          one JSON object per line: set, model, by, group (null for the whole set),
                  items, samples, format_errors, em_event, em_src, em_locals, em_arg, em_all,
                  exec_pass, pass@1, pass@5, pass@10, set_items (the set's items) and answered
                  (the items the run has a prediction for; fewer than set_items: a partial
                  run, scored over the answered items only, and said so on stderr)
  --seed-check S  run the execution checks again under PYTHONHASHSEED=S (nothing is stored)
                  and list every verdict that changes (programs iterating over sets or
                  dicts of strings can pass under one seed only); scores use the stored ones`,
  options: {
    db: { type: 'string' },
    set: { type: 'string' },
    model: { type: 'string' },
    by: { type: 'string' },
    json: { type: 'boolean' },
    'seed-check': { type: 'string' },
  },
  run(values) {
    const setName = checkedOption(values, 'set', 'scores', recordName) ?? requireString(values, 'set', 'scores');
    const label = checkedOption(values, 'model', 'scores', recordName);
    const by = choiceOption(values, 'by', 'scores', SCORE_BY);
    const seed =
      values['seed-check'] === undefined
        ? undefined
        : intOption(values, 'seed-check', 'scores', undefined, int(0, 4294967295));
    if (seed !== undefined) return seedChecks(values, setName, label, seed);
    return withCorpus(values, 'scores', { readonly: true }, (corpus) => {
      const set = requireSet(corpus, setName);
      const runs = runsOf(corpus, set, label);
      if (runs.length === 0)
        console.error(
          `the set ${JSON.stringify(set.name)} has no runs yet (stepscope predictions import, or stepscope predict)`,
        );
      for (const run of runs) {
        const groups = scoreGroups(set, run, corpus.itemVerdicts(run.id), by);
        if (values.json) {
          // set_items and answered: a partial run is never read as a whole one.
          const extra = { set_items: run.setItems, answered: run.items };
          process.stdout.write(groups.map((g) => JSON.stringify({ ...g.line, ...extra }) + '\n').join(''));
        } else {
          const n = (x: number | null) => (x === null ? '-' : x.toFixed(2));
          const ci = (g: (typeof groups)[number]) => {
            const iv = pass1Interval(g.items, [set.name, run.label, String(g.line.group)]);
            return iv ? `${n(g.line['pass@1'])} [${n(iv[0])}, ${n(iv[1])}]` : n(g.line['pass@1']);
          };
          console.log(
            `${set.name} (${set.task}), model ${run.label}: ${answeredText(run)}, ${run.predictions} predictions`,
          );
          const cols = ['em_event', 'em_src', 'em_locals', 'em_arg', 'em_all', 'exec_pass'] as const;
          console.log(
            table(
              [by ?? 'set', 'items', 'draws', 'format errors', ...cols, 'pass@1 [95% CI]', 'pass@5', 'pass@10'],
              groups.map((g) => [
                groupText(g.line),
                g.line.items,
                g.line.samples,
                g.line.format_errors,
                ...cols.map((c) => n(g.line[c])),
                ci(g),
                n(g.line['pass@5']),
                n(g.line['pass@10']),
              ]),
            ),
          );
        }
        if (run.items < run.setItems)
          console.error(
            `${run.label} answered ${run.items} of the ${run.setItems} items of ${set.name}: its scores are over the ` +
              `answered items only (import the rest, or run predict again to resume).`,
          );
        if (run.pending)
          console.error(
            `${run.pending} predictions of ${run.label} are not checked by execution yet: import the same file again (or run predict again) to finish.`,
          );
      }
      return 0;
    });
  },
};

function groupText(l: ScoreLine): string {
  if (l.group === null) return '(all)';
  if (typeof l.group === 'string') return l.group;
  return l.by === 'horizon' ? l.group.toFixed(2) : String(l.group);
}

/** `--seed-check S`: each run's checks again under seed S, the verdicts that change. */
function seedChecks(
  values: Record<string, unknown>,
  setName: string,
  label: string | undefined,
  seed: number,
): Promise<number> {
  return withCorpus(values, 'scores', { readonly: true }, async (corpus) => {
    const set = requireSet(corpus, setName);
    for (const run of runsOf(corpus, set, label)) {
      const { checked, changes } = await seedCheck(corpus, run.id, seed);
      console.log(
        `${set.name}, model ${run.label}: PYTHONHASHSEED=${seed}: ${checked} execution verdicts checked again, ${changes.length} change`,
      );
      if (changes.length) {
        console.log(
          table(
            ['prediction', 'item', 'draw', 'check', `seed ${run.hashseed}`, `seed ${seed}`],
            changes.map((c) => [c.prediction, c.item, c.sample + 1, c.check, c.stored, c.other]),
          ),
        );
      }
    }
    return 0;
  });
}
