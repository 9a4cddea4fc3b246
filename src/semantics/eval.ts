/**
 * The vocabulary of evaluation (docs/semantics.md §8, docs/predictions.md): the kinds of
 * evaluation set, the fields a prediction is scored on, and the statuses of an execution
 * verdict. Shared by the store, the API contract, the CLI and the UI.
 */
import type { ExitKind, StateKind } from './types.js';

/**
 * What `stepscope evalset create --task` makes. A `rollout` item is a whole trajectory the model runs on its own
 * states (docs/predictions.md, "Rollouts"); every other task's item is one teacher-forced next state (a
 * `counterfactual` item's is cut from a trace recorded with a value edited, "Counterfactual sets").
 */
export const EVAL_TASKS = [
  'next-state',
  'cruxeval-output',
  'cruxeval-output-breakpoint',
  'cruxeval-input',
  'horizon',
  'rollout',
  'counterfactual',
] as const;
export type EvalTask = (typeof EVAL_TASKS)[number];

export const CRUXEVAL_TASKS: readonly EvalTask[] = ['cruxeval-output', 'cruxeval-output-breakpoint', 'cruxeval-input'];
export const isCruxevalTask = (t: EvalTask) => CRUXEVAL_TASKS.includes(t);

/** The fields of a state scored by exact match, and `all`: every applicable one. */
export const FIELDS = ['event', 'src', 'locals', 'arg'] as const;
export type Field = (typeof FIELDS)[number];

/**
 * How an execution verdict stands: `pending` until the check has run; then the engine's
 * status (`pass` is the only one that counts as correct).
 */
export const VERDICT_STATUSES = ['pending', 'pass', 'fail', 'error', 'timeout', 'skipped'] as const;
export type VerdictStatus = (typeof VERDICT_STATUSES)[number];

/**
 * The true target as fields: `event` always; `src`, `locals`, `arg` only when the state has
 * them (absent = not applicable). `arg` is the repr as a JSON string, or null.
 */
export interface TargetFields {
  event: StateKind | ExitKind;
  src?: string;
  locals?: Record<string, string>;
  arg?: string | null;
}

/**
 * How `stepscope scores --by` (and the scores API method) breaks a run down: `length` by the
 * trace's events in power-of-two bins (the group is the bin's lower end: 8 means 8 to 15),
 * `depth` by how many calls deep the target state is (`exit` for an exit token).
 */
export const SCORE_BY = ['action', 'direction', 'horizon', 'field', 'length', 'depth'] as const;
export type ScoreBy = (typeof SCORE_BY)[number];

/**
 * One line of scores (`stepscope scores --json`, the API's scores method): percentages,
 * unrounded; null where not applicable or, for pass@k, where some item has fewer than k
 * samples. `group` is null for the whole set.
 */
export interface ScoreLine {
  set: string;
  model: string;
  by: ScoreBy | null;
  group: string | number | null;
  items: number;
  samples: number;
  format_errors: number;
  em_event: number | null;
  em_src: number | null;
  em_locals: number | null;
  em_arg: number | null;
  em_all: number | null;
  exec_pass: number | null;
  'pass@1': number | null;
  'pass@5': number | null;
  'pass@10': number | null;
}
