/**
 * The trajectory sampler (docs/semantics.md §7). At each step, with probability `mix`
 * an action is drawn from `first`, else from `second`. Defaults are the paper's policy:
 * forward first = step_into .35, step_over .10, step_return .20, breakpoint .10, continue .05
 * (normalised), second = step_into .5, step_over .5; inverse first = the three inverse
 * actions uniformly, second = inv_step_into .5, inv_step_over .5 (our rule).
 * A breakpoint's src is drawn uniformly from the distinct src of `line` events in the scope;
 * in a scope without any `line` the breakpoint weight counts as 0.
 */
import { UserError } from '../common/errors.js';
import { mulberry32, pickWeighted, seedFrom, type Rng } from './prng.js';
import { Scope } from './scope.js';
import { CALL } from './tree.js';
import { advance, type Trajectory } from './trajectory.js';
import { DIRECTIONS, type Action, type Direction, type ForwardActionName, type InverseActionName } from './types.js';

export interface Policy {
  forward: {
    mix: number;
    first: Partial<Record<ForwardActionName, number>>;
    second: Partial<Record<ForwardActionName, number>>;
  };
  inverse: {
    mix: number;
    first: Partial<Record<InverseActionName, number>>;
    second: Partial<Record<InverseActionName, number>>;
  };
}

export const PAPER_POLICY: Policy = {
  forward: {
    mix: 0.5,
    first: { step_into: 0.35, step_over: 0.1, step_return: 0.2, breakpoint: 0.1, continue: 0.05 },
    second: { step_into: 0.5, step_over: 0.5 },
  },
  inverse: {
    mix: 0.5,
    first: { inv_step_into: 1, inv_step_over: 1, inv_step_call: 1 },
    second: { inv_step_into: 0.5, inv_step_over: 0.5 },
  },
};

export interface SampleOptions {
  policy?: Policy;
  /** At most this many actions; a trajectory still inside the scope then is cut. Default: no limit. */
  maxSteps?: number;
}

/** Checks a policy (e.g. one read from a file): weights non-negative, each table with a positive weight. */
export function validatePolicy(p: Policy): void {
  for (const dir of DIRECTIONS) {
    const d = p[dir];
    if (!(d && typeof d.mix === 'number' && d.mix >= 0 && d.mix <= 1))
      throw new UserError(`policy.${dir}.mix: expected a number from 0 to 1`, 'bad-input');
    for (const part of ['first', 'second'] as const) {
      const w = Object.values(d[part] ?? {});
      if (w.some((x) => typeof x !== 'number' || !(x >= 0)))
        throw new UserError(`policy.${dir}.${part}: expected non-negative weights`, 'bad-input');
      if (d.mix !== (part === 'first' ? 0 : 1) && !w.some((x) => x > 0))
        throw new UserError(`policy.${dir}.${part}: expected a positive weight`, 'bad-input');
    }
  }
}

/** Draws one trajectory in `direction` over `scope`. */
export function sampleTrajectory(scope: Scope, direction: Direction, rng: Rng, opts: SampleOptions = {}): Trajectory {
  const policy = opts.policy ?? PAPER_POLICY;
  const maxSteps = opts.maxSteps ?? Infinity;
  const t: Trajectory = { direction, entry: scope.entry, states: [scope.start(direction)], actions: [], exit: null };
  const srcs = direction === 'forward' ? scope.lineSources() : [];
  const tables = direction === 'forward' ? policy.forward : policy.inverse;
  const first = Object.entries(tables.first).map(
    ([a, w]) => [a, a === 'breakpoint' && srcs.length === 0 ? 0 : (w as number)] as const,
  );
  const second = Object.entries(tables.second).map(
    ([a, w]) => [a, a === 'breakpoint' && srcs.length === 0 ? 0 : (w as number)] as const,
  );
  const firstW = first.map((x) => x[1]);
  const secondW = second.map((x) => x[1]);
  while (t.actions.length < maxSteps) {
    const table = rng() < tables.mix ? first : second;
    const name = table[pickWeighted(rng, table === first ? firstW : secondW)][0];
    const action: Action =
      name === 'breakpoint'
        ? { action: 'breakpoint', src: srcs[Math.floor(rng() * srcs.length)] }
        : ({ action: name } as Action);
    if (advance(scope, t, action)) break;
  }
  return t;
}

/** Where sampled trajectories start: the root only, every call, or a random call each. */
export const ENTRY_CHOICES = ['root', 'calls', 'random'] as const;
export type EntryChoice = (typeof ENTRY_CHOICES)[number];
export const DIRECTION_CHOICES = [...DIRECTIONS, 'both'] as const;
export type DirectionChoice = (typeof DIRECTION_CHOICES)[number];

export interface TraceSampleOptions extends SampleOptions {
  seed: number;
  /** Distinguishes traces under one seed (e.g. the trace's id or name). */
  traceKey: number | string;
  /** Trajectories per entry and direction. */
  perTrace: number;
  /** root: the root only; calls: every `call` event as entry; random: each trajectory from a random call. */
  entry?: EntryChoice;
  direction?: DirectionChoice;
}

/**
 * Samples one trace. Reproducible: trajectory k of (entry, direction) uses its own PRNG
 * seeded from (seed, traceKey, entry, direction, k), so the result does not depend on which
 * other traces or entries are sampled in the same run.
 */
/** A sampled trajectory and its index k among the draws for its entry and direction. */
export type SampledTrajectory = Trajectory & { k: number };

export function sampleTrace(index: Scope['index'], opts: TraceSampleOptions): SampledTrajectory[] {
  const dirs: readonly Direction[] = opts.direction === 'both' ? DIRECTIONS : [opts.direction ?? 'forward'];
  const choice = opts.entry ?? 'root';
  const calls: number[] = [];
  if (choice !== 'root') for (let i = 0; i < index.count; i++) if (index.kind[i] === CALL) calls.push(i);
  const scopes = new Map<number, Scope>();
  const scopeFor = (e: number) => {
    let s = scopes.get(e);
    if (!s) scopes.set(e, (s = new Scope(index, e)));
    return s;
  };
  const out: SampledTrajectory[] = [];
  const entries = choice === 'calls' ? calls : [0];
  for (const e of entries) {
    for (const dir of dirs) {
      for (let k = 0; k < opts.perTrace; k++) {
        const rng = mulberry32(seedFrom(opts.seed, opts.traceKey, choice, e, dir, k));
        const entry = choice === 'random' ? (calls.length ? calls[Math.floor(rng() * calls.length)] : 0) : e;
        out.push({ ...sampleTrajectory(scopeFor(entry), dir, rng, opts), k });
      }
    }
  }
  return out;
}
