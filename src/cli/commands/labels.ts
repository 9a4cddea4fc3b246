/** `stepscope labels`: counts per label and the annotations themselves; a run's reviews per item. */
import { recordName } from '../../contract/predictions.js';
import { int, str } from '../../contract/validate.js';
import { reviewQuotaOf, setReviewQuota } from '../../labeling/quota.js';
import { labelListing } from '../../labeling/scope.js';
import { checkedOption, intOption, usage, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'labels',
  summary: 'Count the failure labels given, and list the annotations',
  help: `Usage: stepscope labels --db CORPUS [--set S [--model M]] [--annotator A] [--json]
       stepscope labels --db CORPUS --set S --model M --reviews N

Counts, per label, the annotations people gave (skipped items and the rules' suggestions
are listed but not counted), then lists every annotation: target, annotator, source (a
person, or rule:NAME for a pre-label), labels, status and note. With --set and --model, the
run's reviews per item follow (the JSON's "reviews": null when it has no limit).

--reviews N sets how many people label each prediction of the run (1-99; 0 removes the limit)
and lists nothing. The corpus keeps it: an item leaves everyone else's queue once N people
labeled it, and an (N+1)th person's labels on it are refused, from the app, the API or
stepscope annotate. Labels given before stay.

Options:
  --db CORPUS     the corpus file
  --set S         only annotations of predictions of this evaluation set
  --model M       only those of this run (its label), with --set
  --annotator A   only this annotator's (rule:NAME for a rule's suggestions)
  --json          one JSON object: {"counts": {label: n}, "annotations": [...]}
  --reviews N     the run's reviews per item (with --set and --model); 0: no limit`,
  options: {
    db: { type: 'string' },
    set: { type: 'string' },
    model: { type: 'string' },
    annotator: { type: 'string' },
    json: { type: 'boolean' },
    reviews: { type: 'string' },
  },
  run(values) {
    const set = checkedOption(values, 'set', 'labels', recordName);
    const run = checkedOption(values, 'model', 'labels', recordName);
    if (run !== undefined && set === undefined) throw usage('labels: --model needs --set');
    const annotator = checkedOption(values, 'annotator', 'labels', str(80));
    if (values.reviews !== undefined) {
      const n = intOption(values, 'reviews', 'labels', undefined, int(0, 99));
      if (set === undefined || run === undefined) throw usage('labels: --reviews needs --set and --model');
      return withCorpus(values, 'labels', {}, (corpus) => {
        const q = setReviewQuota(corpus, set, run, n === 0 ? null : n, null);
        console.log(`${q.set}/${q.run}: ${reviewsText(q.reviews)}`);
        return 0;
      });
    }
    return withCorpus(values, 'labels', { readonly: true }, (corpus) => {
      const { counts, rows } = labelListing(corpus, { set, run, annotator });
      const quota = set !== undefined && run !== undefined ? reviewQuotaOf(corpus, set, run) : undefined;
      if (values.json) {
        const reviews = quota && { reviews: quota.reviews };
        process.stdout.write(JSON.stringify({ counts, annotations: rows, ...reviews }) + '\n');
        return 0;
      }
      const byCount = Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
      if (byCount.length) console.log(table(['label', 'annotations'], byCount) + '\n');
      if (rows.length) {
        console.log(
          table(
            ['target', 'annotator', 'source', 'labels', 'status', 'note'],
            rows.map((a) => [
              a.target,
              a.annotator,
              a.source === 'rule' ? `rule:${a.rule}` : a.role === 'adjudicator' ? 'adjudicator' : 'person',
              a.skipped ? '(skipped)' : a.labels.join(', ') || '(none)',
              a.status ?? '',
              (a.note ?? '').replace(/\s+/g, ' ').slice(0, 60),
            ]),
          ),
        );
      }
      console.log(`${rows.length} annotation${rows.length === 1 ? '' : 's'}`);
      if (quota) console.log(`${quota.set}/${quota.run}: ${reviewsText(quota.reviews)}`);
      return 0;
    });
  },
};

const reviewsText = (n: number | null) =>
  n === null ? 'no limit of reviews per item' : `${n} review${n === 1 ? '' : 's'} per item`;
