/** The sampler: seeded, the paper's policy by default, configurable, with a length limit. */
import { describe, expect, it } from 'vitest';
import {
  PAPER_POLICY,
  Scope,
  buildTraceIndex,
  mulberry32,
  sampleTrace,
  sampleTrajectory,
  serialize,
  validatePolicy,
  type Policy,
  type TreeIndex,
} from '../../src/semantics/index.js';
import { HELPER_LOOP as SRC, record, type Trace } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let tr: Trace;
let index: TreeIndex;
beforeAllOrFail(() => {
  tr = record(SRC, 'f(list(range(30)))');
  index = buildTraceIndex(tr.events);
});

describe('sampler', () => {
  it('draws actions in the proportions of the paper policy', () => {
    const counts: Record<string, number> = {};
    const rng = mulberry32(1);
    const scope = new Scope(index, 0);
    for (let k = 0; k < 3000; k++) for (const a of sampleTrajectory(scope, 'forward', rng).actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    // Expected: 0.5 * (w / 0.80) + 0.5 * second table.
    const expected = { step_into: 0.5 * 0.4375 + 0.25, step_over: 0.5 * 0.125 + 0.25, step_return: 0.25 * 0.5, breakpoint: 0.0625, continue: 0.03125 };
    for (const [a, p] of Object.entries(expected)) expect(Math.abs(counts[a] / total - p), a).toBeLessThan(0.02);
  });

  it('inverse uses only inverse actions, uniform in the first table', () => {
    const counts: Record<string, number> = {};
    const rng = mulberry32(2);
    const scope = new Scope(index, 0);
    for (let k = 0; k < 2000; k++) for (const a of sampleTrajectory(scope, 'inverse', rng).actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(['inv_step_call', 'inv_step_into', 'inv_step_over']);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(Math.abs(counts.inv_step_call / total - 1 / 6)).toBeLessThan(0.03);
  });

  it('breakpoint src comes from the distinct line src of the scope', () => {
    const lines = new Set(tr.events.filter((e) => e.event === 'line').map((e) => e.src));
    const only: Policy = { ...PAPER_POLICY, forward: { mix: 1, first: { breakpoint: 1 }, second: {} } };
    const seen = new Set<string>();
    const rng = mulberry32(3);
    for (let k = 0; k < 300; k++) {
      const t = sampleTrajectory(new Scope(index, 0), 'forward', rng, { policy: only });
      for (const a of t.actions) if (a.action === 'breakpoint') seen.add(a.src);
    }
    expect(seen).toEqual(lines);
  });

  it('a length limit cuts the trajectory: its text ends after a state with <|trace_end|>', () => {
    const t = sampleTrajectory(new Scope(index, 0), 'forward', mulberry32(4), { policy: { ...PAPER_POLICY, forward: { mix: 0, first: {}, second: { step_into: 1 } } }, maxSteps: 5 });
    expect(t.actions.length).toBe(5);
    expect(t.states.length).toBe(6);
    expect(t.exit).toBeNull();
    expect(serialize(index, t, tr.header.context_forward)).toMatch(/<\|src_sep\|>[^<]*<\|trace_end\|><\|end_of_text\|>$/);
  });

  it('entries: root, every call, or random calls; both directions', () => {
    const calls = tr.events.filter((e) => e.event === 'call').map((e) => e.seq);
    const all = sampleTrace(index, { seed: 5, traceKey: 'x', perTrace: 2, entry: 'calls', direction: 'both' });
    expect(all.length).toBe(calls.length * 2 * 2);
    expect(new Set(all.map((t) => t.entry))).toEqual(new Set(calls));
    const root = sampleTrace(index, { seed: 5, traceKey: 'x', perTrace: 3, entry: 'root', direction: 'inverse' });
    expect(root.map((t) => [t.entry, t.direction])).toEqual([[0, 'inverse'], [0, 'inverse'], [0, 'inverse']]);
    const rnd = sampleTrace(index, { seed: 5, traceKey: 'x', perTrace: 40, entry: 'random' });
    expect(new Set(rnd.map((t) => t.entry)).size).toBeGreaterThan(10);
    expect(rnd.every((t) => calls.includes(t.entry))).toBe(true);
  });

  it('the same seed gives the same trajectories; trajectory k does not depend on how many are drawn', () => {
    const a = sampleTrace(index, { seed: 9, traceKey: 1, perTrace: 5, entry: 'calls', direction: 'both' });
    expect(sampleTrace(index, { seed: 9, traceKey: 1, perTrace: 5, entry: 'calls', direction: 'both' })).toEqual(a);
    const fewer = sampleTrace(index, { seed: 9, traceKey: 1, perTrace: 2, entry: 'root', direction: 'forward' });
    const more = sampleTrace(index, { seed: 9, traceKey: 1, perTrace: 4, entry: 'root', direction: 'forward' });
    expect(more.slice(0, 2)).toEqual(fewer);
    expect(sampleTrace(index, { seed: 9, traceKey: 2, perTrace: 4, entry: 'root', direction: 'forward' })).not.toEqual(more);
  });

  it('rejects a policy without usable weights', () => {
    expect(() => validatePolicy(PAPER_POLICY)).not.toThrow();
    expect(() => validatePolicy({ ...PAPER_POLICY, forward: { mix: 0.5, first: { step_into: -1 }, second: { step_over: 1 } } })).toThrow(/non-negative/);
    expect(() => validatePolicy({ ...PAPER_POLICY, inverse: { mix: 0.5, first: {}, second: { inv_step_over: 1 } } })).toThrow(/positive/);
  });
});
