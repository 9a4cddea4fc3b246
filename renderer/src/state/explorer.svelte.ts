/**
 * The explorer's shared state: the open trace, its two trees, the trajectory being walked
 * (direction, entry, action history, cursor), the breakpoints and the state being inspected.
 * Views read it; only its methods change it (views never assign its fields). Big payloads
 * are $state.raw (never proxied). It reads through the DataSource it is given (context.ts).
 */
import { type Direction, type Skeleton, type TraceInfo, type TrajectoryRow, type Walk, type WalkState } from '@core/contract/index.js';
import type { TraceEvent } from '@core/trace/types.js';
import { hittableFrom, sameTextLines } from '../lib/lines.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';
import { eventName, nodeOf, type Tree } from '../lib/tree/build.js';
import { buildOffThread, startBuilder } from '../lib/tree/built.js';
import { afterPaint, span } from '../lib/timing.js';
import type { FoldPlan } from '../lib/tree/fold.js';
import { CALL } from '../lib/tree/kinds.js';
import { pathTo } from '../lib/tree/path.js';
import { probeActions, type ActionTarget } from './action-targets.js';
import { EventCache } from './events.svelte.js';

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
  /** Long sibling runs (loops) of each tree and where they fold (lib/tree/fold.ts). */
  fwdPlan = $state.raw<FoldPlan | null>(null);
  invPlan = $state.raw<FoldPlan | null>(null);
  /** For each seq, the previous seq of the same frame (-1): what "changed" is measured against. */
  prevInFrame = $state.raw<Int32Array>(new Int32Array(0));
  /** Lines the trace visited (line numbers into context_forward). */
  visited = $state.raw<Set<number>>(new Set());
  /** Lines a breakpoint can stop at (lib/lines.ts). */
  hittable = $state.raw<Set<number>>(new Set());
  /** Lines with a breakpoint set (red dots in the gutter); F5 runs to the next one. */
  breakpoints = $state.raw<Set<number>>(new Set());

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
  /** What the last action did that the user should know (cleared by the next move). */
  message = $state<string | null>(null);
  /** Lines with the text of the line a breakpoint stopped elsewhere for (marked in the code). */
  sameText = $state.raw<number[]>([]);
  loading = $state(false);
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
  lines = $derived((this.info?.header.context_forward ?? '').split('\n'));
  /** Index in the walk of the selected state (its latest visit), or -1 when the walk does not show it. */
  selectedIndex = $derived.by(() => {
    const w = this.walk;
    const sel = this.selected;
    if (!w || !sel) return -1;
    for (let j = w.states.length - 1; j >= 0; j--) if (w.states[j].seq === sel.seq && w.states[j].event === sel.event) return j;
    return -1;
  });

  readonly events: EventCache;
  // Only the newest request of each kind lands: a big trace clicked first must not replace
  // one clicked after, nor a slow walk or event the ones asked for after them.
  #opens = new Newest();
  #walks = new Newest();
  #selects = new Newest();
  #probes = new Newest();

  constructor(private readonly source: DataSource) {
    this.events = new EventCache(source);
    startBuilder(); // the tree builder's worker loads (its module, once) before the first trace is asked for
  }

  /**
   * Opens a trace. Three requests at once: its header, its skeleton (fetched and built into
   * both trees in a worker: in the web mode the worker fetches the bytes itself, so this
   * thread is free), and the first walk (the server opens the trace for it meanwhile). The
   * header comes first: the explorer's panels are drawn for the new trace while its trees
   * are built, and the trees and the current node land when both are there.
   */
  open(id: number): Promise<void> {
    return (this.opening = this.#open(id));
  }

  /** The newest open, settled once its trees and first walk have landed (or it failed). */
  opening: Promise<void> = Promise.resolve();

  async #open(id: number): Promise<void> {
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
        : this.source.call('getSkeleton', { traceId: id }).then((wire) => ((fetched = performance.now()), buildOffThread(wire)));
      const first = this.source.call('walk', { traceId: id, direction: 'forward', entry: 0, actions: [] });
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
      if (built.fwd.size) this.#start = { seq: 0, event: eventName(built.fwd, built.fwd.plainOf[0]) as WalkState['event'] };
      // The trees are painted before the first walk lands (for a short trace it is often here
      // already): its answer fills the inspector, the text and the action edges, work that
      // would otherwise hold up the trees' first paint.
      await afterPaint();
      if (!live()) return;
      await this.restart('forward', 0, [], first);
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
    this.walk = null;
    this.#start = null;
    this.targets = [];
    this.events.reset(id);
    this.prevInFrame = new Int32Array(0);
    this.visited = new Set();
    this.hittable = new Set();
    this.breakpoints = new Set();
    this.chosenLine = 0;
  }

  /** Starts a new trajectory (history cleared) at `entry` (seq of a call) in `direction`. */
  async restart(direction: Direction, entry = this.entry, actions: string[] = [], prefetched?: Promise<Walk>): Promise<void> {
    this.direction = direction;
    this.entry = entry;
    this.actions = actions;
    this.cursor = actions.length;
    this.#say(null);
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
    if (this.walk === null) await this.opening;
    if (this.traceId === null || this.walk === null || !actions.length) return; // no trace, or its open failed
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
    this.#say(null);
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
    this.#say(null);
    await this.refresh();
  }

  #say(message: string | null, sameText: number[] = []): void {
    this.message = message;
    this.sameText = sameText;
  }

  /** Recomputes the walk for actions[0..cursor) through the API (or takes the one already asked for); only the newest request lands. */
  async refresh(prefetched?: Promise<Walk>): Promise<void> {
    const id = this.traceId;
    if (id === null) return;
    const live = this.#walks.next();
    try {
      const walk = await (prefetched ?? this.source.call('walk', {
        traceId: id,
        direction: this.direction,
        entry: this.entry,
        actions: this.actions.slice(0, this.cursor),
      }));
      if (!live() || this.traceId !== id) return; // another trace opened meanwhile: its states are not this one's
      this.walk = walk;
      this.#start = null;
      this.error = null;
      this.targets = []; // they were from the state before
      void this.probe();
      const cur = walk.states[walk.states.length - 1];
      if (cur) await this.select(cur);
    } catch (e) {
      if (live()) (this.error = (e as Error).message), (this.#start = null);
    }
  }

  /** Recomputes where each action leads from the current state (none once exited). */
  async probe(): Promise<void> {
    const live = this.#probes.next();
    if (this.traceId === null || !this.walk || this.walk.exit) return void (this.targets = []);
    const n = this.chosenLine;
    const targets = await probeActions(this.source, {
      traceId: this.traceId,
      direction: this.direction,
      entry: this.entry,
      history: this.actions.slice(0, this.cursor),
      line: n > 0 && this.hittable.has(n) ? { n, src: this.lines[n - 1] } : null,
    }).catch(() => []);
    if (live()) this.targets = targets;
  }

  /** Chooses the line "Run to line" (and the breakpoint edge) aims at. */
  chooseLine(n: number): void {
    if (n === this.chosenLine) return;
    this.chosenLine = n;
    void this.probe();
  }

  /** Performs the action of an edge (a breakpoint edge runs to its line, saying where it stopped). */
  async perform(t: ActionTarget): Promise<void> {
    const m = /^breakpoint L(\d+)$/.exec(t.label);
    if (m) await this.runToLine(Number(m[1]));
    else await this.act(t.action);
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

  /**
   * A new trajectory whose history is `actions` with the first `cursor` applied (an evaluation
   * item's prompt: all but the last, which Forward then walks to the target).
   */
  async replay(direction: Direction, entry: number, actions: string[], cursor: number): Promise<void> {
    await this.restart(direction, entry, actions.slice(0, cursor));
    this.actions = actions;
  }

  // --- Breakpoints and running to a line ------------------------------------------------------

  toggleBreakpoint(line: number): void {
    if (!this.hittable.has(line)) return;
    const next = new Set(this.breakpoints);
    if (next.has(line)) next.delete(line);
    else next.add(line);
    this.breakpoints = next;
  }

  /**
   * Runs to line n (a `breakpoint <its text>` action) and says what happened when that is not
   * simply "stopped on line n": stopped on another line with the same text, or never reached.
   */
  async runToLine(n: number): Promise<void> {
    if (!this.hittable.has(n)) return;
    await this.act(`breakpoint ${this.lines[n - 1]}`);
    this.#stopNote([n]);
  }

  /**
   * F5: with breakpoints set, runs to the first of them the trajectory reaches (each is tried
   * through the walk API; the earliest state in pre-order wins); with none set, or none
   * reached, `continue` to the exit, saying so.
   */
  async continueToBreakpoint(): Promise<void> {
    if (this.traceId === null || this.direction !== 'forward' || this.ended) return this.act('continue');
    const srcs = [...new Set([...this.breakpoints].sort((a, b) => a - b).map((n) => this.lines[n - 1]))];
    if (!srcs.length) return this.act('continue');
    const base = this.actions.slice(0, this.cursor);
    const probes = await Promise.all(
      srcs.map((src) => this.source.call('walk', { traceId: this.traceId!, direction: 'forward', entry: this.entry, actions: [...base, `breakpoint ${src}`] })),
    );
    let best = -1;
    probes.forEach((w, j) => {
      if (w.exit === null && (best < 0 || w.states[w.states.length - 1].seq < probes[best].states[probes[best].states.length - 1].seq)) best = j;
    });
    if (best < 0) {
      await this.act('continue');
      this.message = `No breakpoint is reached from here (line ${[...this.breakpoints].sort((a, b) => a - b).join(', ')}); continued to the exit.`;
      return;
    }
    await this.act(`breakpoint ${srcs[best]}`);
    this.#stopNote([...this.breakpoints].filter((n) => this.lines[n - 1] === srcs[best]));
  }

  /** After a breakpoint action aimed at `lines` (same text): why it stopped elsewhere, if it did. */
  #stopNote(lines: number[]): void {
    const w = this.walk;
    if (!w || !lines.length) return;
    const label = lines.length === 1 ? `Line ${lines[0]}` : `Lines ${lines.join(', ')}`;
    if (w.exit) return this.#say(`${label} (${this.lines[lines[0] - 1].trim()}) is not reached from here: the trajectory exited (${w.exit}).`);
    const at = this.skeleton!.line[w.states[w.states.length - 1].seq];
    if (lines.includes(at)) return;
    const all = [lines[0], ...sameTextLines(this.lines, lines[0])].sort((a, b) => a - b);
    this.#say(`Stopped at line ${at}, not ${lines.join('/')}: breakpoints match a line by its text, and lines ${all.join(', ')} have the same text.`, all);
  }

  // --- Jumps to any node ------------------------------------------------------------------------

  /** Walks to `node` of the tree of `direction` (restarting or widening the entry if needed). */
  async runTo(direction: Direction, node: number): Promise<void> {
    const tree = direction === 'forward' ? this.fwd : this.inv;
    if (!tree || this.traceId === null) return;
    const at = (): number => (this.current && this.direction === direction && !this.ended ? nodeOf(tree, this.current.seq, this.current.event) : -1);
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
    if (at() !== node) this.message = `#${tree.seq[node]} ${eventName(tree, node)} is outside the entry's scope; set the entry first.`;
  }

  /** A new trajectory whose entry is the segment holding `seq`. */
  entryHere(seq: number, direction: Direction = this.direction): Promise<void> {
    return this.restart(direction, this.segmentCall(seq));
  }

  /** An inverse trajectory from state `seq`: entry at its segment, walked back to its plain inverse copy. */
  async inverseFrom(seq: number): Promise<void> {
    if (!this.inv) return;
    await this.restart('inverse', this.segmentCall(seq));
    await this.runTo('inverse', this.inv.plainOf[seq]);
  }

  close(): void {
    this.traceId = null;
    this.info = null;
    this.skeleton = this.fwd = this.inv = this.fwdPlan = this.invPlan = null;
    this.walk = null;
    this.#start = null;
    this.targets = [];
    this.selected = null;
    this.selectedEvent = this.previousEvent = null;
  }
}
