/**
 * Runs a run's pending execution checks (verdicts.ts says which are due) with the engine
 * (src/scoring/) and stores their verdicts, in batches, so a stopped run keeps what was
 * checked and the next call picks up the rest.
 *
 * What is run (docs/predictions.md, "Scoring"):
 * - exec on the benchmark's texts: CRUXEval's own check, with its skip rule (a skipped text
 *   is stored `skipped` with `exec_rule` = 1 and counts as wrong: the rule of the harness
 *   that scored the released files);
 * - exec on predicted states: cruxeval-output runs the predicted return value (`arg`) as the
 *   output literal; cruxeval-input calls f with the predicted arguments (`locals`) and
 *   compares the result with `==` to the task's output;
 * - alt: the traced function called with the predicted arguments; it passes when repr(result)
 *   is the true call's. Predicted arguments equal to the true ones pass without a run.
 * A completion with nothing to run (a format error, no value, no arguments) is `skipped`,
 * with the reason, and counts as wrong. Identical checks of one item run once.
 */
import { parsePrediction } from '../semantics/index.js';
import { define } from '../semantics/delta.js';
import {
  cruxevalJob,
  skipReason,
  withExecPool,
  type CruxevalMode,
  type CruxevalTask,
  type ExecPoolOptions,
  type Job,
  type Progress,
  type Verdict,
} from '../scoring/index.js';
import type { VerdictStatus } from '../semantics/index.js';
import type {
  Corpus,
  PendingCheck,
  ReadCorpus,
  RunRecord,
  StoredItem,
  TraceRecord,
  VerdictUpdate,
} from '../store/corpus.js';
import { execMode } from './verdicts.js';

export interface CheckOptions {
  /** Pool settings; the hash seed is the run's unless given (`--seed-check`). */
  pool?: ExecPoolOptions;
  onProgress?: (p: Progress) => void;
  /** Stops submitting checks; what was checked is kept. */
  signal?: AbortSignal;
}

export interface CheckSummary {
  /** Checks stored (exec and alt counted apart). */
  checked: number;
  /** Checks actually run by the engine (the rest: skip rule, nothing to run, shared texts, true arguments). */
  ran: number;
}

/** One check to make: a job for the engine, or a verdict known without running. */
export interface Planned {
  prediction: number;
  check: 'exec' | 'alt';
  rule: boolean;
  /** Run key: checks with the same key share one run. */
  key: string;
  job: Job | null;
  known: Verdict | null;
}

/** Caches what the checks of one run need per item and per trace. */
class Context {
  private readonly items = new Map<number, StoredItem>();
  private readonly traces = new Map<number, TraceRecord>();
  constructor(private readonly corpus: ReadCorpus) {}

  item(id: number): StoredItem {
    let it = this.items.get(id);
    if (!it) this.items.set(id, (it = this.corpus.getItem(id)!));
    return it;
  }

  trace(id: number): TraceRecord {
    let t = this.traces.get(id);
    if (!t) this.traces.set(id, (t = this.corpus.getTrace(id)!));
    return t;
  }

  /** The CRUXEval task a trace was recorded from (record-cruxeval keeps id, input and output in meta). */
  task(item: StoredItem): CruxevalTask | null {
    const t = this.trace(item.traceId);
    const { input, output } = t.meta;
    if (t.meta.task !== 'cruxeval' || typeof input !== 'string' || typeof output !== 'string') return null;
    return { id: item.key, code: t.source, input, output };
  }

  /** The name of the function whose call the item's target is (an inv_call). */
  calledName(item: StoredItem): string | null {
    if (item.targetSeq === null) return null;
    return this.corpus.getEvents(item.traceId, item.targetSeq, item.targetSeq + 1)[0]?.func ?? null;
  }
}

const skipped = (id: string, reason: string): Verdict => ({ id, status: 'skipped', seconds: 0, reason });

