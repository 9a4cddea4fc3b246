/**
 * Agreement between the people who labeled a run (or a set, or the whole corpus): the
 * statistics of src/annotate/stats over each person's current, not skipped annotation, the
 * confusion table of each pair, the disagreements with any adjudicator's final labels, and
 * the rules' precision against the people. Each disagreement on a prediction carries what an
 * adjudicator reads to settle it: the annotators' notes, the program, the prediction against the truth.
 */
import {
  agreement,
  disagreements,
  pairConfusion,
  ruleAgreement,
  type Rating,
  type LabelView,
} from '../annotate/index.js';
import type { AgreementInfo, DisagreementContext } from '../contract/annotations.js';
import type { ReadCorpus } from '../store/corpus.js';
import { factsOf } from './facts.js';
import { annotationScope } from './scope.js';

export function agreementInfo(corpus: ReadCorpus, o: { set?: string; run?: string; view?: LabelView }): AgreementInfo {
  const rows = corpus.listAnnotations(annotationScope(corpus, o.set, o.run));
  const current = rows.filter((a) => a.source === 'person' && a.role === 'annotator' && !a.skipped);
  const people: Rating[] = current.map((a) => ({ item: a.target, annotator: a.annotator, labels: a.labels }));
  const finals = new Map(
    rows.filter((a) => a.role === 'adjudicator').map((a) => [a.target, { annotator: a.annotator, labels: a.labels }]),
  );
  // target → annotator → note; a later annotation of the pair wins, as in the statistics.
  const notes = new Map<string, Map<string, string | null>>();
  for (const a of current) {
    if (!notes.has(a.target)) notes.set(a.target, new Map());
    notes.get(a.target)!.set(a.annotator, a.note);
  }
  const code = new Map<number, string>();
  const contextOf = (prediction: number | null): DisagreementContext | null => {
    if (prediction === null) return null;
    const f = factsOf(corpus, prediction);
    const traceId = f.item.traceId;
    if (!code.has(traceId)) code.set(traceId, corpus.getTrace(traceId)?.context_forward ?? '');
    return {
      prediction,
      set: f.set.name,
      run: f.run.label,
      item: f.item.id,
      key: f.item.key,
      sample: f.record.sample,
      traceId,
      code: code.get(traceId)!,
      predicted: f.predicted,
      truth: f.truth,
      wrong: f.wrong,
      completion: f.record.completion,
    };
  };
  const predictionOf = new Map(current.map((a) => [a.target, a.prediction]));
  const view = o.view ?? 'set';
  const report = agreement(people, { view });
  return {
    ...report,
    confusion: report.pairs.map((p) => ({ a: p.a, b: p.b, ...pairConfusion(people, p.a, p.b, view) })),
    disagreements: disagreements(people, view).map((d) => ({
      target: d.item,
      labels: d.labels,
      notes: Object.fromEntries(
        Object.keys(d.labels).flatMap((who) => {
          const n = notes.get(d.item)?.get(who);
          return n ? [[who, n]] : [];
        }),
      ),
      context: contextOf(predictionOf.get(d.item) ?? null),
      final: finals.get(d.item) ?? null,
    })),
    rules: ruleAgreement(
      rows.filter((a) => a.source === 'rule').map((a) => ({ item: a.target, rule: a.rule!, label: a.labels[0] })),
      people,
    ),
  };
}
