/** Execution scoring: see README.md in this folder. */
export type { Job, JobKind, CruxevalJob, CallArgsJob, JobLimits, Status, Verdict, WorkerHello } from './types.js';
export { STATUSES } from './types.js';
export { ExecPool, withExecPool, type ExecPoolOptions, type PoolRunOptions, type SubmitOptions } from './pool.js';
export type { Progress } from './progress.js';
export { passAtK, meanPassAtK } from './passk.js';
export {
  skipReason,
  cruxevalJob,
  benchmarkResults,
  scoreTask,
  scoreCruxeval,
  summarise,
  type CruxevalMode,
  type CruxevalTask,
  type CruxevalOptions,
  type CruxevalScore,
  type TaskScore,
  type GenerationVerdict,
  type SkipRule,
} from './cruxeval.js';
export { readCruxevalTasks, readGenerations, readReleasedVerdicts, type GenerationsFile } from './files.js';
export { compareWithReleased, seedFlips, type ReleasedComparison, type SeedFlip } from './compare.js';
export { scoreUnderTwoSeeds, type SeedComparison } from './seeds.js';