/** Predicted arguments as name → repr text, or why they cannot be run. */
function predictedArgs(completion: string): Record<string, string> | string {
  const p = parsePrediction(completion);
  if (!p.ok) return `not run: the completion is not a state (${p.error.message})`;
  const locals = p.value.locals;
  if (locals === undefined) return 'not run: the predicted state has no arguments';
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(locals)) {
    if (typeof v !== 'string' || k === '..') return `not run: the argument ${JSON.stringify(k)} is not a repr`;
    define(out, k, v); // a parameter may be named __proto__
  }
  return out;
}

function planExec(ctx: Context, run: RunRecord, mode: CruxevalMode, p: PendingCheck): Planned {
  const item = ctx.item(p.itemId);
  const id = `exec:${p.id}`;
  const plan = (key: string, job: Job | null, known: Verdict | null = null, rule = false): Planned => ({
    prediction: p.id,
    check: 'exec',
    rule,
    key,
    job,
    known,
  });
  const task = ctx.task(item);
  if (!task)
    return plan(id, null, skipped(id, 'not run: the trace was not recorded from a CRUXEval task (record-cruxeval)'));
  if (run.format === 'cruxeval') {
    const reason = skipReason(mode, task, p.completion);
    if (reason !== null) return plan(id, null, skipped(id, reason), true);
    return plan(`${p.itemId}\n${mode}\n${p.completion}`, cruxevalJob(mode, task, p.completion, id));
  }
  if (mode === 'output') {
    const parsed = parsePrediction(p.completion);
    const arg = parsed.ok ? parsed.value.arg : undefined;
    if (!parsed.ok)
      return plan(id, null, skipped(id, `not run: the completion is not a state (${parsed.error.message})`));
    if (typeof arg !== 'string') return plan(id, null, skipped(id, 'not run: the predicted state has no return value'));
    return plan(`${p.itemId}\noutput\n${arg}`, cruxevalJob('output', task, arg, id));
  }
  const args = predictedArgs(p.completion);
  if (typeof args === 'string') return plan(id, null, skipped(id, args));
  const key = `${p.itemId}\ninput\n${JSON.stringify(Object.entries(args).sort())}`;
  return plan(key, { id, kind: 'call-args', source: task.code, function: 'f', args, expected: task.output });
}

function planAlt(ctx: Context, p: PendingCheck): Planned {
  const item = ctx.item(p.itemId);
  const id = `alt:${p.id}`;
  const plan = (key: string, job: Job | null, known: Verdict | null = null): Planned => ({
    prediction: p.id,
    check: 'alt',
    rule: false,
    key,
    job,
    known,
  });
  if (p.emLocals === true)
    return plan(id, null, { id, status: 'pass', seconds: 0, reason: 'the true arguments', got: item.callReturn! });
  const args = predictedArgs(p.completion);
  if (typeof args === 'string') return plan(id, null, skipped(id, args));
  const fn = ctx.calledName(item);
  if (fn === null) return plan(id, null, skipped(id, 'not run: the call is not in the trace'));
  const trace = ctx.trace(item.traceId);
  const key = `${p.itemId}\nalt\n${JSON.stringify(Object.entries(args).sort())}`;
  return plan(key, {
    id,
    kind: 'call-args',
    source: trace.source,
    function: fn,
    args,
    expected_repr: item.callReturn!,
    repr_chars: trace.limits.repr_chars,
  });
}

/** The checks due for a run's pending predictions, in prediction order. */
export function planChecks(corpus: ReadCorpus, run: RunRecord, pending: readonly PendingCheck[]): Planned[] {
  const set = corpus.listEvalSets().find((s) => s.id === run.setId)!;
  const mode = execMode(set.task, run.format);
  const ctx = new Context(corpus);
  const out: Planned[] = [];
  for (const p of pending) {
    if (p.exec)
      out.push(
        mode
          ? planExec(ctx, run, mode, p)
          : {
              prediction: p.id,
              check: 'exec',
              rule: false,
              key: `exec:${p.id}`,
              job: null,
              known: skipped(`exec:${p.id}`, 'no execution check for this set'),
            },
      );
    if (p.alt) out.push(planAlt(ctx, p));
  }
  return out;
}

function update(p: Planned, v: Verdict): VerdictUpdate {
  const detail = v.error ?? v.reason ?? null;
  return p.check === 'exec'
    ? { id: p.prediction, exec: { status: v.status, detail, rule: p.rule } }
    : { id: p.prediction, alt: { status: v.status, detail, got: v.got ?? null } };
}

