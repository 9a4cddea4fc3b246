/** Checks that an annotation target exists in the corpus and gives its stored columns. */
import { targetKey, type AnnotationTarget } from '../annotate/index.js';
import { UserError } from '../common/errors.js';
import { ACTION_NAMES } from '../semantics/index.js';
import type { NewAnnotation, ReadCorpus } from '../store/corpus.js';

export type TargetColumns = Pick<NewAnnotation, 'target' | 'prediction' | 'trace' | 'seq' | 'action'>;

export function resolveTarget(corpus: ReadCorpus, t: AnnotationTarget): TargetColumns {
  const key = targetKey(t);
  if (t.prediction !== undefined) {
    const ref = corpus.predictionRef(t.prediction);
    if (!ref)
      throw new UserError(`no prediction with id ${t.prediction} (stepscope predictions lists them)`, 'not-found');
    if (t.step !== undefined) requireStep(corpus, t.prediction, ref, t.step);
    // A step's target keeps seq null: the step is in the key only (the store's columns are those of migration 005).
    return { target: key, prediction: t.prediction, trace: null, seq: null, action: null };
  }
  const trace = corpus.getTrace(t.trace!);
  if (!trace) throw new UserError(`no trace with id ${t.trace} (stepscope traces lists them)`, 'not-found');
  if (t.seq! >= trace.events)
    throw new UserError(
      `trace ${t.trace} has no state with seq ${t.seq}: expected a seq from 0 to ${trace.events - 1}`,
      'not-found',
    );
  if (t.action !== undefined && !(ACTION_NAMES as readonly string[]).includes(t.action.split(' ')[0])) {
    throw new UserError(`unknown action '${t.action}': expected one of ${ACTION_NAMES.join(', ')}`, 'bad-input');
  }
  return { target: key, prediction: null, trace: t.trace!, seq: t.seq!, action: t.action ?? null };
}

/** A step target names a step of a rollout prediction's item: 1 to its number of actions. */
function requireStep(corpus: ReadCorpus, prediction: number, ref: { setId: number; itemId: number }, step: number) {
  const set = corpus.listEvalSets().find((s) => s.id === ref.setId);
  if (set?.task !== 'rollout')
    throw new UserError(
      `prediction ${prediction} is not a rollout's (its set is a ${set?.task ?? 'missing'} set): a step goes with a rollout`,
      'bad-input',
    );
  const steps = corpus.rolloutTargets([ref.itemId]).get(ref.itemId)?.length ?? 0;
  if (step > steps)
    throw new UserError(
      `prediction ${prediction} is a rollout of ${steps} steps: expected a step from 1 to ${steps}`,
      'not-found',
    );
}
