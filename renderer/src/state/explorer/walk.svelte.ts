/**
 * The trajectory being walked through the open trace: its direction, entry, action history
 * and cursor, the walk the API computed for the actions up to the cursor, where each action
 * leads from its last state, and the note the last move left for the user. Every change of
 * the cursor asks the API for the walk again; only the newest answer lands.
 */
import type { Direction, TrajectoryRow, Walk, WalkState } from '@core/contract/index.js';
import { Newest } from '../../lib/newest.js';
import type { DataSource } from '../../lib/source.js';
import { eventName, nodeOf } from '../../lib/tree/build.js';
import { pathTo } from '../../lib/tree/path.js';
import { probeActions, type ActionTarget } from '../action-targets.js';
import type { TraceView } from './trace-view.svelte.js';

export class Walker {
  direction = $state<Direction>('forward');
  entry = $state(0);
  actions = $state.raw<string[]>([]);
  cursor = $state(0);
  walk = $state.raw<Walk | null>(null);
  /** What the last action did that the user should know (cleared by the next move). */
  message = $state<string | null>(null);
  /** Lines with the text of the line a breakpoint stopped elsewhere for (marked in the code). */
  sameText = $state.raw<number[]>([]);
  /** The line the user chose in "Run to line" (0: none yet); the breakpoint edge of the trees leads there. */
  chosenLine = $state(0);
  /** Where each action leads from the current state (action-targets.ts), for the edges drawn. */
  targets = $state.raw<ActionTarget[]>([]);
  /** Id of the opened saved trajectory while the history still follows it. */
  trajectoryId = $state<number | null>(null);

  /**
   * Until a new trace's first walk lands: the state its first trajectory starts at (forward,
   * entry 0, no action: the trace's first event), known from the skeleton, so the trees are
   * drawn with their current node without waiting for the server's walk.
   */
  #start = $state.raw<WalkState | null>(null);
  current = $derived(this.walk ? (this.walk.states[this.walk.states.length - 1] ?? null) : this.#start);
  ended = $derived(this.walk?.exit != null);
  /** Index in the walk of the selected state (its latest visit), or -1 when the walk does not show it. */
  selectedIndex = $derived.by(() => {
    const w = this.walk;
    const sel = this.view.selected;
    if (!w || !sel) return -1;
    for (let j = w.states.length - 1; j >= 0; j--)
      if (w.states[j].seq === sel.seq && w.states[j].event === sel.event) return j;
    return -1;
  });

  // Only the newest request of each kind lands: a slow walk must not replace the ones asked for after it.
  #walks = new Newest();
  #probes = new Newest();

  constructor(
    private readonly source: DataSource,
    private readonly view: TraceView,
  ) {}

  /** A new trace is shown: nothing of the old trace's walk stays, nor the line chosen in it. */
  forgetTrace(): void {
    this.close();
    this.chosenLine = 0;
  }

  /** The new trace's trees landed: its first trajectory's state is drawn before its walk lands. */
  startAt(start: WalkState): void {
    this.#start = start;
  }

  /** Starts a new trajectory (history cleared) at `entry` (seq of a call) in `direction`. */
  async restart(
    direction: Direction,
    entry = this.entry,
    actions: string[] = [],
    prefetched?: Promise<Walk>,
  ): Promise<void> {
    this.direction = direction;
    this.entry = entry;
    this.actions = actions;
    this.cursor = actions.length;
    this.say(null);
    this.trajectoryId = null;
    await this.refresh(prefetched);
  }

  /**
   * Applies actions (as text, e.g. `step_over` or `breakpoint <src>`) after the cursor. An
   * action equal to the next one of the redo history just moves forward (an opened saved
   * trajectory stays opened); any other drops the redo history. Actions are queued: each one
   * is judged against the walk its predecessor produced, so a key held down cannot step past
   * an exit before the exit has arrived from the API.
   */
  act(...actions: string[]): Promise<void> {
    this.#queue = this.#queue.then(() => this.#act(actions));
    return this.#queue;
  }

  #queue: Promise<void> = Promise.resolve();

  async #act(actions: string[]): Promise<void> {
    // The trees and their current node are drawn before the first walk lands, so a key pressed
    // then is one the user meant: it waits for that walk instead of being dropped.
    if (this.walk === null) await this.view.opening;
    if (this.view.traceId === null || this.walk === null || !actions.length) return; // no trace, or its open failed
    const inverse = actions[0].startsWith('inv_');
    if (inverse !== (this.direction === 'inverse')) {
      if (this.cursor === 0) {
        await this.restart(inverse ? 'inverse' : 'forward', this.entry);
      } else {
        const a = actions[0];
        this.message = `${a} is ${inverse ? 'an inverse' : 'a forward'} action; this trajectory is ${this.direction}. Restart it ${inverse ? 'inverse' : 'forward'} first.`;
        return;
      }
    }
    if (this.ended) {
      this.message = 'The trajectory has exited; go back or restart.';
      return;
    }
    const follows = actions.every((a, j) => this.actions[this.cursor + j] === a);
    if (!follows) {
      this.actions = [...this.actions.slice(0, this.cursor), ...actions];
      this.trajectoryId = null;
    }
    this.cursor += actions.length;
    this.say(null);
    await this.refresh();
  }

