/**
 * THE API contract of the explorer: method name -> access (read or write), params (validated
 * on arrival) -> result. Each domain declares its methods in its own file here (traces.ts,
 * trajectories.ts, …) and this file assembles them. Both transports serve exactly this:
 * Electron IPC (main/ipc.ts) and HTTP (src/server/). The renderer's client
 * (renderer/src/lib/api.ts) is typed from `Api` below, so a call is checked end to end.
 * Pure: no Node imports, importable from the renderer.
 */
import { dashboardMethods, type DashboardResults } from './dashboard.js';
import { exportMethods, type ExportResults } from './export.js';
import { askMethods, type AskResults } from './ask.js';
import { annotationMethods, type AnnotationResults } from './annotations.js';
import { counterfactualMethods, type CounterfactualResults } from './counterfactuals.js';
import type { Access, MethodSpec } from './method.js';
import { predictionMethods, type PredictionResults } from './predictions.js';
import { rolloutMethods, type RolloutResults } from './rollouts.js';
import { traceMethods, type TraceResults } from './traces.js';
import { trajectoryMethods, type TrajectoryResults } from './trajectories.js';

export type { Access } from './method.js';
export type { ApiFailure, ApiResult } from './result.js';
export type { TraceRow } from '../trace/listing.js';
export type { Direction } from '../semantics/types.js';
export type { Walk, WalkState } from '../semantics/walk-view.js';
export { MAX_EVENT_WINDOW, type TraceInfo } from './traces.js';
export { MAX_COUNTERFACTUAL_SETS, type CounterfactualInfo } from './counterfactuals.js';
export {
  decodeSkeleton,
  decodeSkeletonBytes,
  encodeSkeleton,
  skeletonBytes,
  type Skeleton,
  type SkeletonWire,
} from '../trace/skeleton.js';
export { MAX_WALK_ACTIONS, type TrajectoryRow } from './trajectories.js';
export type { AskResults, CheckedAnswer, StateCheck } from './ask.js';
export type { EvalSetInfo, RunInfo, ItemRow, ItemDetail, PredictionDetail, VerdictInfo } from './predictions.js';
export type { ScoreLine, ScoreBy } from '../semantics/eval.js';
export type { RolloutItem, RolloutRun, RolloutStep, StepAccuracy } from './rollouts.js';
export {
  DASHBOARD_BREAKDOWNS,
  type DashboardBreakdown,
  type RunScores,
  type ScoreInterval,
  type RunComparison,
  type DifferingItem,
  type McNemarResult,
} from './dashboard.js';
export type { ExportBenchmark, ExportPreview, ExportJob, ExportStatus } from './export.js';
export { EXPORT_KINDS, EXPORT_FORMATS, type ExportKind, type ExportFormat } from '../semantics/export-select.js';

export type {
  AnnotationInfo,
  AnnotationItem,
  AgreementInfo,
  DisagreementContext,
  DisagreementInfo,
  HistoryInfo,
  PrelabelInfo,
  Queue,
  QueueEntry,
  ReviewQuota,
} from './annotations.js';

/** Every method, by name: its access and its params validator. */
export const methods = {
  ...traceMethods,
  ...trajectoryMethods,
  ...predictionMethods,
  ...rolloutMethods,
  ...dashboardMethods,
  ...exportMethods,
  ...askMethods,
  ...annotationMethods,
  ...counterfactualMethods,
} satisfies Record<string, MethodSpec>;

export type Method = keyof typeof methods;
export type Params<M extends Method> = ReturnType<(typeof methods)[M]['params']>;

/** Result types, one per method: the static half of the contract. */
export interface Results
  extends
    TraceResults,
    TrajectoryResults,
    PredictionResults,
    RolloutResults,
    DashboardResults,
    ExportResults,
    AskResults,
    AnnotationResults,
    CounterfactualResults {}

export type Api = { [M in Method]: (p: Params<M>) => Results[M] | Promise<Results[M]> };

/** The methods that only read; their handlers get a ReadCorpus. */
export type ReadMethod = { [M in Method]: (typeof methods)[M]['access'] extends 'read' ? M : never }[Method];

/** The methods that write; their handlers get a Corpus. */
export type WriteMethod = Exclude<Method, ReadMethod>;

export const METHODS = Object.keys(methods) as Method[];

export function accessOf(m: Method): Access {
  return methods[m].access;
}
