/**
 * `stepscope predictions import`: a predictions file stored as one run of a set, in one
 * transaction after the whole file was read and checked (a bad file stores nothing).
 *
 * Idempotent: a run is keyed by (set, label) and remembers its file's sha256. The same file
 * again stores nothing; another file under an existing label is refused unless `replace`,
 * which swaps the run in the same transaction (its old predictions are deleted).
 * Execution checks are left `pending`; execute.ts runs them.
 */
import { UserError } from '../common/errors.js';
import { isCruxevalTask } from '../semantics/index.js';
import {
  type Corpus,
  type EvalSetRecord,
  type ItemTruth,
  type NewPrediction,
  type RunRecord,
  type StoredItem,
} from '../store/corpus.js';
import { readPredictionsFile } from './read-file.js';
import { readRolloutFile } from './rollout-import.js';
import { rolloutPrediction, scoreSteps } from './rollout-score.js';
import { requireSet } from './views.js';
import { newPrediction } from './verdicts.js';

export interface ImportOptions {
  file: string;
  set: string;
  label: string;
  params?: Record<string, unknown>;
  replace?: boolean;
}

export interface ImportResult {
  run: RunRecord;
  /**
   * `stored`: a new run; `replaced`: the label's earlier run was swapped; `unchanged`: the same file was imported
   * before.
   */
  outcome: 'stored' | 'replaced' | 'unchanged';
}

export function importPredictions(corpus: Corpus, o: ImportOptions): ImportResult {
  const set = requireSet(corpus, o.set);
  if (set.task === 'rollout') return importRollouts(corpus, set, o);
  // The items' true fields (not their prompts, most of a set's bytes), by id and key.
  const truths = new Map<number, ItemTruth>();
  const byKey = new Map<string, number>();
  for (const it of corpus.itemTruths(set.id)) {
    truths.set(it.id, it);
    byKey.set(it.key, it.id);
  }
  const refused = isCruxevalTask(set.task)
    ? null
    : `a CRUXEval generations file fits a CRUXEval set (cruxeval-output, cruxeval-output-breakpoint, cruxeval-input); ${JSON.stringify(set.name)} is a ${set.task} set`;
  let prompts: Map<string, number[]> | null = null; // read only when a line names its item by prompt
  const byPrompt = (prompt: string) => {
    if (!prompts) {
      prompts = new Map();
      for (const it of corpus.iterateItems(set.id)) prompts.set(it.prompt, [...(prompts.get(it.prompt) ?? []), it.id]);
    }
    return prompts.get(prompt) ?? [];
  };
  const file = readPredictionsFile(
    o.file,
    (id) => (typeof id === 'number' ? (truths.has(id) ? id : undefined) : byKey.get(id)),
    refused,
    byPrompt,
  );
  const format = file.format === 'state' ? 'state' : 'cruxeval';
  const existing = corpus.getRun(set.id, o.label);
  if (existing && existing.sourceHash === file.hash) return { run: existing, outcome: 'unchanged' };
  refuseTaken(set, o, existing);
  function* predictions(): Generator<NewPrediction> {
    for (const [id, texts] of file.byItem) {
      const item = truths.get(id)!;
      if (texts.length === 1) {
        yield newPrediction(item, set.task, format, 0, texts[0]);
        continue;
      }
      // k samples often repeat a completion: each distinct text is scored once (a verdict is a function of the
      // item and the text).
      const seen = new Map<string, NewPrediction>();
      for (let k = 0; k < texts.length; k++) {
        const same = seen.get(texts[k]);
        if (same) yield { ...same, sample: k, completion: texts[k] };
        else {
          const p = newPrediction(item, set.task, format, k, texts[k]);
          seen.set(texts[k], p);
          yield p;
        }
      }
    }
  }
  const runId = corpus.saveRun(
    {
      setId: set.id,
      label: o.label,
      format,
      params: o.params ?? {},
      source: o.file,
      sourceHash: file.hash,
      hashseed: 0,
    },
    predictions(),
    existing?.id,
  );
  return { run: corpus.getRunById(runId)!, outcome: existing ? 'replaced' : 'stored' };
}

/** Another file under a label that exists is refused unless `replace`. */
function refuseTaken(set: EvalSetRecord, o: ImportOptions, existing: RunRecord | undefined): void {
  if (!existing || o.replace) return;
  const from = existing.sourceHash
    ? `imported from another file (${existing.source})`
    : `made by stepscope predict (${existing.source})`;
  throw new UserError(
    `${set.name} already has a run labelled ${JSON.stringify(o.label)}, ${from}; give another --model label, or --replace to replace it`,
    'bad-input',
  );
}

/** A rollout set's file (rollout-import.ts): each state scored against its step's truth, stored in one transaction. */
function importRollouts(corpus: Corpus, set: EvalSetRecord, o: ImportOptions): ImportResult {
  const byKey = new Map<string, number>();
  const actions = new Map<number, StoredItem['actions']>();
  for (const it of corpus.iterateItems(set.id)) {
    byKey.set(it.key, it.id);
    actions.set(it.id, it.actions);
  }
  const targets = corpus.rolloutTargets([...actions.keys()]);
  const file = readRolloutFile(
    o.file,
    (id) => (typeof id === 'number' ? (actions.has(id) ? id : undefined) : byKey.get(id)),
    (id) => targets.get(id) ?? [],
  );
  const existing = corpus.getRun(set.id, o.label);
  if (existing && existing.sourceHash === file.hash) return { run: existing, outcome: 'unchanged' };
  refuseTaken(set, o, existing);
  function* predictions(): Generator<NewPrediction> {
    for (const [id, samples] of file.byItem) {
      const t = targets.get(id)!;
      for (let k = 0; k < samples.length; k++)
        yield rolloutPrediction(id, k, actions.get(id)!, t, scoreSteps(t, samples[k]));
    }
  }
  const runId = corpus.saveRun(
    {
      setId: set.id,
      label: o.label,
      format: 'state',
      params: o.params ?? {},
      source: o.file,
      sourceHash: file.hash,
      hashseed: 0,
    },
    predictions(),
    existing?.id,
  );
  return { run: corpus.getRunById(runId)!, outcome: existing ? 'replaced' : 'stored' };
}
