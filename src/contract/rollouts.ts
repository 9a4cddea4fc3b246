/**
 * The rollouts domain of the API (docs/predictions.md, "Rollouts"): a model run on its own states, aligned step by
 * step with the truth. `getRollouts` answers, for each run of a rollout set (or the one labelled `run`), every
 * rollout with its steps, and the run's accuracy by step beside the same model's teacher-forced accuracy at the same
 * positions. The same objects are `stepscope rollouts --json`'s lines, so their keys are snake_case like ScoreLine's.
 * Read-only.
 *
 * The shapes are in src/semantics/rollouts.ts (the CLI and src/predictions/ make them too), re-exported here.
 */
import type { RolloutRun } from '../semantics/rollouts.js';
import { read } from './method.js';
import { recordName } from './predictions.js';
import { recordId } from './traces.js';
import { object, optional } from './validate.js';

export const rolloutMethods = {
  getRollouts: read(object({ set: recordName, run: optional(recordName), traceId: optional(recordId) })),
};

export type { RolloutItem, RolloutRun, RolloutStep, StepAccuracy } from '../semantics/rollouts.js';

export interface RolloutResults {
  getRollouts: RolloutRun[];
}
