/**
 * The rollout of the explorer (docs/explorer.md, "Rollouts"): with a rollout set chosen in the overlay bar, the run's
 * rollouts of the open trace (getRollouts), the one open, and the step shown. Opening a rollout replays its actions,
 * so the explorer's cursor is the step (cursor k: the state after action k) and the usual keys step through it; the
 * trees draw each predicted state beside the true node it should equal (views/tree/RolloutLayer.svelte). The
 * selected step is checked with checkCompletions, the overlay's field-by-field diff of predicted against true.
 */
import type { RolloutItem, RolloutRun, RolloutStep, StateCheck } from '@core/contract/index.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';
import type { Explorer } from './explorer.svelte.js';

/** A step's colour: the overlay's verdicts (a step not reached counts as wrong). */
export function stepVerdict(s: RolloutStep): 'pass' | 'fail' | 'format' {
  if (s.predicted !== null && s.format_error) return 'format';
  return s.right ? 'pass' : 'fail';
}

export class Rollouts {
  /** The run of the chosen set and run, with the rollouts of the open trace only. */
  run = $state.raw<RolloutRun | null>(null);
  runTrace = $state<number | null>(null);
  open = $state.raw<RolloutItem | null>(null);
  /** The selected step checked against the truth (null while loading, before step 1, or not reached). */
  check = $state.raw<{ step: number; result: StateCheck } | null>(null);
  error = $state<string | null>(null);

  #loads = new Newest();
  /** Apart from the loads: opening a rollout's trace loads the trace's rollouts, which must not cancel the open. */
  #opens = new Newest();
  #checks = new Newest();

  constructor(
    private readonly source: DataSource,
    private readonly explorer: Explorer,
  ) {}

  /** The run's rollouts of the open trace; none when `set` is '' (not a rollout set). */
  async load(set: string, run: string): Promise<void> {
    const live = this.#loads.next();
    const traceId = this.explorer.traceId;
    if (!set || !run || traceId === null) {
      this.run = null;
      this.runTrace = traceId;
      if (!set) this.open = null;
      return;
    }
    try {
      const [r] = await this.source.call('getRollouts', { set, run, traceId });
      if (!live()) return;
      this.run = r ?? null;
      this.runTrace = traceId;
      if (this.open && !r?.items.some((i) => i.prediction === this.open!.prediction)) this.open = null;
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  /**
   * Opens rollout item `id` of `set`'s run `run` at `step` (default: its first divergence, else its last step):
   * its trace, the actions replayed up to that step.
   */
  async openItem(set: string, run: string, id: number, step?: number): Promise<void> {
    const live = this.#opens.next();
    this.error = null;
    try {
      let it = this.run?.set === set && this.run.model === run ? this.run.items.find((i) => i.id === id) : undefined;
      if (!it) {
        const [r] = await this.source.call('getRollouts', { set, run });
        it = r?.items.find((i) => i.id === id);
        if (!it) throw new Error(`no rollout of ${run} for item ${id} in the set "${set}"`);
      }
      if (!live()) return;
      if (this.explorer.traceId !== it.trace_id) await this.explorer.open(it.trace_id);
      const at = Math.min(it.actions.length, Math.max(0, step ?? it.first_divergence ?? it.actions.length));
      await this.explorer.replay(it.direction, it.entry, it.actions, at);
      if (!live()) return;
      this.open = it;
      if (this.runTrace !== it.trace_id || this.run?.set !== set) await this.load(set, run);
    } catch (e) {
      if (live()) this.error = `Rollout ${id}: ${(e as Error).message}`;
    }
  }

  close(): void {
    this.#opens.next();
    this.open = null;
    this.check = null;
  }

  /** The step shown: the explorer's cursor while it stands on the open rollout's trajectory, else null. */
  get step(): number | null {
    const it = this.open;
    const ex = this.explorer;
    if (!it || ex.traceId !== it.trace_id || ex.direction !== it.direction || ex.entry !== it.entry) return null;
    if (ex.cursor > it.actions.length) return null;
    for (let j = 0; j < ex.cursor; j++) if (ex.actions[j] !== it.actions[j]) return null;
    return ex.cursor;
  }

  /** Moves the explorer to step `k` of the open rollout (0: its entry). */
  goTo(k: number): Promise<void> {
    const it = this.open;
    if (!it) return Promise.resolve();
    return this.explorer.replay(it.direction, it.entry, it.actions, Math.max(0, Math.min(k, it.actions.length)));
  }

  /** Checks the predicted state of step `k` against the truth there (the overlay's diff); called when k changes. */
  async checkStep(k: number | null): Promise<void> {
    const live = this.#checks.next();
    const it = this.open;
    const s = it && k ? it.steps[k - 1] : undefined;
    if (!it || !s || s.predicted === null) {
      this.check = null;
      return;
    }
    try {
      const result = await this.source.call('checkCompletions', {
        traceId: it.trace_id,
        direction: it.direction,
        entry: it.entry,
        actions: it.actions.slice(0, k!),
        completions: [s.predicted],
      });
      if (live() && this.open === it) this.check = { step: k!, result };
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }
}
