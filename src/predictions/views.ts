/**
 * What the CLI and the API show of sets, runs, items and predictions, made in one place so
 * both say the same (the API's shapes are in src/contract/predictions.ts).
 */
import { UserError } from '../common/errors.js';
import { redactEndpoint } from '../model/index.js';
import { formatAction, parsePrediction, type ScoreBy, type ScoreLine } from '../semantics/index.js';
import type {
  CounterfactualLink,
  EvalSetRecord,
  PredictionRecord,
  ReadCorpus,
  RolloutTarget,
  RunRecord,
  StoredItem,
} from '../store/corpus.js';
import { scoreLines } from './scores.js';

/** The set named `name`, or a not-found error listing the sets there are. */
export function requireSet(corpus: ReadCorpus, name: string): EvalSetRecord {
  const set = corpus.getEvalSet(name);
  if (set) return set;
  const names = corpus.listEvalSets().map((s) => s.name);
  const have = names.length ? `its sets: ${names.join(', ')}` : 'it has none (make one with stepscope evalset create)';
  throw new UserError(`${corpus.path} has no evaluation set named ${JSON.stringify(name)}; ${have}`, 'not-found');
}

/** The run labelled `label` in `set`, or a not-found error naming the labels there are. */
export function requireRun(corpus: ReadCorpus, set: EvalSetRecord, label: string): RunRecord {
  const run = corpus.getRun(set.id, label);
  if (run) return run;
  const labels = corpus.listRuns(set.id).map((r) => r.label);
  const have = labels.length
    ? `its runs: ${labels.join(', ')}`
    : 'it has none (stepscope predictions import, or stepscope predict)';
  throw new UserError(
    `the set ${JSON.stringify(set.name)} has no run labelled ${JSON.stringify(label)}; ${have}`,
    'not-found',
  );
}

/** The runs to score or list: the one labelled `label`, or every run of the set. */
export function runsOf(corpus: ReadCorpus, set: EvalSetRecord, label?: string): RunRecord[] {
  return label === undefined ? corpus.listRuns(set.id) : [requireRun(corpus, set, label)];
}

/** Scores of one run: the whole set, then one line per group of `by`. */
export function runScores(corpus: ReadCorpus, setName: string, label: string, by?: ScoreBy): ScoreLine[] {
  const set = requireSet(corpus, setName);
  const run = requireRun(corpus, set, label);
  return scoreLines(set, run, corpus.itemVerdicts(run.id), by);
}

/** How much of its set a run answered, as every listing says it: `237 of 320 items answered (partial)`. */
export function answeredText(r: Pick<RunRecord, 'items' | 'setItems'>): string {
  return `${r.items} of ${r.setItems} items answered${r.items < r.setItems ? ' (partial)' : ''}`;
}

/**
 * A run as shown. A predict run's source is its endpoint (no source hash): one stored by an older
 * version may still hold a key in its query or user information, so it is masked when shown too.
 */
export function runInfo(r: RunRecord) {
  const { setId: _, ...rest } = r;
  return rest.sourceHash === null && rest.source ? { ...rest, source: redactEndpoint(rest.source) } : rest;
}

export function verdictInfo(p: PredictionRecord) {
  return {
    prediction: p.id,
    run: p.model,
    sample: p.sample,
    formatError: p.formatError,
    em: p.em,
    exec: p.exec?.status ?? null,
    alt: p.alt?.status ?? null,
    correct: p.correct,
  };
}

export function itemRow(it: StoredItem, verdicts: PredictionRecord[]) {
  return {
    id: it.id,
    key: it.key,
    traceId: it.traceId,
    name: it.name,
    direction: it.direction,
    entry: it.entry,
    actions: it.actions.map(formatAction),
    action: it.action,
    horizon: it.horizon,
    targetNode: it.targetNode,
    targetSeq: it.targetSeq,
    targetKind: it.truth.event,
    verdicts: verdicts.map(verdictInfo),
  };
}

export function predictionDetail(p: PredictionRecord, format: RunRecord['format']) {
  const parsed = format === 'state' ? parsePrediction(p.completion) : null;
  return {
    ...verdictInfo(p),
    completion: p.completion,
    finish: p.finish,
    parsed: parsed?.ok ? parsed.value : null,
    parseError: p.parseError,
    execDetail: p.exec?.detail ?? null,
    altDetail: p.alt?.detail ?? null,
    altGot: p.alt?.got ?? null,
  };
}

/**
 * The JSON line `evalset export` writes per item (keys as docs/predictions.md lists them). A rollout item has no one
 * target: `targets` holds the true state after each of its actions, and `action`, `horizon` and `target` are left out.
 */
export function exportLine(
  set: EvalSetRecord,
  it: StoredItem,
  steps?: readonly RolloutTarget[],
  origin?: CounterfactualLink,
) {
  if (set.task === 'rollout')
    return {
      id: it.id,
      set: set.name,
      task: set.task,
      name: it.name,
      trace: it.traceId,
      direction: it.direction,
      entry: it.entry,
      actions: it.actions,
      prompt: it.prompt,
      targets: (steps ?? []).map((s) => s.target),
    };
  return {
    id: it.id,
    set: set.name,
    task: set.task,
    name: it.name,
    trace: it.traceId,
    direction: it.direction,
    entry: it.entry,
    actions: it.actions,
    action: it.action,
    horizon: it.horizon,
    prompt: it.prompt,
    target: it.target,
    // A counterfactual set's item: the trace edited and the edit ('trace' is the new run's).
    ...(origin && {
      origin: { trace: origin.origin, seq: origin.seq, set: origin.set, first_difference: origin.first_difference },
    }),
  };
}