  async back(): Promise<void> {
    if (this.cursor > 0) await this.goTo(this.cursor - 1);
  }

  async forward(): Promise<void> {
    if (this.cursor < this.actions.length) await this.goTo(this.cursor + 1);
  }

  /** Moves the cursor to k actions applied (0 = the start), keeping the history. */
  async goTo(k: number): Promise<void> {
    if (k < 0 || k > this.actions.length) return;
    this.cursor = k;
    this.say(null);
    await this.refresh();
  }

  /** Sets the note for the user, with the lines to mark in the code (none by default). */
  say(message: string | null, sameText: number[] = []): void {
    this.message = message;
    this.sameText = sameText;
  }

  /**
   * Recomputes the walk for actions[0..cursor) through the API (or takes the one already asked for); only the newest
   * request lands.
   */
  async refresh(prefetched?: Promise<Walk>): Promise<void> {
    const id = this.view.traceId;
    if (id === null) return;
    const live = this.#walks.next();
    try {
      const walk = await (prefetched ??
        this.source.call('walk', {
          traceId: id,
          direction: this.direction,
          entry: this.entry,
          actions: this.actions.slice(0, this.cursor),
        }));
      if (!live() || this.view.traceId !== id) return; // another trace opened meanwhile: its states are not this one's
      this.walk = walk;
      this.#start = null;
      this.view.error = null;
      this.targets = []; // they were from the state before
      // The state's own events are asked first: the inspector shows them, the probes only the edges.
      const cur = walk.states[walk.states.length - 1];
      const selecting = cur ? this.view.select(cur) : null;
      void this.probe();
      await selecting;
    } catch (e) {
      if (live()) {
        this.view.error = (e as Error).message;
        this.#start = null;
      }
    }
  }

  /** Recomputes where each action leads from the current state (none once exited). */
  async probe(): Promise<void> {
    const live = this.#probes.next();
    if (this.view.traceId === null || !this.walk || this.walk.exit) return void (this.targets = []);
    const n = this.chosenLine;
    const targets = await probeActions(this.source, {
      traceId: this.view.traceId,
      direction: this.direction,
      entry: this.entry,
      history: this.actions.slice(0, this.cursor),
      line: n > 0 && this.view.hittable.has(n) ? { n, src: this.view.lines[n - 1] } : null,
    }).catch(() => []);
    if (live()) this.targets = targets;
  }

  /** Chooses the line "Run to line" (and the breakpoint edge) aims at. */
  chooseLine(n: number): void {
    if (n === this.chosenLine) return;
    this.chosenLine = n;
    void this.probe();
  }

  /**
   * Opens a saved trajectory: a new trajectory at its direction and entry whose redo history is
   * its actions, cursor at the start, so the user steps through it with Forward.
   */
  async openTrajectory(t: TrajectoryRow): Promise<void> {
    await this.restart(t.direction, t.entry, []);
    this.actions = t.actions;
    this.trajectoryId = t.id;
  }

  /**
   * A new trajectory whose history is `actions` with the first `cursor` applied (an evaluation
   * item's prompt: all but the last, which Forward then walks to the target).
   */
  async replay(direction: Direction, entry: number, actions: string[], cursor: number): Promise<void> {
    await this.restart(direction, entry, actions.slice(0, cursor));
    this.actions = actions;
  }

  // --- Jumps to any node ------------------------------------------------------------------------

  /** Walks to `node` of the tree of `direction` (restarting or widening the entry if needed). */
  async runTo(direction: Direction, node: number): Promise<void> {
    const tree = direction === 'forward' ? this.view.fwd : this.view.inv;
    if (!tree || this.view.traceId === null) return;
    const at = (): number =>
      this.current && this.direction === direction && !this.ended
        ? nodeOf(tree, this.current.seq, this.current.event)
        : -1;
    let path = pathTo(tree, at(), node);
    if (!path) {
      await this.restart(direction, this.entry);
      path = pathTo(tree, at(), node);
    }
    if (!path && this.entry !== 0) {
      await this.restart(direction, 0);
      path = pathTo(tree, at(), node);
    }
    if (!path) {
      this.message = `#${tree.seq[node]} ${eventName(tree, node)} cannot be reached ${direction} from this entry.`;
      return;
    }
    if (path.length) await this.act(...path);
    if (at() !== node)
      this.message = `#${tree.seq[node]} ${eventName(tree, node)} is outside the entry's scope; set the entry first.`;
  }

  /** A new trajectory whose entry is the segment holding `seq`. */
  entryHere(seq: number, direction: Direction = this.direction): Promise<void> {
    return this.restart(direction, this.view.segmentCall(seq));
  }

  /** An inverse trajectory from state `seq`: entry at its segment, walked back to its plain inverse copy. */
  async inverseFrom(seq: number): Promise<void> {
    if (!this.view.inv) return;
    await this.restart('inverse', this.view.segmentCall(seq));
    await this.runTo('inverse', this.view.inv.plainOf[seq]);
  }

  /** No walk shown (the trace closed, or another one opening). */
  close(): void {
    this.walk = null;
    this.#start = null;
    this.targets = [];
  }
}
