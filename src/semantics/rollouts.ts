/**
 * What a rollout looks like aligned with the truth (docs/predictions.md, "Rollouts"): the shapes `stepscope rollouts
 * --json` writes and the API's getRollouts returns (src/contract/rollouts.ts), made by src/predictions/rollouts.ts.
 * Keys are snake_case like ScoreLine's, since the CLI writes the same objects.
 *
 * Steps are numbered from 1: step k is the state after the item's action number k. A step the rollout never reached
 * (it stopped early at an exit token or a format error, or an imported rollout gave fewer states) has
 * `predicted: null` and counts as wrong.
 */
import type { ParseError } from './parse.js';
import type { FieldVerdicts } from './score.js';
import type { Direction, ExitKind, StateKind } from './types.js';

/** One step of a rollout: the true state the item's actions reach, and what the model predicted there. */
export interface RolloutStep {
  /** 1, 2, …: the state after action number `step`. */
  step: number;
  /** That action, as walk takes it (`step_into`, `breakpoint <src>`). */
  action: string;
  /** The true state (or exit token) as text. */
  target: string;
  /** Where the true state is in the tree of the item's direction (null: an exit): the ghost goes beside it. */
  target_node: number | null;
  target_seq: number | null;
  target_kind: StateKind | ExitKind;
  /** The model's state as it wrote it; null when the rollout did not reach this step. */
  predicted: string | null;
  /** null when not reached; the next-state verdicts of the predicted state against the true one. */
  format_error: boolean | null;
  parse_error: ParseError | null;
  em: FieldVerdicts | null;
  /** em.all: the predicted state equals the true one (false when not reached). */
  right: boolean;
  /**
   * The same model, teacher-forced at this position: em_all of its first sample on the matching next-state item
   * (see RolloutRun.teacher_forced_sets), or null when no such item was answered.
   */
  teacher_forced: boolean | null;
}

/** One rollout: one prediction (sample) of one rollout item. */
export interface RolloutItem {
  /** The item. */
  id: number;
  key: string;
  trace_id: number;
  /** The trace's name. */
  name: string;
  direction: Direction;
  entry: number;
  actions: string[];
  /** The prediction row that summarises the rollout, and its sample number. */
  prediction: number;
  sample: number;
  /** One per action of the item, in order. */
  steps: RolloutStep[];
  /** Steps the rollout predicted. */
  steps_predicted: number;
  /** Steps whose predicted state is right. */
  steps_right: number;
  /** The first step whose state is wrong or not reached; null when every step is right. */
  first_divergence: number | null;
  /** A step after the first divergence is right again. */
  healed: boolean;
  /**
   * How the rollout ended: `end` (every action), `exit` (the model predicted an exit token), `format-error` (a state
   * that could not be read), `short` (fewer states than actions otherwise, e.g. an imported file).
   */
  stopped: 'end' | 'exit' | 'format-error' | 'short';
}

/** Accuracy at one step, over the rollouts whose item has that step. */
export interface StepAccuracy {
  step: number;
  /** Rollouts whose item has this step; of them, right at it (percent: unrounded; null when none). */
  rollouts: number;
  right: number;
  accuracy: number | null;
  /** Of those rollouts, the positions with a teacher-forced answer, the right ones, and their percentage. */
  teacher_forced_items: number;
  teacher_forced_right: number;
  teacher_forced: number | null;
}

/** One run of a rollout set. */
export interface RolloutRun {
  set: string;
  model: string;
  run: number;
  /** The set's items, and the items this run has a rollout for (fewer: a partial run). */
  set_items: number;
  answered: number;
  /** Rollouts (predictions) counted below; several per item with samples. */
  rollouts: number;
  by_step: StepAccuracy[];
  /** How many rollouts first diverge at each step (`step` null: never), steps ascending, null last. */
  first_divergence: { step: number | null; rollouts: number }[];
  /** Rollouts with a step right again after their first divergence. */
  healed: number;
  /**
   * The sets whose run of the same label gave the teacher-forced answers: next-state items of the same corpus with the
   * same trace, direction, entry and actions up to the step (`evalset create --task next-state --prefixes-of SET`
   * makes such a set). Empty when there are none.
   */
  teacher_forced_sets: string[];
  items: RolloutItem[];
}
