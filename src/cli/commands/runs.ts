/** `stepscope runs`: the runs of a corpus (one model's predictions for one set each), and deleting one. */
import { recordId } from '../../contract/traces.js';
import { answeredText, runInfo } from '../../predictions/views.js';
import { CliError, intOption, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'runs',
  summary: "List the runs (a model's predictions for a set), or delete one",
  help: `Usage: stepscope runs --db CORPUS [--json]
       stepscope runs --db CORPUS --delete ID

A run is one model's predictions for one evaluation set, stored under a label by
'stepscope predictions import' or 'stepscope predict'.

Options:
  --db CORPUS   the corpus file
  --json        one JSON object per line: id, set, label, format, params, source,
                source_hash, hashseed, predictions, items (answered), set_items,
                partial (fewer answered than the set has), pending, created
  --delete ID   delete run ID and its predictions (nothing else)`,
  options: { db: { type: 'string' }, json: { type: 'boolean' }, delete: { type: 'string' } },
  run(values) {
    const del = values.delete === undefined ? undefined : intOption(values, 'delete', 'runs', undefined, recordId);
    if (del !== undefined) {
      return withCorpus(values, 'runs', {}, (corpus, db) => {
        const run = corpus.getRunById(del);
        if (!run) throw new CliError(`runs: ${db} has no run with id ${del}`, 1, 'not-found');
        corpus.deleteRun(del);
        console.log(
          `deleted run ${del} (${JSON.stringify(run.label)} of ${run.set}) and its ${run.predictions} predictions`,
        );
        return 0;
      });
    }
    return withCorpus(values, 'runs', { readonly: true }, (corpus) => {
      const runs = corpus.listRuns().map(runInfo);
      if (values.json) {
        const line = (r: ReturnType<typeof runInfo>) => ({
          id: r.id,
          set: r.set,
          label: r.label,
          format: r.format,
          params: r.params,
          source: r.source,
          source_hash: r.sourceHash,
          hashseed: r.hashseed,
          predictions: r.predictions,
          items: r.items,
          set_items: r.setItems,
          partial: r.items < r.setItems,
          pending: r.pending,
          created: r.created,
        });
        process.stdout.write(runs.map((r) => JSON.stringify(line(r)) + '\n').join(''));
        return 0;
      }
      if (runs.length) {
        console.log(
          table(
            ['id', 'set', 'label', 'format', 'answered', 'predictions', 'pending', 'source', 'created'],
            runs.map((r) => [
              r.id,
              r.set,
              r.label,
              r.format,
              answeredText(r).replace(' items answered', ''),
              r.predictions,
              r.pending,
              r.source,
              r.created,
            ]),
          ),
        );
      }
      console.log(`${runs.length} run${runs.length === 1 ? '' : 's'}`);
      return 0;
    });
  },
};
