/**
 * Wire shapes of the execution worker (`python3 -m stepscope_recorder.execute`): one JSON
 * job per line in, one verdict per line out, in order. Keys are exactly the JSON keys.
 */

/** Optional per-job limits; the pool's defaults apply when absent. */
export interface JobLimits {
  /** Wall-clock seconds for the whole run (program + check). Default 3, as CRUXEval. */
  timeout?: number;
  /** Address-space limit (RLIMIT_AS) of the run, in MiB. Default 1024. */
  memory_mb?: number;
}

/**
 * CRUXEval's own check, text for text: `<code>\nassert <output> == <generation>` runs in a
 * fresh namespace. For `cruxeval-input` the generation is the `f(...)` call itself.
 */
export interface CruxevalJob extends JobLimits {
  id: string;
  kind: 'cruxeval-output' | 'cruxeval-input';
  /** The task's source (defines `f`). */
  code: string;
  /** The task's expected return value, as a Python literal. */
  output: string;
  /** The model's text: a literal (output prediction) or an `f(...)` call (input prediction). */
  generation: string;
}

/**
 * Calls `function` of the program `source` with predicted arguments and compares the
 * result. The module body runs as module `__program__` (the recorder's call mode).
 */
export interface CallArgsJob extends JobLimits {
  id: string;
  kind: 'call-args';
  source: string;
  /** A module-level function name (dotted names reach class attributes, e.g. `C.make`). */
  function: string;
  /**
   * Parameter name → repr text, as the locals of an `inv_call` state. `*args` is given as
   * a tuple repr under its own name, `**kwargs` as a dict repr; missing parameters take
   * their defaults. Reprs are evaluated in the program's globals (plus `inf`, `nan`).
   */
  args: Record<string, string>;
  /** Pass when repr(result), cut and address-normalised as in a trace, equals this. */
  expected_repr?: string;
  /** Pass when `result == <expected>` (a Python expression). With both, both must hold. */
  expected?: string;
  /** Cut length for repr(result), as the trace's `limits.repr_chars`. Default 10000. */
  repr_chars?: number;
}

export type Job = CruxevalJob | CallArgsJob;
export type JobKind = Job['kind'];

/**
 * - `pass`: the check held. The only status that counts as correct.
 * - `fail`: the run finished and the comparison was false.
 * - `error`: something raised (bad syntax in the generation, an exception in the program,
 *   arguments that do not evaluate or do not fit the signature, a refused operation such
 *   as opening a socket, MemoryError at the memory limit), or the run died without a
 *   verdict; `error` says what.
 * - `timeout`: the wall-clock limit passed; the run was killed.
 * - `skipped`: the check could not be made (call-args: no such function, an argument the
 *   recorder cut, nothing to compare with; the pool: a cancelled job); `reason` says why.
 */
export type Status = 'pass' | 'fail' | 'error' | 'timeout' | 'skipped';
export const STATUSES: readonly Status[] = ['pass', 'fail', 'error', 'timeout', 'skipped'];

export interface Verdict {
  id: string;
  status: Status;
  /** Seconds from fork to verdict (0 for verdicts made without running). */
  seconds: number;
  /** `error`: the exception repr or what went wrong. */
  error?: string;
  /** `timeout` and `skipped`: why. */
  reason?: string;
  /** `call-args`: repr of the value the call returned (as compared). */
  got?: string;
}

/** The worker's first line. */
export interface WorkerHello {
  worker: 'stepscope-execute';
  version: number;
  python: string;
  /** PYTHONHASHSEED the worker runs under (null: random). */
  hashseed: string | null;
  pid: number;
  /** Whether orphaned descendants are re-parented to the worker and killed (Linux). */
  subreaper: boolean;
  timeout: number;
  memory_mb: number;
  /** What the kernel enforces for each run here (python/README.md, "What holds where"). */
  containment?: {
    /** The run's own uid when the worker is root, else null. */
    uid: number | null;
    /** Landlock ABI version in force for the runs (0: none). */
    landlock: number;
    /** Whether the worker sits in a network namespace of its own. */
    netns: boolean;
    read_cap: boolean;
    /** What is missing here, and why. */
    notes: string[];
  };
}
