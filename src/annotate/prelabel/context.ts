/**
 * What every rule may ask about one prediction, computed once and only when asked: the parse,
 * the field diff, the program's outline, the line numbers of the true, predicted and previous
 * states, the full true and previous locals, and a verdict per differing local.
 */
import type { Parsed, Prediction } from '../../semantics/parse.js';
import { ELIDED_KEY } from '../../semantics/delta.js';
import { boundNames } from './bindings.js';
import { readCompletion } from './completion-form.js';
import { fieldDiff, type FieldDiff, type LocalDiff } from './diff.js';
import type { PrelabelInput } from './input.js';
import { Outline } from './outline.js';
import { reprType } from './repr.js';

/** `elided`: left out under the prediction's ".." marker where the truth shows every local (see judge). */
export type LocalKind = 'invented' | 'missing' | 'mutation' | 'type' | 'value' | 'unchanged' | 'elided' | 'unknown';

export interface LocalVerdict extends LocalDiff {
  kind: LocalKind;
  /** The true value when the truth does not show it (unchanged), or the value before the step. */
  full?: string;
  before?: string;
}

const CALLS = new Set(['call', 'inv_call']);
const SINGLE_STEPS = new Set(['step_into', 'step_over', 'inv_step_into', 'inv_step_over']);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function memo<T>(f: () => T): () => T {
  let done = false;
  let v: T;
  return () => (done ? v : ((done = true), (v = f())));
}

export class RuleContext {
  readonly parsed: Parsed<Prediction>;
  /** The parsed prediction, when it parses. */
  readonly pred?: Prediction;
  readonly diff?: FieldDiff;
  /** Fields explained by a rule so far: `text`, `event`, `src`, `arg`, `local:<name>`, `locals` (every one), `all`. */
  readonly covered = new Set<string>();

  constructor(readonly input: PrelabelInput) {
    this.parsed = readCompletion(input.completion, input.completionForm ?? 'state', input.truth);
    if (this.parsed.ok) {
      this.pred = this.parsed.value;
      this.diff = fieldDiff(this.pred, input.truth);
    }
  }

  get truth(): Prediction {
    return this.input.truth;
  }

  isCovered(field: string): boolean {
    if (this.covered.has('all') || this.covered.has(field)) return true;
    return field.startsWith('local') && this.covered.has('locals');
  }

  /** The action moved by exactly one line of the same frame (so the previous line is the one that ran). */
  get singleStep(): boolean {
    return this.input.action !== undefined && SINGLE_STEPS.has(this.input.action);
  }

  readonly outline = memo(() => (this.input.source === undefined ? undefined : new Outline(this.input.source)));

  /** The previous state is an earlier (forward) or later (inverse) state of the true state's frame instance. */
  readonly sameFrame = memo(() => {
    const prev = this.input.previous;
    if (!prev || CALLS.has(this.truth.event) || this.input.action === 'breakpoint') return false;
    const a = this.input.trueEvent?.frame;
    const b = prev.event?.frame;
    if (a !== undefined && b !== undefined) return a === b;
    const fwd = this.input.direction === 'forward';
    // Without frame numbers: a forward step from a call or line stays in the frame; leaving it shows a return.
    return fwd
      ? prev.state.event === 'line' || prev.state.event === 'call'
      : prev.state.event === 'inv_line' || prev.state.event === 'inv_return';
  });

  /**
   * The prediction is written as a delta (its ".." marker) where the truth shows every local:
   * a breakpoint's target, or the first state seen in another frame (not a call's, whose
   * arguments are new). A name left out there is the delta form misused, not a name missed.
   * (A truth without a marker is the defensive half: after another frame it is always so.)
   */
  readonly deltaWhereFull = memo(
    () =>
      !!this.input.previous &&
      !CALLS.has(this.truth.event) &&
      !this.sameFrame() &&
      has(this.pred?.locals ?? {}, ELIDED_KEY) &&
      !has(this.truth.locals ?? {}, ELIDED_KEY),
  );

