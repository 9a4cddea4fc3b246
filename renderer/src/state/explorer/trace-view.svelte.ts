/**
 * The open trace as the explorer shows it: its header, its two trees (built in a worker), what
 * the trees are drawn from, and the state being inspected. Opening a trace is timed in the
 * performance timeline; what it means for the trajectory is told through TraceHooks.
 */
import type { Direction, Skeleton, TraceInfo, Walk, WalkState } from '@core/contract/index.js';
import type { TraceEvent } from '@core/trace/types.js';
import { hittableFrom } from '../../lib/lines.js';
import { Newest } from '../../lib/newest.js';
import type { DataSource } from '../../lib/source.js';
import { eventName, type Tree } from '../../lib/tree/build.js';
import { buildOffThread, startBuilder } from '../../lib/tree/built.js';
import type { FoldPlan } from '../../lib/tree/fold.js';
import { CALL } from '../../lib/tree/kinds.js';
import { afterPaint, span } from '../../lib/timing.js';
import { EventCache } from '../events.svelte.js';

export interface StateRef {
  seq: number;
  /** As shown: line, call … or inv_line, inv_line_call … */
  event: string;
}

/**
 * Where an open's first trajectory goes: forward from entry 0 with no action (a plain open), or
 * `actions` from `entry` in `direction` when the caller knows them before the trees are built
 * (a counterfactual opens at its edited state). `at` is the state they lead to, drawn as the
 * current node until the walk confirms it; a walk that ends elsewhere wins.
 */
export interface OpenAt {
  direction: Direction;
  entry: number;
  actions: string[];
  at: WalkState;
}

/** What an open tells the rest of the explorer, in this order (each only while the open is the newest). */
export interface TraceHooks {
  /** The new trace's header is shown: forget the trajectory of the trace before. */
  shown(): void;
  /** Its (non-empty) trees landed: the state its first trajectory is drawn at until its walk lands. */
  built(start: WalkState): void;
  /** Its trees are painted: start the first trajectory (`at`'s, or forward from 0) with the walk already asked for. */
  first(walk: Promise<Walk>, at: OpenAt | null): Promise<void>;
}

export class TraceView {
  traceId = $state<number | null>(null);
  info = $state.raw<TraceInfo | null>(null);
  skeleton = $state.raw<Skeleton | null>(null);
  fwd = $state.raw<Tree | null>(null);
  inv = $state.raw<Tree | null>(null);
  /** Long sibling runs (loops) of each tree and where they fold (lib/tree/fold.ts). */
  fwdPlan = $state.raw<FoldPlan | null>(null);
  invPlan = $state.raw<FoldPlan | null>(null);
  /** For each seq, the previous seq of the same frame (-1): what "changed" is measured against. */
  prevInFrame = $state.raw<Int32Array>(new Int32Array(0));
  /** Lines the trace visited (line numbers into context_forward). */
  visited = $state.raw<Set<number>>(new Set());
  /** Lines a breakpoint can stop at (lib/lines.ts). */
  hittable = $state.raw<Set<number>>(new Set());
  /** The state shown in the inspector and code view; follows the trajectory on each step. */
  selected = $state.raw<StateRef | null>(null);
  selectedEvent = $state.raw<TraceEvent | null>(null);
  previousEvent = $state.raw<TraceEvent | null>(null);
  /** The last failure of an open or a walk (cleared by the next one that succeeds). */
  error = $state<string | null>(null);
  loading = $state(false);
  lines = $derived((this.info?.header.context_forward ?? '').split('\n'));

  readonly events: EventCache;
  // Only the newest request of each kind lands: a big trace clicked first must not replace
  // one clicked after, nor a slow event the one asked for after it.
  #opens = new Newest();
  #selects = new Newest();

  constructor(
    private readonly source: DataSource,
    private readonly hooks: TraceHooks,
  ) {
    this.events = new EventCache(source);
    startBuilder(); // the tree builder's worker loads (its module, once) before the first trace is asked for
  }

