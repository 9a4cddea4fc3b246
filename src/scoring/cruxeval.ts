/**
 * CRUXEval scoring by execution, as the benchmark's harness does it: per generation
 * `<code>\nassert <output> == <generation>` under a 3 s limit (the worker's job), the skip
 * rule before running, the list of booleans per task, and pass@k over that list.
 *
 * Skip rule (never run): an output prediction whose text contains the literal call
 * `f(<input>)` (it would just call the function), or an input prediction with no `f(`.
 * What a skipped generation becomes depends on the harness version (`SkipRule`):
 * - `'false'` (default; facebookresearch/cruxeval `evaluation/utils_general.py`, which
 *   produced the released leaderboard files): it counts as a wrong answer, so every task
 *   keeps n = its number of generations.
 * - `'drop'` (the later harness behind the website's CoT files): it gets no entry, so the
 *   list gets shorter; if then no entry is true, the list becomes `[false] * n` with n the
 *   number of generations (the fallback rule).
 * The two differ only for tasks with a skipped generation and at least one correct one.
 */
import { meanPassAtK, passAtK } from './passk.js';
import type { ExecPool } from './pool.js';
import type { Progress } from './progress.js';
import type { CruxevalJob, Status, Verdict } from './types.js';

export type CruxevalMode = 'input' | 'output';
export type SkipRule = 'false' | 'drop';

/** One benchmark record (`cruxeval.jsonl`). */
export interface CruxevalTask {
  id: string;
  code: string;
  /** Argument-list text: the call is `f(<input>)`. */
  input: string;
  /** The return value as a Python literal. */
  output: string;
}

/** A generation's verdict; `status: 'skipped'` with `rule: true` when the skip rule applied. */
export interface GenerationVerdict extends Verdict {
  task: string;
  sample: number;
  generation: string;
  /** True when the benchmark's skip rule kept this generation from running. */
  rule: boolean;
}

export interface TaskScore {
  id: string;
  verdicts: GenerationVerdict[];
  /** The benchmark's boolean list after the skip and fallback rules. */
  results: boolean[];
  n: number;
  c: number;
  /** Fractions in [0, 1]; null where k > n. */
  pass1: number | null;
  pass5: number | null;
  pass10: number | null;
}

export interface CruxevalScore {
  mode: CruxevalMode;
  hashseed: number;
  rule: SkipRule;
  tasks: TaskScore[];
  /** Generations seen, and their verdicts by status (rule-skipped ones under `skipped`). */
  generations: number;
  counts: Record<Status, number>;
  /** Percentages over tasks (CRUXEval's figures); null where some task has k > n. */
  pass1: number | null;
  pass5: number | null;
  pass10: number | null;
}

export interface CruxevalOptions {
  mode: CruxevalMode;
  /** Default `'false'`: reproduces the released leaderboard figures. */
  rule?: SkipRule;
  /**
   * Run identical texts for the same task once and share the verdict (default true). The
   * benchmark's programs are deterministic under a fixed hash seed, so this changes no
   * verdict; at temperature 0.2 it saves two runs in three. Set false to run every one.
   */
  dedupe?: boolean;
  /** Called after every run (its `total` counts runs, i.e. distinct texts when deduping). */
  onProgress?: (p: Progress) => void;
}

/** Why the benchmark would not run this generation, or null when it runs. */
export function skipReason(mode: CruxevalMode, task: CruxevalTask, generation: string): string | null {
  if (mode === 'input')
    return generation.includes('f(') ? null : 'skip rule: an input prediction must contain a call f(...)';
  return generation.includes(`f(${task.input})`)
    ? `skip rule: the output prediction contains the call f(${task.input}) itself`
    : null;
}

export function cruxevalJob(mode: CruxevalMode, task: CruxevalTask, generation: string, id: string): CruxevalJob {
  return {
    id,
    kind: mode === 'input' ? 'cruxeval-input' : 'cruxeval-output',
    code: task.code,
    output: task.output,
    generation,
  };
}

