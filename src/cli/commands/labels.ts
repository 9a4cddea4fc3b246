/** `stepscope labels`: counts per label and the annotations themselves. */
import { recordName } from '../../contract/predictions.js';
import { str } from '../../contract/validate.js';
import { labelListing } from '../../labeling/scope.js';
import { checkedOption, usage, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'labels',
  summary: 'Count the failure labels given, and list the annotations',
  help: `Usage: stepscope labels --db CORPUS [--set S [--model M]] [--annotator A] [--json]

Counts, per label, the annotations people gave (skipped items and the rules' suggestions
are listed but not counted), then lists every annotation: target, annotator, source (a
person, or rule:NAME for a pre-label), labels, status and note.

Options:
  --db CORPUS     the corpus file
  --set S         only annotations of predictions of this evaluation set
  --model M       only those of this run (its label), with --set
  --annotator A   only this annotator's (rule:NAME for a rule's suggestions)
  --json          one JSON object: {"counts": {label: n}, "annotations": [...]}`,
  options: {
    db: { type: 'string' },
    set: { type: 'string' },
    model: { type: 'string' },
    annotator: { type: 'string' },
    json: { type: 'boolean' },
  },
  run(values) {
    const set = checkedOption(values, 'set', 'labels', recordName);
    const run = checkedOption(values, 'model', 'labels', recordName);
    if (run !== undefined && set === undefined) throw usage('labels: --model needs --set');
    const annotator = checkedOption(values, 'annotator', 'labels', str(80));
    return withCorpus(values, 'labels', { readonly: true }, (corpus) => {
      const { counts, rows } = labelListing(corpus, { set, run, annotator });
      if (values.json) {
        process.stdout.write(JSON.stringify({ counts, annotations: rows }) + '\n');
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
      return 0;
    });
  },
};