  /**
   * Opens a trace. Three requests at once: its header, its skeleton (fetched and built into
   * both trees in a worker: in the web mode the worker fetches the bytes itself, so this
   * thread is free), and the first walk (the server opens the trace for it meanwhile). The
   * header comes first: the explorer's panels are drawn for the new trace while its trees
   * are built, and the trees and the current node land when both are there. With `at`, the
   * first walk is that trajectory's (one request, not a walk from the start and then another).
   */
  open(id: number, at: OpenAt | null = null): Promise<void> {
    return (this.opening = this.#open(id, at));
  }

  /** The newest open, settled once its trees and first walk have landed (or it failed). */
  opening: Promise<void> = Promise.resolve();

  async #open(id: number, start: OpenAt | null): Promise<void> {
    const live = this.#opens.next();
    this.loading = true;
    this.error = null;
    try {
      // The parts of an open are named in the performance timeline (bench/ui.mjs reads them).
      const t0 = performance.now();
      const header = this.source.call('getTrace', { id });
      const fetchIn = this.source.skeletonFetch?.(id);
      let fetched = t0;
      const building = fetchIn
        ? buildOffThread(fetchIn)
        : this.source
            .call('getSkeleton', { traceId: id })
            .then((wire) => ((fetched = performance.now()), buildOffThread(wire)));
      const first = this.source.call('walk', {
        traceId: id,
        direction: start?.direction ?? 'forward',
        entry: start?.entry ?? 0,
        actions: start?.actions ?? [],
      });
      // An error surfaces where each is awaited.
      first.catch(() => undefined);
      building.catch(() => undefined);
      const info = await header;
      if (!live()) return;
      this.#show(id, info);
      const built = await building;
      if (!live()) return;
      // The worker's steps laid back to back up to when they ended (its clock placed on this
      // one's through the epoch); before them, the fetch (the worker's own, or this thread's
      // getSkeleton); after them, the hand-over (the message, and this thread finishing what it
      // was doing, e.g. drawing the panels).
      const t2 = performance.now();
      const builtAt = Math.min(t2, built.doneAt - performance.timeOrigin);
      const steps = built.phases.filter(([name]) => name !== 'fetch');
      let at = builtAt - steps.reduce((s, p) => s + p[1], 0);
      const t1 = fetchIn ? at : fetched;
      span('open: fetch skeleton', t0, t1);
      span('open: build trees', t1, builtAt);
      for (const [name, ms] of steps) at = span(`open: build trees: ${name}`, at, at + ms);
      span('open: trees handed over', builtAt, t2);
      const skeleton = built.skeleton;
      this.skeleton = skeleton;
      this.fwdPlan = built.fwdPlan;
      this.invPlan = built.invPlan;
      this.fwd = built.fwd;
      this.inv = built.inv;
      this.prevInFrame = built.prevInFrame;
      this.visited = new Set(built.visited);
      this.hittable = hittableFrom(built.lineEventLines, this.lines);
      if (start && start.at.seq < built.skeleton.count) this.hooks.built(start.at);
      else if (built.fwd.size)
        this.hooks.built({ seq: 0, event: eventName(built.fwd, built.fwd.plainOf[0]) as WalkState['event'] });
      // The trees are painted before the first walk lands (for a short trace it is often here
      // already): its answer fills the inspector, the text and the action edges, work that
      // would otherwise hold up the trees' first paint.
      await afterPaint();
      if (!live()) return;
      await this.hooks.first(first, start);
      span('open: first walk', t2);
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    } finally {
      if (live()) this.loading = false;
    }
  }

  /** The new trace's header shown, with nothing of the trace before it (its trees come when built). */
  #show(id: number, info: TraceInfo): void {
    this.traceId = id;
    this.info = info;
    this.selected = this.selectedEvent = this.previousEvent = null;
    this.skeleton = this.fwd = this.inv = this.fwdPlan = this.invPlan = null;
    this.hooks.shown();
    this.events.reset(id);
    this.prevInFrame = new Int32Array(0);
    this.visited = new Set();
    this.hittable = new Set();
  }

  /**
   * Shows the trace `from` shows, with the trees, plans and events it has already built and
   * fetched (no request): the same trace in a second view. Any open of this view under way loses.
   */
  adopt(from: TraceView): void {
    this.#opens.next();
    this.hooks.shown();
    this.traceId = from.traceId;
    this.info = from.info;
    this.skeleton = from.skeleton;
    this.fwd = from.fwd;
    this.inv = from.inv;
    this.fwdPlan = from.fwdPlan;
    this.invPlan = from.invPlan;
    this.prevInFrame = from.prevInFrame;
    this.visited = from.visited;
    this.hittable = from.hittable;
    this.selected = from.selected;
    this.selectedEvent = from.selectedEvent;
    this.previousEvent = from.previousEvent;
    this.events.adopt(from.events);
    this.error = null;
    this.loading = false;
    this.opening = Promise.resolve();
  }

  /** Shows a state in the inspector and code view (does not move the trajectory). */
  async select(ref: StateRef): Promise<void> {
    if (this.traceId === null) return;
    const live = this.#selects.next();
    this.selected = ref;
    const prevSeq = this.prevInFrame[ref.seq] ?? -1;
    const [cur, prev] = await Promise.all([
      this.source.call('getEvents', { traceId: this.traceId, from: ref.seq, to: ref.seq + 1 }),
      prevSeq >= 0
        ? this.source.call('getEvents', { traceId: this.traceId, from: prevSeq, to: prevSeq + 1 })
        : Promise.resolve([]),
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

  /** No trace shown (the trajectory forgets its walk through its own close). */
  close(): void {
    this.traceId = null;
    this.info = null;
    this.skeleton = this.fwd = this.inv = this.fwdPlan = this.invPlan = null;
    this.selected = null;
    this.selectedEvent = this.previousEvent = null;
  }
}
