/**
 * Counterfactuals in the explorer (docs/explorer.md, "Counterfactuals"): the "Edit value…" form,
 * recording through `recordCounterfactual`, and, while the open trace is a counterfactual (made
 * here or opened from the corpus list), its link to the origin and the origin's own Explorer,
 * whose forward tree is drawn beside the counterfactual's and whose selection follows the main
 * one (same seq), so the inspector can say what changed at each state.
 */
import type { CounterfactualInfo, WalkState } from '@core/contract/index.js';
import type { TraceEvent } from '@core/trace/types.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';
import { span } from '../lib/timing.js';
import { eventName, type Tree } from '../lib/tree/build.js';
import { pathTo } from '../lib/tree/path.js';
import { Explorer, type OpenAt, type StateRef } from './explorer.svelte.js';

export interface EditForm {
  traceId: number;
  seq: number;
  /** The local to set (one of the state's locals). */
  name: string;
  /** A Python literal; prefilled with the local's current repr. */
  value: string;
}

/** The first trajectory that reaches state `seq` of `fwd` (a forward tree): forward from entry 0. */
function openAt(fwd: Tree | null, seq: number): OpenAt | null {
  if (!fwd || seq >= fwd.plainOf.length) return null;
  const node = fwd.plainOf[seq];
  const actions = pathTo(fwd, fwd.plainOf[0], node);
  return (
    actions && {
      direction: 'forward',
      entry: 0,
      actions,
      at: { seq, event: eventName(fwd, node) as WalkState['event'] },
    }
  );
}

export class Counterfactuals {
  /** The open trace's link to its origin; null for a trace recorded plainly. */
  link = $state.raw<CounterfactualInfo | null>(null);
  /** The edit form, while open. */
  form = $state<EditForm | null>(null);
  /** A recording under way (the form's button says so). */
  busy = $state(false);
  /** The API's refusal, shown in the form; nothing else changed. */
  error = $state<string | null>(null);
  /** The origin's trees and its state at the selected seq. */
  readonly origin: Explorer;
  #follows = new Newest();

  constructor(
    private readonly source: DataSource,
    private readonly explorer: Explorer,
    /** A new trace was stored (the corpus list reloads to show it). */
    private readonly stored: () => void = () => undefined,
  ) {
    this.origin = new Explorer(source);
  }

  /** The origin's state at the seq selected in the counterfactual (null: none, or not loaded yet). */
  get originEvent(): TraceEvent | null {
    const e = this.origin.selectedEvent;
    return e && e.seq === this.explorer.selected?.seq ? e : null;
  }

  /** True when the origin has no state at the selected seq (it ended before). */
  get originEnded(): boolean {
    const sk = this.origin.skeleton;
    const s = this.explorer.selected?.seq ?? -1;
    return !!sk && s >= sk.count;
  }

  /** A trace was opened (by any way): learn whether it is a counterfactual, and open its origin beside it. */
  async follow(traceId: number | null): Promise<void> {
    const live = this.#follows.next();
    this.form = null;
    this.error = null;
    if (this.link?.trace === traceId) return;
    this.link = null;
    if (traceId === null) return;
    // The server's recorder of counterfactuals starts now, so the first edit is not slower than the next.
    this.source.call('prepareCounterfactual', { traceId }).catch(() => undefined);
    const link = await this.source.call('getCounterfactual', { traceId }).catch(() => null);
    if (!live()) return;
    this.link = link;
    if (link && this.origin.traceId !== link.origin) await this.origin.open(link.origin);
  }

  /** The origin's selection follows the counterfactual's (its forward tree, same seq). */
  align(sel: StateRef | null): void {
    const t = this.origin.fwd;
    if (!this.link || !sel || !t || sel.seq >= t.plainOf.length) return;
    if (this.origin.selected?.seq === sel.seq) return;
    void this.origin.select({ seq: sel.seq, event: eventName(t, t.plainOf[sel.seq]) });
  }

  /** Opens the form at the selected state, for `name` (else the state's first local). */
  edit(name?: string): void {
    const ev = this.explorer.selectedEvent;
    const id = this.explorer.traceId;
    if (!ev || id === null || this.busy) return;
    const n = name ?? Object.keys(ev.locals)[0] ?? '';
    this.error = null;
    this.form = { traceId: id, seq: ev.seq, name: n, value: ev.locals[n] ?? '' };
  }

  /** Another name chosen in the form: its current value prefilled. */
  choose(name: string): void {
    const ev = this.explorer.selectedEvent;
    if (!this.form) return;
    this.form = { ...this.form, name, value: ev?.seq === this.form.seq ? (ev.locals[name] ?? '') : '' };
  }

  setValue(value: string): void {
    if (this.form) this.form = { ...this.form, value };
  }

  cancel(): void {
    if (this.busy) return;
    this.form = null;
    this.error = null;
  }

  /**
   * Records the counterfactual; on success opens it with its origin beside it. A refusal stays
   * in the form as the API's one line, and nothing else changes.
   */
  async submit(): Promise<void> {
    const f = this.form;
    if (!f || this.busy) return;
    this.busy = true;
    this.error = null;
    // From the click to the new tree drawn, named in the timeline (bench/counterfactual-ui.mjs reads it).
    const t0 = performance.now();
    let inserted = false;
    try {
      const r = await this.source.call('recordCounterfactual', {
        traceId: f.traceId,
        seq: f.seq,
        set: { [f.name]: f.value },
      });
      span('counterfactual: record', t0);
      inserted = r.inserted;
      this.form = null;
      this.#follows.next();
      this.link = { trace: r.trace, origin: r.origin, seq: r.seq, set: r.set, first_difference: r.first_difference };
      // The origin is usually the trace shown until now: its Explorer takes the trees already
      // built (nothing asked again), and the path to the edited state is read from its tree
      // before the new trace replaces it. States before the edit are the origin's, so the new
      // trace opens with its first walk already there (one request).
      const fromOrigin = this.explorer.traceId === r.origin;
      const at = fromOrigin ? openAt(this.explorer.fwd, r.seq) : null;
      if (fromOrigin && this.origin.traceId !== r.origin) this.origin.adopt(this.explorer);
      const origin = this.origin.traceId === r.origin ? this.origin.opening : this.origin.open(r.origin);
      await Promise.all([this.explorer.open(r.trace, at), origin]);
      // Opened where the edit was made (the trajectory walked to it, the camera on it), not at
      // state #0 (a walk there when the path above did not lead to it); a first difference
      // further on is selected, so it is in view too.
      const fwd = this.explorer.fwd;
      if (this.explorer.traceId === r.trace && fwd && r.seq < fwd.plainOf.length) {
        await this.explorer.runTo('forward', fwd.plainOf[r.seq]);
        const d = r.first_difference;
        if (d !== null && d !== r.seq && d < fwd.plainOf.length)
          await this.explorer.select({ seq: d, event: eventName(fwd, fwd.plainOf[d]) });
      }
      span('counterfactual: click to tree', t0);
    } catch (e) {
      this.error = (e as Error).message;
    } finally {
      this.busy = false;
      // The corpus list shows the new trace; reloaded after the tree is drawn, not competing with it.
      if (inserted) this.stored();
    }
  }

  /** Back to the original trace (the counterfactual stays in the corpus). */
  async backToOriginal(): Promise<void> {
    const l = this.link;
    if (l) await this.explorer.open(l.origin);
  }
}
