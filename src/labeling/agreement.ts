/**
 * Agreement between the people who labeled a run (or a set, or the whole corpus): the
 * statistics of src/annotate/stats over each person's current, not skipped annotation, the
 * confusion table of each pair, the disagreements with any adjudicator's final labels, and
 * the rules' precision against the people.
 */
import {
  agreement,
  disagreements,
  pairConfusion,
  ruleAgreement,
  type Rating,
  type LabelView,
} from '../annotate/index.js';
import type { AgreementInfo } from '../contract/annotations.js';
import type { ReadCorpus } from '../store/corpus.js';
import { annotationScope } from './scope.js';

export function agreementInfo(corpus: ReadCorpus, o: { set?: string; run?: string; view?: LabelView }): AgreementInfo {
  const rows = corpus.listAnnotations(annotationScope(corpus, o.set, o.run));
  const people: Rating[] = rows
    .filter((a) => a.source === 'person' && a.role === 'annotator' && !a.skipped)
    .map((a) => ({ item: a.target, annotator: a.annotator, labels: a.labels }));
  const finals = new Map(
    rows.filter((a) => a.role === 'adjudicator').map((a) => [a.target, { annotator: a.annotator, labels: a.labels }]),
  );
  const view = o.view ?? 'set';
  const report = agreement(people, { view });
  return {
    ...report,
    confusion: report.pairs.map((p) => ({ a: p.a, b: p.b, ...pairConfusion(people, p.a, p.b, view) })),
    disagreements: disagreements(people, view).map((d) => ({
      target: d.item,
      labels: d.labels,
      final: finals.get(d.item) ?? null,
    })),
    rules: ruleAgreement(
      rows.filter((a) => a.source === 'rule').map((a) => ({ item: a.target, rule: a.rule!, label: a.labels[0] })),
      people,
    ),
  };
}