/** The benchmark's boolean list for one task's verdicts, in sample order. */
export function benchmarkResults(
  verdicts: readonly Pick<GenerationVerdict, 'status' | 'rule'>[],
  rule: SkipRule,
): boolean[] {
  const results: boolean[] = [];
  for (const v of verdicts) {
    if (v.rule && rule === 'drop') continue;
    results.push(v.status === 'pass');
  }
  if (rule === 'drop' && !results.includes(true)) return verdicts.map(() => false);
  return results;
}

/** Scores of one task from its verdicts. */
export function scoreTask(id: string, verdicts: GenerationVerdict[], rule: SkipRule): TaskScore {
  const results = benchmarkResults(verdicts, rule);
  const n = results.length;
  const c = results.filter(Boolean).length;
  const at = (k: number) => (n === 0 ? null : passAtK(n, c, k));
  return { id, verdicts, results, n, c, pass1: at(1), pass5: at(5), pass10: at(10) };
}

/**
 * Runs every generation of `generations` (`{task id: [text, …]}`, e.g. a generations.json)
 * against its task and scores the tasks. Tasks come out in the order of `tasks`; tasks with
 * no generations are left out. Throws on a generation for an unknown task.
 */
export async function scoreCruxeval(
  pool: ExecPool,
  tasks: readonly CruxevalTask[],
  generations: Readonly<Record<string, readonly string[]>>,
  options: CruxevalOptions,
): Promise<CruxevalScore> {
  const { mode } = options;
  const rule = options.rule ?? 'false';
  const byId = new Map(tasks.map((t) => [t.id, t]));
  for (const id of Object.keys(generations))
    if (!byId.has(id)) throw new Error(`generations for an unknown CRUXEval task: ${id}`);
  const scored = tasks.filter((t) => Object.hasOwn(generations, t.id));
  const dedupe = options.dedupe ?? true;
  // Run key → the generations that share its verdict.
  const slots = new Map<string, GenerationVerdict[]>();
  const table = scored.map((task) =>
    generations[task.id].map((generation, sample): GenerationVerdict => {
      const reason = skipReason(mode, task, generation);
      const v: GenerationVerdict = {
        id: `${task.id}#${sample}`,
        task: task.id,
        sample,
        generation,
        status: 'skipped',
        seconds: 0,
        rule: reason !== null,
      };
      if (reason !== null) {
        v.reason = reason;
        return v;
      }
      const key = dedupe ? `${task.id}\n${generation}` : v.id;
      const shared = slots.get(key);
      if (shared) shared.push(v);
      else slots.set(key, [v]);
      return v;
    }),
  );
  const byTask = new Map(scored.map((t) => [t.id, t]));
  function* jobs() {
    for (const [key, [first]] of slots) yield cruxevalJob(mode, byTask.get(first.task)!, first.generation, key);
  }
  for await (const verdict of pool.run(jobs(), { ordered: false, total: slots.size, onProgress: options.onProgress })) {
    for (const v of slots.get(verdict.id)!) Object.assign(v, verdict, { id: v.id });
  }
  return summarise(
    mode,
    pool.hashseed,
    rule,
    scored.map((t, i) => scoreTask(t.id, table[i], rule)),
  );
}

export function summarise(mode: CruxevalMode, hashseed: number, rule: SkipRule, tasks: TaskScore[]): CruxevalScore {
  const counts: Record<Status, number> = { pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0 };
  let generations = 0;
  for (const t of tasks)
    for (const v of t.verdicts) {
      counts[v.status]++;
      generations++;
    }
  return {
    mode,
    hashseed,
    rule,
    tasks,
    generations,
    counts,
    pass1: meanPassAtK(tasks, 1),
    pass5: meanPassAtK(tasks, 5),
    pass10: meanPassAtK(tasks, 10),
  };
}
