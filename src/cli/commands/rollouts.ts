/** `stepscope rollouts`: a model run on its own states, aligned with the truth step by step (docs/predictions.md). */
import { recordName } from '../../contract/predictions.js';
import type { RolloutRun } from '../../semantics/rollouts.js';
import { rolloutRuns } from '../../predictions/rollouts.js';
import { answeredText } from '../../predictions/views.js';
import { checkedOption, requireString, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'rollouts',
  summary: 'Rollouts of a model on its own states: accuracy by step, first divergence, healing',
  help: `Usage: stepscope rollouts --db CORPUS --set ROLLOUT_SET [--model LABEL] [--json]

For each run of a rollout set (evalset create --task rollout; filled by stepscope predict or
predictions import), or the one labelled LABEL: the accuracy at each step of the rollouts
(step k: the state after action k, scored against the true state the same actions reach; a
step not reached counts as wrong), the same model's teacher-forced accuracy at the same
positions (its answers on next-state items with the same trace, direction, entry and actions
up to the step: evalset create --task next-state --prefixes-of SET makes them), how many
rollouts first diverge at each step, and per rollout its steps right, first divergence (the
first wrong step) and whether it healed (a later step right again).

Options:
  --db CORPUS     the corpus file
  --set NAME      the rollout set
  --model LABEL   only this run (default: every run of the set)
  --json          one JSON object per run and line, as the API's getRollouts gives it
                  (src/semantics/rollouts.ts; docs/predictions.md, "Rollouts")`,
  options: {
    db: { type: 'string' },
    set: { type: 'string' },
    model: { type: 'string' },
    json: { type: 'boolean' },
  },
  run(values) {
    const set = checkedOption(values, 'set', 'rollouts', recordName) ?? requireString(values, 'set', 'rollouts');
    const label = checkedOption(values, 'model', 'rollouts', recordName);
    return withCorpus(values, 'rollouts', { readonly: true }, (corpus) => {
      const runs = rolloutRuns(corpus, { set, run: label });
      if (runs.length === 0)
        console.error(`the set ${JSON.stringify(set)} has no runs yet (stepscope predict, or predictions import)`);
      for (const r of runs) {
        if (values.json) process.stdout.write(JSON.stringify(r) + '\n');
        else print(r);
        if (r.answered < r.set_items)
          console.error(`${r.model}: ${answeredText({ items: r.answered, setItems: r.set_items })}`);
      }
      return 0;
    });
  },
};

function print(r: RolloutRun): void {
  const n = (x: number | null) => (x === null ? '-' : x.toFixed(2));
  console.log(
    `${r.set} (rollout), model ${r.model}: ${answeredText({ items: r.answered, setItems: r.set_items })}, ` +
      `${r.rollouts} rollouts, ${r.healed} healed`,
  );
  const tf = r.teacher_forced_sets.length ? `teacher-forced from ${r.teacher_forced_sets.join(', ')}` : null;
  console.log(
    table(
      ['step', 'rollouts', 'right', 'accuracy', 'teacher-forced', 'tf positions'],
      r.by_step.map((s) => [s.step, s.rollouts, s.right, n(s.accuracy), n(s.teacher_forced), s.teacher_forced_items]),
    ),
  );
  if (tf) console.log(tf);
  else console.log('teacher-forced: no next-state run of this label at these positions (see --help)');
  const div = r.first_divergence.map((d) => `${d.step ?? 'never'}: ${d.rollouts}`).join(', ');
  console.log(`first divergence (step: rollouts): ${div}`);
  console.log(
    table(
      ['item', 'key', 'draw', 'steps', 'right', 'first divergence', 'healed', 'stopped'],
      r.items.map((i) => [
        i.id,
        i.key,
        i.sample + 1,
        i.steps.length,
        i.steps_right,
        i.first_divergence ?? '-',
        i.healed ? 'yes' : 'no',
        i.stopped,
      ]),
    ),
  );
}
