/**
 * The labeling queue (docs/annotation.md, "The queue"): a run's predictions (its failures by
 * default) in the set's item order, narrowed by the filter, with who labeled each, the rules'
 * suggestions, and where this annotator resumes (the first entry they have not labeled or
 * skipped). With `need` = m, an entry m other people labeled is left out, unless this
 * annotator has it already: each item goes to the first m annotators who reach it. The run's
 * reviews per item, stored in the corpus (Corpus.setReviewQuota), leave entries out the same
 * way, for every caller: the store refuses the review that would exceed it.
 *
 * On a rollout set an entry is a rollout's first divergence (the step where it first went wrong) by default: its
 * target is `prediction:ID/step:N`, and who labeled it is who labeled that step. `at: 'prediction'` lists whole
 * rollouts instead (target `prediction:ID`). A rollout right at every step has no divergence: its entry (listed only
 * with `failed: false`) is the whole prediction. The rules' suggestions are on whole predictions, shown on either.
 */
import type { Queue, QueueEntry } from '../contract/annotations.js';
import type { Field } from '../semantics/index.js';
import { requireRun, requireSet } from '../predictions/views.js';
import type { AnnotationRecord, ReadCorpus } from '../store/corpus.js';
import { predictionFacts } from './facts.js';
import { labelCounts } from './info.js';

export interface QueueFilter {
  set: string;
  run: string;
  annotator: string;
  action?: string;
  wrong?: Field[];
  formatError?: boolean;
  failed?: boolean;
  labeled?: 'any' | 'yes' | 'no';
  by?: string;
  prelabel?: string;
  need?: number;
  /** On a rollout set: entries at each rollout's first divergence (the default), or whole rollouts. */
  at?: 'first-divergence' | 'prediction';
}

interface Marks {
  people: Map<string, AnnotationRecord>;
  rules: string[];
}

export function buildQueue(corpus: ReadCorpus, f: QueueFilter): Queue {
  const set = requireSet(corpus, f.set);
  const run = requireRun(corpus, set, f.run);
  const items = new Map([...corpus.iterateItems(set.id)].map((it) => [it.id, it]));
  const divergence = rolloutDivergence(corpus, set.task === 'rollout' && f.at !== 'prediction', run.id, set.id, items);
  /** People's annotations by target key; the rules' labels by prediction. */
  const people = new Map<string, Map<string, AnnotationRecord>>();
  const rules = new Map<number, string[]>();
  for (const a of corpus.listAnnotations({ runId: run.id })) {
    if (a.source === 'rule') rules.set(a.prediction!, [...(rules.get(a.prediction!) ?? []), a.labels[0]]);
    else if (a.role === 'annotator') {
      const byWho = people.get(a.target) ?? new Map<string, AnnotationRecord>();
      people.set(a.target, byWho.set(a.annotator, a));
    }
  }
  const quota = corpus.reviewQuota(run.id);
  const limit = Math.min(f.need ?? Infinity, quota ?? Infinity);
  /** Per person, the entries listed they labeled or skipped. */
  const doneBy = new Map<string, number>();
  const entries: (QueueEntry & { ord: number })[] = [];
  const mine: AnnotationRecord[] = [];
  const facets = { actions: new Set<string>(), annotators: new Set<string>(), prelabels: new Set<string>() };
  for (const p of corpus.iteratePredictions({ setId: set.id, runId: run.id, failed: f.failed ?? true })) {
    const item = items.get(p.itemId)!;
    const step = divergence?.get(p.id) ?? null;
    const target = step === null ? `prediction:${p.id}` : `prediction:${p.id}/step:${step}`;
    const m: Marks = { people: people.get(target) ?? new Map(), rules: rules.get(p.id) ?? [] };
    const labeledBy = [...m.people.values()]
      .filter((a) => !a.skipped)
      .map((a) => a.annotator)
      .sort();
    const own = m.people.get(f.annotator);
    const state = own ? (own.skipped ? 'skipped' : 'labeled') : null;
    facets.actions.add(item.action);
    for (const a of labeledBy) facets.annotators.add(a);
    for (const r of m.rules) facets.prelabels.add(r);
    if (f.action !== undefined && item.action !== f.action) continue;
    if (f.formatError !== undefined && (p.formatError === true) !== f.formatError) continue;
    if (f.labeled === 'yes' && labeledBy.length === 0) continue;
    if (f.labeled === 'no' && labeledBy.length > 0) continue;
    if (f.by !== undefined && !labeledBy.includes(f.by)) continue;
    if (f.prelabel !== undefined && !m.rules.includes(f.prelabel)) continue;
    if (!own && labeledBy.length >= limit) continue;
    if (f.wrong?.length) {
      const wrong = predictionFacts(set, run, item, p).wrong;
      if (!f.wrong.every((w) => wrong.includes(w))) continue;
    }
    if (own && !own.skipped) mine.push(own);
    for (const who of m.people.keys()) doneBy.set(who, (doneBy.get(who) ?? 0) + 1);
    entries.push({
      prediction: p.id,
      step,
      target,
      item: item.id,
      key: item.key,
      action: item.action,
      sample: p.sample,
      annotators: labeledBy,
      mine: state,
      prelabels: m.rules,
      ord: item.ord,
    });
  }
  entries.sort((a, b) => a.ord - b.ord || a.sample - b.sample || a.prediction - b.prediction);
  const position = entries.findIndex((e) => e.mine === null);
  return {
    entries: entries.map(({ ord: _, ...e }) => e),
    done: entries.filter((e) => e.mine !== null).length,
    position: position < 0 ? entries.length : position,
    counts: labelCounts(mine),
    reviews: quota ?? null,
    progress: [...doneBy]
      .map(([annotator, done]) => ({ annotator, done }))
      .sort((a, b) => b.done - a.done || (a.annotator < b.annotator ? -1 : 1)),
    facets: {
      actions: [...facets.actions].sort(),
      annotators: [...facets.annotators].sort(),
      prelabels: [...facets.prelabels].sort(),
    },
  };
}

/**
 * Per rollout prediction of the run, its first divergence: the first step whose state is not right (a step the
 * rollout never reached counts as wrong, as in `stepscope rollouts`); absent when every step is right. Undefined when
 * the queue is not at first divergences.
 */
function rolloutDivergence(
  corpus: ReadCorpus,
  on: boolean,
  runId: number,
  setId: number,
  items: Map<number, { id: number }>,
): Map<number, number> | undefined {
  if (!on) return undefined;
  const truth = corpus.rolloutTargets([...items.keys()]);
  const steps = corpus.rolloutStepsOfRun(runId);
  const out = new Map<number, number>();
  for (const p of corpus.iteratePredictions({ setId, runId })) {
    const got = steps.get(p.id) ?? [];
    const first = (truth.get(p.itemId) ?? []).findIndex((t, k) => got[k]?.step !== t.step || got[k].em.all !== true);
    if (first >= 0) out.set(p.id, first + 1);
  }
  return out;
}
