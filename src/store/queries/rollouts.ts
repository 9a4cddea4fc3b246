/**
 * The predicted states of rollouts, step by step, with their verdicts (schema: src/store/migrations/013-rollouts.ts).
 * The true steps are in queries/evalsets.ts (rollout_targets); a rollout's prediction row is in queries/predictions.ts.
 */
import type Database from 'better-sqlite3';
import { wellFormedString } from '../../common/well-formed.js';
import type { ParseError } from '../../semantics/parse.js';
import type { FieldVerdicts } from '../../semantics/score.js';

/** One predicted state of a rollout, scored against the true state of the same step. */
export interface NewRolloutStep {
  /** 1, 2, …: the state predicted after the item's action number `step`. */
  step: number;
  completion: string;
  finish: string | null;
  em: FieldVerdicts;
  parseError: ParseError | null;
}

export type RolloutStepRecord = NewRolloutStep;

/** Stores the steps of one prediction; call inside a transaction. */
export function insertRolloutSteps(db: Database.Database, predictionId: number, steps: readonly NewRolloutStep[]) {
  const ins = db.prepare(`INSERT INTO rollout_steps (prediction_id, step, completion, finish, format_error,
    parse_error, em_event, em_src, em_locals, em_arg, em_all) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const b = (x: boolean | null) => (x === null ? null : x ? 1 : 0);
  for (const s of steps) {
    ins.run(
      predictionId,
      s.step,
      wellFormedString(s.completion),
      s.finish === null ? null : wellFormedString(s.finish),
      b(s.parseError !== null),
      s.parseError === null ? null : JSON.stringify(s.parseError),
      b(s.em.event),
      b(s.em.src),
      b(s.em.locals),
      b(s.em.arg),
      b(s.em.all),
    );
  }
}

interface StepRow {
  prediction_id: number;
  step: number;
  completion: string;
  finish: string | null;
  parse_error: string | null;
  em_event: number | null;
  em_src: number | null;
  em_locals: number | null;
  em_arg: number | null;
  em_all: number | null;
}

const bool = (x: number | null) => (x === null ? null : x === 1);

/** The steps of each prediction of a run, by prediction id, in step order. */
export function rolloutStepsOfRun(db: Database.Database, runId: number): Map<number, RolloutStepRecord[]> {
  const rows = db
    .prepare(
      `SELECT s.prediction_id, s.step, s.completion, s.finish, s.parse_error, s.em_event, s.em_src, s.em_locals,
        s.em_arg, s.em_all FROM rollout_steps s JOIN predictions p ON p.id = s.prediction_id
      WHERE p.run_id = ? ORDER BY s.prediction_id, s.step`,
    )
    .all(runId) as StepRow[];
  const out = new Map<number, RolloutStepRecord[]>();
  for (const r of rows) {
    let list = out.get(r.prediction_id);
    if (!list) out.set(r.prediction_id, (list = []));
    list.push({
      step: r.step,
      completion: r.completion,
      finish: r.finish,
      em: {
        event: bool(r.em_event),
        src: bool(r.em_src),
        locals: bool(r.em_locals),
        arg: bool(r.em_arg),
        all: bool(r.em_all),
      },
      parseError: r.parse_error === null ? null : (JSON.parse(r.parse_error) as ParseError),
    });
  }
  return out;
}