  /** All locals of the previous state, when it is in the same frame. */
  readonly prevLocals = memo((): Record<string, string> | undefined => {
    if (!this.sameFrame()) return undefined;
    const prev = this.input.previous!;
    if (prev.event) return prev.event.locals;
    const shown = prev.state.locals as Record<string, string> | undefined;
    return shown && !has(shown, ELIDED_KEY) ? shown : undefined;
  });

  /** All locals of the true state: recorded, or shown in full, or rebuilt from the previous state and the delta. */
  readonly trueLocals = memo((): Record<string, string> | undefined => {
    if (this.input.trueEvent) return this.input.trueEvent.locals;
    const shown = this.truth.locals as Record<string, string> | undefined;
    if (!shown) return undefined;
    if (!has(shown, ELIDED_KEY)) return shown;
    const prev = this.prevLocals();
    if (!prev || this.input.direction !== 'forward') return undefined;
    const out = { ...prev };
    for (const [k, v] of Object.entries(shown)) if (k !== ELIDED_KEY) out[k] = v;
    return out;
  });

  /** The program line that ran between the previous and the true state, when exactly one did. */
  readonly executedLine = memo((): string | undefined => {
    if (!this.singleStep || !this.sameFrame()) return undefined;
    return this.input.direction === 'forward' ? this.input.previous!.state.src : this.truth.src;
  });

  /** A line number for `src`: the only line with that text, else the one in `near`'s function closest to it. */
  private lineOf(src: string | undefined, near?: number): number | undefined {
    const o = this.outline();
    if (!o || src === undefined) return undefined;
    const lines = o.linesOf(src);
    if (lines.length < 2 || near === undefined) return lines[0];
    const fn = o.functionOf(near);
    const inFn = lines.filter((l) => o.functionOf(l) === fn);
    return (inFn.length ? inFn : lines).sort((a, b) => Math.abs(a - near) - Math.abs(b - near))[0];
  }

  readonly prevLine = memo(
    () => this.input.previous?.event?.line ?? this.lineOf(this.input.previous?.state.src, this.input.trueEvent?.line),
  );
  readonly trueLine = memo(() => this.input.trueEvent?.line ?? this.lineOf(this.truth.src, this.prevLine()));
  readonly predLine = memo(() => this.lineOf(this.pred?.src, this.trueLine() ?? this.prevLine()));

  /** How each differing local is wrong (docs in src/annotate/README.md, "Data rules"). */
  readonly locals = memo((): LocalVerdict[] =>
    (this.diff?.localDiffs ?? []).filter((d) => !d.notString).map((d) => this.judge(d)),
  );

  private judge(d: LocalDiff): LocalVerdict {
    const full = this.trueLocals();
    const prev = this.prevLocals();
    const ran = this.executedLine();
    const rebound = ran === undefined ? undefined : boundNames(ran).has(d.name);
    const before = prev && has(prev, d.name) ? prev[d.name] : undefined;
    const v: Omit<LocalVerdict, 'kind'> = { ...d };
    if (before !== undefined) v.before = before;
    const typeOrValue = (a: string, b: string): LocalKind => {
      const ta = reprType(a);
      const tb = reprType(b);
      return ta && tb && ta !== tb ? 'type' : 'value';
    };
    if (d.truth === undefined) {
      // Shown by the model only: a name the frame lacks, or one the delta leaves out as unchanged.
      if (!full) return { ...v, kind: has(this.truth.locals ?? {}, ELIDED_KEY) ? 'unknown' : 'invented' };
      if (!has(full, d.name)) return { ...v, kind: 'invented' };
      v.full = full[d.name];
      return { ...v, kind: d.predicted === full[d.name] ? 'unchanged' : typeOrValue(d.predicted!, full[d.name]) };
    }
    if (d.predicted === undefined) {
      // Shown by the truth only: left out under a delta's marker where none may be (elided), new
      // (missing), or changed while the model kept it (mutation or value).
      if (CALLS.has(this.truth.event) || before === undefined)
        return { ...v, kind: this.deltaWhereFull() ? 'elided' : 'missing' };
      return { ...v, kind: rebound === false ? 'mutation' : 'value' };
    }
    if (before !== undefined && d.predicted === before && rebound === false) return { ...v, kind: 'mutation' };
    return { ...v, kind: typeOrValue(d.predicted, d.truth) };
  }
}
