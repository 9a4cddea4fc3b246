/**
 * What an annotation is about: a prediction, one step of a rollout prediction, a state of a trace (its seq), or a
 * transition (a state and the action taken from it). `targetKey` is the one canonical string for it:
 * the store's unique key, the agreement's item, the JSONL files' `target`.
 */
import { UserError } from '../common/errors.js';

export interface AnnotationTarget {
  prediction?: number;
  /** With prediction (a rollout's): its step, 1 for the state after the item's first action. */
  step?: number;
  trace?: number;
  seq?: number;
  /** With trace and seq: the transition taken from that state (`step_over`, `inv_step_call` …). */
  action?: string;
}

const isId = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * `prediction:12`, `prediction:12/step:3` (a rollout's step), `trace:3/seq:17` or
 * `trace:3/seq:17/action:step_over`; throws a one-line error for a half target.
 */
export function targetKey(t: AnnotationTarget): string {
  if (t.prediction !== undefined) {
    if (!isId(t.prediction) || t.trace !== undefined || t.seq !== undefined || t.action !== undefined) {
      throw new UserError(
        'an annotation target is either a prediction id alone, or a trace id and a seq (and an action)',
        'bad-input',
      );
    }
    if (t.step === undefined) return `prediction:${t.prediction}`;
    if (!Number.isInteger(t.step) || t.step < 1)
      throw new UserError(`a rollout step is a whole number from 1, got ${JSON.stringify(t.step)}`, 'bad-input');
    return `prediction:${t.prediction}/step:${t.step}`;
  }
  if (t.step !== undefined)
    throw new UserError('a step in an annotation target goes with a prediction id', 'bad-input');
  if (!isId(t.trace) || !isId(t.seq))
    throw new UserError('an annotation target needs a prediction id, or a trace id and a seq', 'bad-input');
  if (t.action !== undefined && !/^[a-z_]+( .*)?$/.test(t.action))
    throw new UserError(
      `unknown action ${JSON.stringify(t.action)} in an annotation target: expected an action name such as step_over`,
      'bad-input',
    );
  return `trace:${t.trace}/seq:${t.seq}${t.action === undefined ? '' : `/action:${t.action}`}`;
}

/** The inverse of targetKey; undefined for a string it did not make. */
export function parseTargetKey(key: string): AnnotationTarget | undefined {
  let m = /^prediction:(\d+)(?:\/step:([1-9]\d*))?$/.exec(key);
  if (m) return m[2] === undefined ? { prediction: Number(m[1]) } : { prediction: Number(m[1]), step: Number(m[2]) };
  m = /^trace:(\d+)\/seq:(\d+)(?:\/action:(.+))?$/.exec(key);
  if (!m) return undefined;
  const t: AnnotationTarget = { trace: Number(m[1]), seq: Number(m[2]) };
  if (m[3] !== undefined) t.action = m[3];
  return t;
}
