/**
 * Pre-labels for a run: the rules of src/annotate/prelabel over each failing prediction
 * (walked on its item's recorded trace by itemPrelabelInput), stored as suggestions of
 * annotator `rule:<name>` with the rule's reason as the note, status `suggested`. Running it
 * again adds only what is missing and never touches a suggestion a person already judged.
 * A prediction whose execution check is still pending is left for later.
 */
import { itemPrelabelInput, prelabel } from '../annotate/index.js';
import type { Corpus, NewAnnotation } from '../store/corpus.js';
import { requireRun, requireSet } from '../predictions/views.js';
import { loadTrace, type LoadedTrace } from '../trajectories/load.js';
import { predictionFacts } from './facts.js';
import { storedTaxonomy } from './taxonomy.js';

export interface PrelabelRunResult {
  /** Failing predictions looked at. */
  predictions: number;
  /** Of those, how many got at least one suggestion. */
  labeled: number;
  /** Suggestions newly stored. */
  stored: number;
  /** Predictions skipped: execution pending, or an item its trace cannot give. */
  skipped: number;
  /** Suggestions per label, over every failing prediction. */
  counts: Record<string, number>;
}

export function prelabelRun(corpus: Corpus, setName: string, label: string): PrelabelRunResult {
  const set = requireSet(corpus, setName);
  const run = requireRun(corpus, set, label);
  const taxonomy = storedTaxonomy(corpus, null);
  const items = new Map([...corpus.iterateItems(set.id)].map((it) => [it.id, it]));
  const traces = new Map<number, LoadedTrace>();
  const have = new Set(
    corpus.listAnnotations({ runId: run.id, source: 'rule', inactive: true }).map((a) => `${a.target} ${a.annotator}`),
  );
  const out: NewAnnotation[] = [];
  const r: PrelabelRunResult = { predictions: 0, labeled: 0, stored: 0, skipped: 0, counts: {} };
  for (const p of corpus.iteratePredictions({ setId: set.id, runId: run.id })) {
    if (p.correct !== false) {
      if (p.correct === null) r.skipped++;
      continue;
    }
    r.predictions++;
    const item = items.get(p.itemId)!;
    const f = predictionFacts(set, run, item, p);
    let trace = traces.get(item.traceId);
    if (!trace) traces.set(item.traceId, (trace = loadTrace(corpus, item.traceId)));
    let suggestions;
    try {
      const input = itemPrelabelInput({ index: trace.index, contextForward: trace.record.context_forward }, item, {
        completion: p.completion,
        completionForm: f.form,
        finishReason: p.finish,
        execution: f.execution,
      });
      suggestions = prelabel(input, { taxonomy });
    } catch {
      r.skipped++;
      continue;
    }
    if (suggestions.length) r.labeled++;
    for (const s of suggestions) {
      r.counts[s.label] = (r.counts[s.label] ?? 0) + 1;
      const annotator = `rule:${s.rule}`;
      const target = `prediction:${p.id}`;
      if (have.has(`${target} ${annotator}`)) continue;
      out.push({
        target,
        prediction: p.id,
        trace: null,
        seq: null,
        action: null,
        annotator,
        role: 'annotator',
        source: 'rule',
        rule: s.rule,
        labels: [s.label],
        note: s.reason,
        status: 'suggested',
        skipped: false,
        active: true,
        taxonomy: taxonomy.version,
      });
    }
  }
  r.stored = corpus.saveAnnotations(out, 'rules').length;
  return r;
}
