/**
 * THE API contract of the explorer: method name -> params (validated on arrival) -> result.
 * Both transports serve exactly this: Electron IPC (main/ipc.ts) and HTTP (src/server/).
 * The renderer's client (renderer/src/lib/api.ts) is typed from `Api` below, so a call is
 * checked end to end. Pure: no Node imports, importable from the renderer.
 */
import type { TraceEnd, TraceEvent, TraceHeader } from '../trace/types.js';
import { ApiError } from './result.js';
import { arrayOf, bool, int, object, oneOf, optional, str, type Validator } from './validate.js';

export const EXITS = ['normal', 'error', 'never'] as const;
/** What the store sorts by in SQLite (src/store/queries/traces.ts). */
export const SORTS = ['id', 'name', 'events'] as const;
export const DIRECTIONS = ['forward', 'inverse'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** One row of the corpus browser. */
export interface TraceRow {
  id: number;
  name: string;
  mode: string;
  exit: string;
  reason: string | null;
  events: number;
  python: string;
  seconds: number;
}

export interface TraceInfo {
  id: number;
  header: TraceHeader;
  end: TraceEnd;
}

/**
 * The shape of a whole trace without its values, columnar so that 100k events stay a few MB:
 * enough to lay out both state trees. kind: 0 call, 1 line, 2 return, 3 exception;
 * parent: -1 for the top level; func: index into `funcs`.
 */
export interface Skeleton {
  count: number;
  kind: number[];
  parent: number[];
  frame: number[];
  line: number[];
  func: number[];
  funcs: string[];
}

/** One state shown in a trajectory: the event behind it and the event name as shown. */
export interface WalkState {
  seq: number;
  /** call, line, return, exception, or inv_call, inv_line, inv_return, inv_exception, inv_line_call. */
  event: string;
}

/** The result of walking a list of actions from an entry: the states shown and the text. */
export interface Walk {
  direction: Direction;
  entry: number;
  states: WalkState[];
  /** exit token name (exit_normal, exit_error, exit_never, inv_exit_entry) or null while inside. */
  exit: string | null;
  text: string;
  /** Per state, the locals as the model sees them (the §6 delta), null for states without locals. */
  shown: (Record<string, string> | null)[];
}

export interface TrajectoryRow {
  id: number;
  traceId: number;
  direction: Direction;
  entry: number;
  actions: string[];
  exit: string | null;
  states: number;
}

/** An action as text: step_into, step_over, step_return, continue, inv_step_into,
 * inv_step_over, inv_step_call, or `breakpoint <src>` (src kept exactly, indentation included). */
export const ACTION_RE = /^(step_into|step_over|step_return|continue|inv_step_into|inv_step_over|inv_step_call|breakpoint .*)$/s;
const action: Validator<string> = (v, p) => {
  const s = str(100_000)(v, p);
  if (!ACTION_RE.test(s)) throw new ApiError(`${p}: expected an action name or 'breakpoint <src>', got ${JSON.stringify(s.slice(0, 40))}`);
  return s;
};

const id = int(1);
/** Params validators, one per method: the runtime half of the contract. */
export const params = {
  listTraces: object({
    name: optional(str(1000)),
    code: optional(str(1000)),
    value: optional(str(1000)),
    exit: optional(oneOf(EXITS)),
    sort: optional(oneOf(SORTS)),
    desc: optional(bool),
    offset: optional(int(0)),
    limit: optional(int(1, 1000)),
  }),
  getTrace: object({ id }),
  getEvents: object({ traceId: id, from: int(0), to: int(0) }),
  getSkeleton: object({ traceId: id }),
  walk: object({
    traceId: id,
    direction: oneOf(DIRECTIONS),
    entry: optional(int(0)),
    actions: arrayOf(action, 1_000_000),
  }),
  listTrajectories: object({ traceId: id, offset: optional(int(0)), limit: optional(int(1, 1000)) }),
  getTrajectory: object({ id }),
  findInTrace: object({ traceId: id, text: str(1000), limit: optional(int(1, 10_000)) }),
} satisfies Record<string, Validator<unknown>>;

export type Method = keyof typeof params;
export type Params<M extends Method> = ReturnType<(typeof params)[M]>;

/** Result types, one per method: the static half of the contract. */
export interface Results {
  listTraces: { total: number; rows: TraceRow[] };
  getTrace: TraceInfo;
  getEvents: TraceEvent[];
  getSkeleton: Skeleton;
  walk: Walk;
  listTrajectories: { total: number; rows: TrajectoryRow[] };
  getTrajectory: TrajectoryRow;
  /** Seqs (time order, the first `limit`) of the states whose src, locals or value hold `text`. */
  findInTrace: { total: number; seqs: number[] };
}

export type Api = { [M in Method]: (p: Params<M>) => Results[M] | Promise<Results[M]> };

export const METHODS = Object.keys(params) as Method[];

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(params, name);
}

/** Largest window getEvents returns at once. */
export const MAX_EVENT_WINDOW = 5000;
