/** One prediction as the labeling view shows it (contract: AnnotationItem). */
import type { AnnotationItem } from '../contract/annotations.js';
import { itemRow, predictionDetail } from '../predictions/views.js';
import type { ReadCorpus } from '../store/corpus.js';
import { factsOf } from './facts.js';
import { annotationInfo } from './info.js';

export function annotationItem(corpus: ReadCorpus, prediction: number, annotator: string): AnnotationItem {
  const f = factsOf(corpus, prediction);
  // The whole prediction's annotations: a rollout's labels on its steps (prediction:ID/step:N) are not this item's.
  const all = corpus.annotationsOfPredictions([prediction]).filter((a) => a.target === `prediction:${prediction}`);
  const mine = all.find((a) => a.source === 'person' && a.role === 'annotator' && a.annotator === annotator);
  return {
    item: { ...itemRow(f.item, [f.record]), prompt: f.item.prompt, target: f.item.target },
    prediction: predictionDetail(f.record, f.run.format),
    code: corpus.getTrace(f.item.traceId)?.context_forward ?? '',
    predicted: f.predicted,
    truth: f.truth,
    diff: f.diff,
    wrong: f.wrong,
    prelabels: all
      .filter((a) => a.source === 'rule')
      .map((a) => ({ id: a.id, label: a.labels[0], rule: a.rule!, reason: a.note, status: a.status })),
    mine: mine ? annotationInfo(mine) : null,
    annotators: all
      .filter((a) => a.source === 'person' && a.role === 'annotator' && !a.skipped)
      .map((a) => a.annotator)
      .sort(),
  };
}
