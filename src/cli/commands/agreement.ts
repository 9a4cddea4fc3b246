/** `stepscope agreement`: how far annotators agree, and how far the rules agree with them. */
import { recordName } from '../../contract/predictions.js';
import { agreementInfo } from '../../labeling/agreement.js';
import { checkedOption, choiceOption, usage, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

const fmt = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));

export const command: Command = {
  name: 'agreement',
  summary:
    "Agreement between annotators (Cohen's kappa per pair, Krippendorff's alpha) and of the pre-label rules with them",
  help: `Usage: stepscope agreement --db CORPUS [--set S [--model M]] [--view set|primary] [--json]

Compares the people's current labels (skipped items and rules left out). Each annotation is
one category: its whole set of labels (--view set, the default) or its first label
(--view primary). Cohen's kappa for each pair of annotators, on the items both labeled;
Krippendorff's alpha (nominal, any number of annotators, missing labels allowed) overall
and per label (given or not); the items they disagree on; and the pre-label rules' precision
against the people. A statistic that is undefined (one category only) is n/a (null in JSON).

Options:
  --db CORPUS   the corpus file
  --set S       only annotations of this evaluation set's predictions
  --model M     only this run's (its label), with --set
  --json        one JSON object: pairs [{a, b, items, kappa, observed}], alpha, annotators,
                items, labels [{label, alpha, given}], confusion, disagreements, rules`,
  options: {
    db: { type: 'string' },
    set: { type: 'string' },
    model: { type: 'string' },
    view: { type: 'string' },
    json: { type: 'boolean' },
  },
  run(values) {
    const set = checkedOption(values, 'set', 'agreement', recordName);
    const run = checkedOption(values, 'model', 'agreement', recordName);
    if (run !== undefined && set === undefined) throw usage('agreement: --model needs --set');
    const view = choiceOption(values, 'view', 'agreement', ['set', 'primary'] as const, 'set');
    return withCorpus(values, 'agreement', { readonly: true }, (corpus) => {
      const g = agreementInfo(corpus, { set, run, view });
      if (values.json) {
        process.stdout.write(JSON.stringify(g) + '\n');
        return 0;
      }
      console.log(
        `${g.annotators.length} annotators (${g.annotators.join(', ') || 'none'}), ${g.items} items labeled by two or more`,
      );
      console.log(`Krippendorff's alpha: ${fmt(g.alpha)}`);
      if (g.pairs.length)
        console.log(
          '\n' +
            table(
              ['a', 'b', 'items', 'kappa', 'observed'],
              g.pairs.map((p) => [p.a, p.b, p.items, fmt(p.kappa), fmt(p.observed)]),
            ),
        );
      if (g.labels.length)
        console.log(
          '\n' +
            table(
              ['label', 'given', 'alpha'],
              g.labels.map((l) => [l.label, l.given, fmt(l.alpha)]),
            ),
        );
      console.log(
        `\n${g.disagreements.length} disagreement${g.disagreements.length === 1 ? '' : 's'} (${g.disagreements.filter((d) => d.final).length} settled by an adjudicator)`,
      );
      const r = g.rules;
      if (r.rules.length) {
        console.log(
          `\npre-label precision: ${fmt(r.precision)} (${r.accepted} of ${r.judged} judged suggestions given by people)`,
        );
        console.log(
          table(
            ['rule', 'label', 'judged', 'accepted', 'precision', 'recall'],
            r.rules.map((x) => [x.rule, x.label, x.judged, x.accepted, fmt(x.precision), fmt(x.recall)]),
          ),
        );
      }
      return 0;
    });
  },
};