/**
 * Runs the checks of `planned` (verdicts streamed back in any order) and hands each
 * planned check its verdict. Used to store verdicts, and by `--seed-check` to compare.
 */
export async function executePlanned(
  planned: readonly Planned[],
  options: CheckOptions,
  each: (p: Planned, v: Verdict) => void,
): Promise<number> {
  const shared = new Map<string, Planned[]>();
  for (const p of planned) {
    if (p.known) each(p, p.known);
    else {
      const list = shared.get(p.key);
      if (list) list.push(p);
      else shared.set(p.key, [p]);
    }
  }
  if (shared.size === 0) return 0;
  const groups = [...shared.values()];
  const signal = options.signal;
  function* jobs(): Generator<Job> {
    for (let i = 0; i < groups.length; i++) {
      if (signal?.aborted) return;
      yield { ...groups[i][0].job!, id: String(i) };
    }
  }
  let ran = 0;
  await withExecPool(options.pool ?? {}, async (pool) => {
    for await (const v of pool.run(jobs(), { ordered: false, total: groups.length, onProgress: options.onProgress })) {
      ran++;
      for (const p of groups[Number(v.id)]) each(p, v);
    }
  });
  return ran;
}

/** Runs the pending checks of a run and stores their verdicts (every 200, and at the end). */
export async function runPendingChecks(
  corpus: Corpus,
  runId: number,
  options: CheckOptions = {},
): Promise<CheckSummary> {
  const run = corpus.getRunById(runId);
  if (!run) throw new Error(`no run ${runId}`);
  const planned = planChecks(corpus, run, corpus.pendingChecks(runId));
  let batch: VerdictUpdate[] = [];
  let checked = 0;
  const flush = () => {
    if (batch.length) corpus.setVerdicts(batch);
    checked += batch.length;
    batch = [];
  };
  let ran: number;
  try {
    ran = await executePlanned(planned, { ...options, pool: { hashseed: run.hashseed, ...options.pool } }, (p, v) => {
      batch.push(update(p, v));
      if (batch.length >= 200) flush();
    });
  } finally {
    flush();
  }
  return { checked, ran };
}

/** A verdict that is not the same under another hash seed. */
export interface SeedChange {
  prediction: number;
  item: string;
  sample: number;
  check: 'exec' | 'alt';
  /** Stored (under the run's seed), and under the other seed. */
  stored: VerdictStatus;
  other: VerdictStatus;
}

/**
 * Runs a run's checks again under another hash seed (nothing stored) and lists the verdicts
 * that change: programs iterating over sets or dicts of strings may pass under one seed only.
 */
export async function seedCheck(
  corpus: ReadCorpus,
  runId: number,
  hashseed: number,
  options: CheckOptions = {},
): Promise<{ checked: number; changes: SeedChange[] }> {
  const run = corpus.getRunById(runId);
  if (!run) throw new Error(`no run ${runId}`);
  const checked = corpus.checkedPredictions(runId);
  const byId = new Map(checked.map((c) => [c.id, c]));
  const changes: SeedChange[] = [];
  let n = 0;
  await executePlanned(
    planChecks(corpus, run, checked),
    { ...options, pool: { ...options.pool, hashseed } },
    (p, v) => {
      n++;
      const c = byId.get(p.prediction)!;
      const stored = (p.check === 'exec' ? c.execStatus : c.altStatus)!;
      if (stored !== v.status)
        changes.push({ prediction: p.prediction, item: '', sample: 0, check: p.check, stored, other: v.status });
    },
  );
  for (const ch of changes) {
    const pr = [
      ...corpus.iteratePredictions({ setId: run.setId, runId, itemId: byId.get(ch.prediction)!.itemId }),
    ].find((x) => x.id === ch.prediction)!;
    ch.item = pr.itemKey;
    ch.sample = pr.sample;
  }
  changes.sort((a, b) => a.prediction - b.prediction || a.check.localeCompare(b.check));
  return { checked: n, changes };
}
