/**
 * The predictions domain of the API (docs/predictions.md, "API"): evaluation sets, the runs
 * of a set, items with their verdicts (what the explorer's overlay draws on the tree: each
 * item's trace, direction, entry, actions and target node), one item with its predictions
 * and their parsed fields, and a run's scores (the lines of `stepscope scores --json`).
 * Read-only; sets and runs are made by the CLI.
 */
import type {
  EvalTask,
  FieldVerdicts,
  Prediction,
  ParseError,
  ScoreLine,
  TargetFields,
  VerdictStatus,
} from '../semantics/index.js';
import { SCORE_BY, type Direction, type ExitKind, type StateKind } from '../semantics/index.js';
import { read } from './method.js';
import { recordId } from './traces.js';
import { int, InvalidValue, object, oneOf, optional, str, type Validator } from './validate.js';

/** An evaluation set's name or a run's label, as the CLI and the API take them. */
export const recordName: Validator<string> = (v, p) => {
  const s = str(200)(v, p);
  if (s.trim() === '') throw new InvalidValue(p, 'a non-empty name of at most 200 characters', s);
  return s;
};

export const predictionMethods = {
  listEvalSets: read(object({})),
  listRuns: read(object({ set: recordName })),
  listItems: read(
    object({
      set: recordName,
      run: optional(recordName),
      traceId: optional(recordId),
      offset: optional(int(0)),
      limit: optional(int(1, 1000)),
    }),
  ),
  getItem: read(object({ id: recordId, run: optional(recordName) })),
  getScores: read(object({ set: recordName, run: recordName, by: optional(oneOf(SCORE_BY)) })),
};

export interface EvalSetInfo {
  id: number;
  name: string;
  task: EvalTask;
  items: number;
  /** The options it was made with. */
  options: Record<string, unknown>;
  /** Labels of its runs, in the order they were made. */
  runs: string[];
  created: string;
}

export interface RunInfo {
  id: number;
  set: string;
  label: string;
  /** `state`: serialized states; `cruxeval`: the benchmark's own texts (no field verdicts). */
  format: 'state' | 'cruxeval';
  params: Record<string, unknown>;
  source: string;
  sourceHash: string | null;
  hashseed: number;
  predictions: number;
  /** Items answered (at least one prediction). */
  items: number;
  /** Items of the set: fewer answered than this is a partial run, and every view says so. */
  setItems: number;
  /** Predictions whose execution check has not run yet. */
  pending: number;
  created: string;
}

/** A prediction's verdicts, without its text. */
export interface VerdictInfo {
  prediction: number;
  run: string;
  sample: number;
  formatError: boolean | null;
  em: FieldVerdicts;
  exec: VerdictStatus | null;
  alt: VerdictStatus | null;
  correct: boolean | null;
}

/** An item as the overlay needs it: where its target is, and the run's verdicts. */
export interface ItemRow {
  id: number;
  key: string;
  traceId: number;
  /** The trace's name. */
  name: string;
  direction: Direction;
  entry: number;
  /** As walk takes them: `step_into`, `breakpoint <src>` … */
  actions: string[];
  action: string;
  horizon: number | null;
  /**
   * The node the last action leads to in the tree of `direction` (null: an exit), its seq, its shown kind or exit name.
   */
  targetNode: number | null;
  targetSeq: number | null;
  targetKind: StateKind | ExitKind;
  verdicts: VerdictInfo[];
}

export interface PredictionDetail extends VerdictInfo {
  completion: string;
  finish: string | null;
  /** The fields read from the completion (null: a format error, or a CRUXEval text). */
  parsed: Prediction | null;
  parseError: ParseError | null;
  execDetail: string | null;
  altDetail: string | null;
  /** What the predicted call returned (valid-alternative check). */
  altGot: string | null;
}

export interface ItemDetail extends ItemRow {
  /** The name of the evaluation set the item belongs to. */
  set: string;
  prompt: string;
  target: string;
  truth: TargetFields;
  /** For a call's arguments: what the true call returned. */
  callReturn: string | null;
  predictions: PredictionDetail[];
}

export interface PredictionResults {
  listEvalSets: EvalSetInfo[];
  listRuns: RunInfo[];
  listItems: { total: number; rows: ItemRow[] };
  getItem: ItemDetail;
  getScores: ScoreLine[];
}
