/**
 * A prediction as the labeling queue sees it: its item, run and record, the completion read
 * into a state (CRUXEval's value and call forms too), the truth, the field diff and which
 * fields were wrong. One place, so the queue's filter, the item view and the pre-labels agree.
 */
import { fieldDiff, readCompletion, type CompletionForm, type FieldDiff } from '../annotate/index.js';
import { UserError } from '../common/errors.js';
import type { Field, Prediction } from '../semantics/index.js';
import type { EvalSetRecord, PredictionRecord, ReadCorpus, RunRecord, StoredItem } from '../store/corpus.js';

export interface PredictionFacts {
  set: EvalSetRecord;
  run: RunRecord;
  item: StoredItem;
  record: PredictionRecord;
  form: CompletionForm;
  predicted: Prediction | null;
  truth: Prediction;
  diff: FieldDiff | null;
  wrong: Field[];
  /** The execution verdict the rules read: the valid-alternative check, else CRUXEval's. */
  execution: 'pass' | 'fail' | null;
}

export function completionForm(set: EvalSetRecord, run: RunRecord): CompletionForm {
  if (run.format === 'state') return 'state';
  return set.task === 'cruxeval-input' ? 'call' : 'value';
}

const verdict = (s: string | undefined): 'pass' | 'fail' | null =>
  s === 'pass' ? 'pass' : s === 'fail' || s === 'error' || s === 'timeout' ? 'fail' : null;

export function predictionFacts(
  set: EvalSetRecord,
  run: RunRecord,
  item: StoredItem,
  record: PredictionRecord,
): PredictionFacts {
  const form = completionForm(set, run);
  const truth = item.truth as Prediction;
  const read = readCompletion(record.completion, form, truth);
  const predicted = read.ok ? read.value : null;
  const diff = predicted && fieldDiff(predicted, truth);
  let wrong: Field[];
  if (form === 'state') wrong = (['event', 'src', 'locals', 'arg'] as const).filter((f) => record.em[f] === false);
  else wrong = record.correct === false ? [form === 'call' ? 'locals' : 'arg'] : [];
  return {
    set,
    run,
    item,
    record,
    form,
    predicted,
    truth,
    diff,
    wrong,
    execution: verdict(record.alt?.status) ?? verdict(record.exec?.status),
  };
}

/** The facts of one prediction by id; not-found for an unknown id. */
export function factsOf(corpus: ReadCorpus, id: number): PredictionFacts {
  const ref = corpus.predictionRef(id);
  if (!ref) throw new UserError(`no prediction with id ${id} (stepscope predictions lists them)`, 'not-found');
  const set = corpus.listEvalSets().find((s) => s.id === ref.setId)!;
  const run = corpus.getRunById(ref.runId)!;
  const item = corpus.getItem(ref.itemId)!;
  const record = [...corpus.iteratePredictions({ setId: set.id, runId: run.id, itemId: item.id })].find(
    (p) => p.id === id,
  )!;
  return predictionFacts(set, run, item, record);
}
