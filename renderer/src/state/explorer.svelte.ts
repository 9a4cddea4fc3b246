/**
 * The explorer's shared state: the open trace and its two trees (explorer/trace-view), the
 * trajectory being walked (explorer/walk: direction, entry, action history, cursor), the
 * breakpoints (explorer/breakpoints) and the state being inspected. Views read it; only its
 * methods change it (views never assign its fields). Big payloads are $state.raw (never
 * proxied); the getters below read the parts' runes, so a view reading them stays reactive.
 * It reads through the DataSource it is given (context.ts).
 */
import type { Direction, TrajectoryRow, Walk } from '@core/contract/index.js';
import type { DataSource } from '../lib/source.js';
import type { ActionTarget } from './action-targets.js';
import { Breakpoints } from './explorer/breakpoints.svelte.js';
import { TraceView, type OpenAt, type StateRef } from './explorer/trace-view.svelte.js';
import { Walker } from './explorer/walk.svelte.js';

export type { OpenAt, StateRef } from './explorer/trace-view.svelte.js';

export class Explorer {
  readonly #view: TraceView;
  readonly #walker: Walker;
  readonly #breakpoints: Breakpoints;

  constructor(source: DataSource) {
    const view = new TraceView(source, {
      shown: () => {
        this.#walker.forgetTrace();
        this.#breakpoints.clear();
      },
      built: (start) => this.#walker.startAt(start),
      first: (walk, at) => this.#walker.restart(at?.direction ?? 'forward', at?.entry ?? 0, at?.actions ?? [], walk),
    });
    this.#view = view;
    this.#walker = new Walker(source, view);
    this.#breakpoints = new Breakpoints(source, view, this.#walker);
  }

  // --- The open trace, its trees and the state inspected (explorer/trace-view) ------------------

  get traceId() {
    return this.#view.traceId;
  }
  get info() {
    return this.#view.info;
  }
  get skeleton() {
    return this.#view.skeleton;
  }
  get fwd() {
    return this.#view.fwd;
  }
  get inv() {
    return this.#view.inv;
  }
  get fwdPlan() {
    return this.#view.fwdPlan;
  }
  get invPlan() {
    return this.#view.invPlan;
  }
  get prevInFrame() {
    return this.#view.prevInFrame;
  }
  get visited() {
    return this.#view.visited;
  }
  get hittable() {
    return this.#view.hittable;
  }
  get lines() {
    return this.#view.lines;
  }
  get selected() {
    return this.#view.selected;
  }
  get selectedEvent() {
    return this.#view.selectedEvent;
  }
  get previousEvent() {
    return this.#view.previousEvent;
  }
  get error() {
    return this.#view.error;
  }
  get loading() {
    return this.#view.loading;
  }
  get events() {
    return this.#view.events;
  }
  /** The newest open, settled once its trees and first walk have landed (or it failed). */
  get opening() {
    return this.#view.opening;
  }

  /** Opens a trace (at a trajectory's end when `at` is given: see OpenAt). */
  open(id: number, at: OpenAt | null = null): Promise<void> {
    return this.#view.open(id, at);
  }
  /** Shows the trace `from` shows, from what it has built and fetched (TraceView.adopt); no walk. */
  adopt(from: Explorer): void {
    this.#view.adopt(from.#view);
  }
  select(ref: StateRef): Promise<void> {
    return this.#view.select(ref);
  }
  segmentCall(seq: number): number {
    return this.#view.segmentCall(seq);
  }

  close(): void {
    this.#view.close();
    this.#walker.close();
  }

  // --- The trajectory (explorer/walk) ---------------------------------------------------------

  get direction() {
    return this.#walker.direction;
  }
  get entry() {
    return this.#walker.entry;
  }
  get actions() {
    return this.#walker.actions;
  }
  get cursor() {
    return this.#walker.cursor;
  }
  get walk() {
    return this.#walker.walk;
  }
  get current() {
    return this.#walker.current;
  }
  get ended() {
    return this.#walker.ended;
  }
  get selectedIndex() {
    return this.#walker.selectedIndex;
  }
  get message() {
    return this.#walker.message;
  }
  get sameText() {
    return this.#walker.sameText;
  }
  get chosenLine() {
    return this.#walker.chosenLine;
  }
  get targets() {
    return this.#walker.targets;
  }
  get trajectoryId() {
    return this.#walker.trajectoryId;
  }

  restart(direction: Direction, entry = this.entry, actions: string[] = [], prefetched?: Promise<Walk>): Promise<void> {
    return this.#walker.restart(direction, entry, actions, prefetched);
  }
  act(...actions: string[]): Promise<void> {
    return this.#walker.act(...actions);
  }
  back(): Promise<void> {
    return this.#walker.back();
  }
  forward(): Promise<void> {
    return this.#walker.forward();
  }
  goTo(k: number): Promise<void> {
    return this.#walker.goTo(k);
  }
  refresh(prefetched?: Promise<Walk>): Promise<void> {
    return this.#walker.refresh(prefetched);
  }
  probe(): Promise<void> {
    return this.#walker.probe();
  }
  chooseLine(n: number): void {
    this.#walker.chooseLine(n);
  }
  openTrajectory(t: TrajectoryRow): Promise<void> {
    return this.#walker.openTrajectory(t);
  }
  replay(direction: Direction, entry: number, actions: string[], cursor: number): Promise<void> {
    return this.#walker.replay(direction, entry, actions, cursor);
  }
  runTo(direction: Direction, node: number): Promise<void> {
    return this.#walker.runTo(direction, node);
  }
  entryHere(seq: number, direction: Direction = this.direction): Promise<void> {
    return this.#walker.entryHere(seq, direction);
  }
  inverseFrom(seq: number): Promise<void> {
    return this.#walker.inverseFrom(seq);
  }

  /** Performs the action of an edge (a breakpoint edge runs to its line, saying where it stopped). */
  async perform(t: ActionTarget): Promise<void> {
    const m = /^breakpoint L(\d+)$/.exec(t.label);
    if (m) await this.runToLine(Number(m[1]));
    else await this.act(t.action);
  }

  // --- Breakpoints and running to a line (explorer/breakpoints) ---------------------------------

  /** Lines with a breakpoint set (red dots in the gutter); F5 runs to the next one. */
  get breakpoints() {
    return this.#breakpoints.lines;
  }
  toggleBreakpoint(line: number): void {
    this.#breakpoints.toggle(line);
  }
  runToLine(n: number): Promise<void> {
    return this.#breakpoints.runToLine(n);
  }
  continueToBreakpoint(): Promise<void> {
    return this.#breakpoints.continueToBreakpoint();
  }
}
