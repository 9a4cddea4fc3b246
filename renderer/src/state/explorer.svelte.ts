/**
 * The explorer's shared state: the open trace, its two trees, the trajectory being walked
 * (direction, entry, action history, cursor) and the state being inspected. Views read it;
 * only its methods change it (views never assign its fields). Big payloads are $state.raw
 * (never proxied). It reads through the DataSource it is given (context.ts).
 */
import type { Direction, Skeleton, TraceInfo, TrajectoryRow, Walk } from '../../../src/api/contract.js';
import type { TraceEvent } from '../../../src/trace/types.js';
import { CALL } from '../lib/tree/kinds.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';
import { forwardTree, inverseTree, treeIndex, type Tree } from '../lib/tree/build.js';

export interface StateRef {
  seq: number;
  /** As shown: line, call … or inv_line, inv_line_call … */
  event: string;
}

export class Explorer {
  traceId = $state<number | null>(null);
  info = $state.raw<TraceInfo | null>(null);
  skeleton = $state.raw<Skeleton | null>(null);
  fwd = $state.raw<Tree | null>(null);
  inv = $state.raw<Tree | null>(null);
  /** For each seq, the previous seq of the same frame (-1): what "changed" is measured against. */
  prevInFrame = $state.raw<Int32Array>(new Int32Array(0));
  /** Lines the trace visited (line numbers into context_forward). */
  visited = $state.raw<Set<number>>(new Set());

  direction = $state<Direction>('forward');
  entry = $state(0);
  actions = $state.raw<string[]>([]);
  cursor = $state(0);
  walk = $state.raw<Walk | null>(null);
  /** The state shown in the inspector and code view; follows the trajectory on each step. */
  selected = $state.raw<StateRef | null>(null);
  selectedEvent = $state.raw<TraceEvent | null>(null);
  previousEvent = $state.raw<TraceEvent | null>(null);
  error = $state<string | null>(null);
  message = $state<string | null>(null);
  loading = $state(false);
  /** Name of the opened saved trajectory, if the walk came from one. */
  trajectoryId = $state<number | null>(null);

  current = $derived(this.walk ? this.walk.states[this.walk.states.length - 1] ?? null : null);
  ended = $derived(this.walk?.exit != null);

  // Only the newest request of each kind lands: a big trace clicked first must not replace
  // one clicked after, nor a slow walk or event the ones asked for after them.
  #opens = new Newest();
  #walks = new Newest();
  #selects = new Newest();

  constructor(private readonly source: DataSource) {}

  async open(id: number): Promise<void> {
    const live = this.#opens.next();
    this.loading = true;
    this.error = null;
    try {
      const [info, skeleton] = await Promise.all([this.source.call('getTrace', { id }), this.source.call('getSkeleton', { traceId: id })]);
      if (!live()) return;
      this.traceId = id;
      this.info = info;
      this.skeleton = skeleton;
      const ix = treeIndex(skeleton);
      const fwd = forwardTree(ix);
      this.fwd = fwd;
      this.inv = inverseTree(ix, fwd);
      const prev = new Int32Array(skeleton.count);
      const last = new Map<number, number>();
      const visited = new Set<number>();
      for (let s = 0; s < skeleton.count; s++) {
        prev[s] = last.get(skeleton.frame[s]) ?? -1;
        last.set(skeleton.frame[s], s);
        visited.add(skeleton.line[s]);
      }
      this.prevInFrame = prev;
      this.visited = visited;
      this.trajectoryId = null;
      await this.restart('forward', 0);
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    } finally {
      if (live()) this.loading = false;
    }
  }

  /** Starts a new trajectory (history cleared) at `entry` (seq of a call) in `direction`. */
  async restart(direction: Direction, entry = this.entry, actions: string[] = []): Promise<void> {
    this.direction = direction;
    this.entry = entry;
    this.actions = actions;
    this.cursor = actions.length;
    this.message = null;
    await this.refresh();
  }

  /**
   * Applies one action (as text, e.g. `step_over` or `breakpoint <src>`), dropping any redo
   * history. Actions are queued: each one is judged against the walk its predecessor produced,
   * so a key held down cannot step past an exit before the exit has arrived from the API.
   */
  act(action: string): Promise<void> {
    this.#queue = this.#queue.then(() => this.#act(action));
    return this.#queue;
  }

  #queue: Promise<void> = Promise.resolve();

  async #act(action: string): Promise<void> {
    if (this.traceId === null) return;
    const inverse = action.startsWith('inv_');
    if (inverse !== (this.direction === 'inverse')) {
      if (this.cursor === 0) {
        await this.restart(inverse ? 'inverse' : 'forward', this.entry);
      } else {
        this.message = `${action} is ${inverse ? 'an inverse' : 'a forward'} action; this trajectory is ${this.direction}. Restart it ${inverse ? 'inverse' : 'forward'} first.`;
        return;
      }
    }
    if (this.ended) {
      this.message = 'The trajectory has exited; go back or restart.';
      return;
    }
    this.actions = [...this.actions.slice(0, this.cursor), action];
    this.cursor++;
    this.message = null;
    await this.refresh();
  }

  async back(): Promise<void> {
    if (this.cursor === 0) return;
    this.cursor--;
    await this.refresh();
  }

  async forward(): Promise<void> {
    if (this.cursor >= this.actions.length) return;
    this.cursor++;
    await this.refresh();
  }

  /** Recomputes the walk for actions[0..cursor) through the API; only the newest request lands. */
  async refresh(): Promise<void> {
    if (this.traceId === null) return;
    const live = this.#walks.next();
    try {
      const walk = await this.source.call('walk', {
        traceId: this.traceId,
        direction: this.direction,
        entry: this.entry,
        actions: this.actions.slice(0, this.cursor),
      });
      if (!live()) return;
      this.walk = walk;
      this.error = null;
      const cur = walk.states[walk.states.length - 1];
      if (cur) await this.select(cur);
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  /** Shows a state in the inspector and code view (does not move the trajectory). */
  async select(ref: StateRef): Promise<void> {
    if (this.traceId === null) return;
    const live = this.#selects.next();
    this.selected = ref;
    const prevSeq = this.prevInFrame[ref.seq] ?? -1;
    const [cur, prev] = await Promise.all([
      this.source.call('getEvents', { traceId: this.traceId, from: ref.seq, to: ref.seq + 1 }),
      prevSeq >= 0 ? this.source.call('getEvents', { traceId: this.traceId, from: prevSeq, to: prevSeq + 1 }) : Promise.resolve([]),
    ]);
    if (!live()) return;
    this.selectedEvent = cur[0] ?? null;
    this.previousEvent = prev[0] ?? null;
  }

  /** The call that opens the segment holding `seq` (its frame's latest call at or before it). */
  segmentCall(seq: number): number {
    const sk = this.skeleton;
    if (!sk) return 0;
    for (let s = seq; s >= 0; s--) if (sk.frame[s] === sk.frame[seq] && sk.kind[s] === CALL) return s;
    return 0;
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

  /** Index of the current state within the walk (for the "shown" delta). */
  get currentIndex(): number {
    return this.walk ? this.walk.states.length - 1 : -1;
  }

  close(): void {
    this.traceId = null;
    this.info = null;
    this.skeleton = this.fwd = this.inv = null;
    this.walk = null;
    this.selected = null;
    this.selectedEvent = this.previousEvent = null;
  }
}

