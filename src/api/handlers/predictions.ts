/** The predictions domain's handlers (contract: ../contract/predictions.ts). */
import { UserError } from '../../common/errors.js';
import { itemRow, predictionDetail, requireRun, requireSet, runInfo, runScores } from '../../predictions/views.js';
import type { PredictionRecord, ReadCorpus } from '../../store/corpus.js';
import type { Api } from '../../contract/index.js';

type Methods = 'listEvalSets' | 'listRuns' | 'listItems' | 'getItem' | 'getScores';

export function predictionHandlers(corpus: ReadCorpus): Pick<Api, Methods> {
  return {
    listEvalSets() {
      const runs = corpus.listRuns();
      return corpus.listEvalSets().map((s) => ({
        id: s.id,
        name: s.name,
        task: s.task,
        items: s.items,
        options: s.options,
        created: s.created,
        runs: runs.filter((r) => r.setId === s.id).map((r) => r.label),
      }));
    },

    listRuns(p) {
      return corpus.listRuns(requireSet(corpus, p.set).id).map(runInfo);
    },

    listItems(p) {
      const set = requireSet(corpus, p.set);
      const run = p.run === undefined ? undefined : requireRun(corpus, set, p.run);
      const items = [
        ...corpus.iterateItems(set.id, { traceId: p.traceId, offset: p.offset ?? 0, limit: p.limit ?? 100 }),
      ];
      // One query for the page's verdicts, over the page's range of item positions.
      const byItem = new Map<number, PredictionRecord[]>(items.map((it) => [it.id, []]));
      if (items.length) {
        const q = {
          setId: set.id,
          runId: run?.id,
          traceId: p.traceId,
          ordFrom: items[0].ord,
          ordTo: items[items.length - 1].ord,
        };
        for (const pr of corpus.iteratePredictions(q)) byItem.get(pr.itemId)?.push(pr);
      }
      return { total: corpus.countItems(set.id, p.traceId), rows: items.map((it) => itemRow(it, byItem.get(it.id)!)) };
    },

    getItem(p) {
      const item = corpus.getItem(p.id);
      if (!item) throw new UserError(`no evaluation item with id ${p.id}`, 'not-found');
      const set = corpus.listEvalSets().find((s) => s.id === item.setId)!;
      const run = p.run === undefined ? undefined : requireRun(corpus, set, p.run);
      const formats = new Map(corpus.listRuns(set.id).map((r) => [r.id, r.format]));
      const preds = [...corpus.iteratePredictions({ setId: set.id, itemId: item.id, runId: run?.id })];
      return {
        ...itemRow(item, preds),
        set: set.name,
        prompt: item.prompt,
        target: item.target,
        truth: item.truth,
        callReturn: item.callReturn,
        predictions: preds.map((pr) => predictionDetail(pr, formats.get(pr.runId)!)),
      };
    },

    getScores(p) {
      return runScores(corpus, p.set, p.run, p.by);
    },
  };
}
