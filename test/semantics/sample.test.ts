/**
 * The sampler and its PRNG: seeded, the paper's policy by default, configurable, with a length
 * limit; a policy file's refusals word for word, the edges of `mix`, the defaults of
 * sampleTrace, the order of draws for every call, and the exact numbers behind a seed (a
 * sampled data set must be drawn again identically from its seed, in every version).
 */
import { describe, expect, it } from 'vitest';
import {
  PAPER_POLICY,
  Scope,
  buildTraceIndex,
  mulberry32,
  pickWeighted,
  sampleTrace,
  sampleTrajectory,
  seedFrom,
  serialize,
  validatePolicy,
  type Policy,
  type TreeIndex,
} from '../../src/semantics/index.js';
import { HELPER_LOOP as SRC, record, refusal, type Trace } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let tr: Trace;
let index: TreeIndex;
// The same program on a short list: a few calls of its helper, small enough to list every draw.
let short: Trace;
let shortIndex: TreeIndex;
beforeAllOrFail(() => {
  tr = record(SRC, 'f(list(range(30)))');
  index = buildTraceIndex(tr.events);
  short = record(SRC, 'f([1, 2, 3])');
  shortIndex = buildTraceIndex(short.events);
});

describe('sampler', () => {
  it('draws actions in the proportions of the paper policy', () => {
    const counts: Record<string, number> = {};
    const rng = mulberry32(1);
    const scope = new Scope(index, 0);
    for (let k = 0; k < 3000; k++)
      for (const a of sampleTrajectory(scope, 'forward', rng).actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    // Expected: 0.5 * (w / 0.80) + 0.5 * second table.
    const expected = {
      step_into: 0.5 * 0.4375 + 0.25,
      step_over: 0.5 * 0.125 + 0.25,
      step_return: 0.25 * 0.5,
      breakpoint: 0.0625,
      continue: 0.03125,
    };
    for (const [a, p] of Object.entries(expected)) expect(Math.abs(counts[a] / total - p), a).toBeLessThan(0.02);
  });

  it('inverse uses only inverse actions, uniform in the first table', () => {
    const counts: Record<string, number> = {};
    const rng = mulberry32(2);
    const scope = new Scope(index, 0);
    for (let k = 0; k < 2000; k++)
      for (const a of sampleTrajectory(scope, 'inverse', rng).actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
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
    const t = sampleTrajectory(new Scope(index, 0), 'forward', mulberry32(4), {
      policy: { ...PAPER_POLICY, forward: { mix: 0, first: {}, second: { step_into: 1 } } },
      maxSteps: 5,
    });
    expect(t.actions.length).toBe(5);
    expect(t.states.length).toBe(6);
    expect(t.exit).toBeNull();
    expect(serialize(index, t, tr.header.context_forward)).toMatch(
      /<\|src_sep\|>[^<]*<\|trace_end\|><\|end_of_text\|>$/,
    );
  });

  it('entries: root, every call, or random calls; both directions', () => {
    const calls = tr.events.filter((e) => e.event === 'call').map((e) => e.seq);
    const all = sampleTrace(index, { seed: 5, traceKey: 'x', perTrace: 2, entry: 'calls', direction: 'both' });
    expect(all.length).toBe(calls.length * 2 * 2);
    expect(new Set(all.map((t) => t.entry))).toEqual(new Set(calls));
    const root = sampleTrace(index, { seed: 5, traceKey: 'x', perTrace: 3, entry: 'root', direction: 'inverse' });
    expect(root.map((t) => [t.entry, t.direction])).toEqual([
      [0, 'inverse'],
      [0, 'inverse'],
      [0, 'inverse'],
    ]);
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
    expect(sampleTrace(index, { seed: 9, traceKey: 2, perTrace: 4, entry: 'root', direction: 'forward' })).not.toEqual(
      more,
    );
  });

  it('rejects a policy without usable weights', () => {
    expect(() => validatePolicy(PAPER_POLICY)).not.toThrow();
    expect(() =>
      validatePolicy({ ...PAPER_POLICY, forward: { mix: 0.5, first: { step_into: -1 }, second: { step_over: 1 } } }),
    ).toThrow(/non-negative/);
    expect(() =>
      validatePolicy({ ...PAPER_POLICY, inverse: { mix: 0.5, first: {}, second: { inv_step_over: 1 } } }),
    ).toThrow(/positive/);
  });
});

/** A policy as read from a file: any JSON, checked by validatePolicy. */
const withForward = (forward: unknown): Policy => ({ ...PAPER_POLICY, forward: forward as Policy['forward'] });

describe('validatePolicy', () => {
  it('accepts mix 0 with no first table, mix 1 with no second, and zero weights beside a positive one', () => {
    expect(() => validatePolicy(withForward({ mix: 0, first: {}, second: { step_into: 1 } }))).not.toThrow();
    expect(() => validatePolicy(withForward({ mix: 1, first: { step_into: 1 }, second: {} }))).not.toThrow();
    expect(() =>
      validatePolicy(withForward({ mix: 0.5, first: { step_into: 0, step_over: 2 }, second: { continue: 1 } })),
    ).not.toThrow();
  });

  it('refuses a mix outside 0..1 or not a number, or a direction missing', () => {
    // A string or a boolean from a JSON file was taken for a number ("" as 0, true as 1).
    for (const mix of [-0.1, 1.5, Number.NaN, '0.5', '', true, null]) {
      const e = refusal(() => validatePolicy(withForward({ mix, first: { step_into: 1 }, second: { step_into: 1 } })));
      expect([e.message, e.code], String(mix)).toEqual([
        'policy.forward.mix: expected a number from 0 to 1',
        'bad-input',
      ]);
    }
    const e = refusal(() => validatePolicy({ forward: PAPER_POLICY.forward } as Policy));
    expect([e.message, e.code]).toEqual(['policy.inverse.mix: expected a number from 0 to 1', 'bad-input']);
  });

  it('refuses a weight that is not a non-negative number, and a table it draws from without a positive weight', () => {
    const e1 = refusal(() =>
      validatePolicy(withForward({ mix: 0.5, first: { step_into: '1' }, second: { step_into: 1 } })),
    );
    expect([e1.message, e1.code]).toEqual(['policy.forward.first: expected non-negative weights', 'bad-input']);
    const e2 = refusal(() =>
      validatePolicy(withForward({ mix: 0.5, first: { step_into: 1 }, second: { step_into: 0, step_over: 0 } })),
    );
    expect([e2.message, e2.code]).toEqual(['policy.forward.second: expected a positive weight', 'bad-input']);
    const e3 = refusal(() => validatePolicy(withForward({ mix: 1, first: { step_into: 0 }, second: {} })));
    expect([e3.message, e3.code]).toEqual(['policy.forward.first: expected a positive weight', 'bad-input']);
  });
});

describe('sampleTrajectory', () => {
  it('with mix 0 never draws from the first table, even when the PRNG gives 0', () => {
    const policy = withForward({ mix: 0, first: {}, second: { step_into: 1 } });
    const t = sampleTrajectory(new Scope(shortIndex, 0), 'forward', () => 0, { policy });
    expect(t.actions.length).toBe(short.events.length);
    expect(t.actions.every((a) => a.action === 'step_into')).toBe(true);
    expect(t.exit).toBe('exit_normal');
  });

  it('an inverse table naming breakpoint (a policy file may) never draws it: inverse has no breakpoint', () => {
    const policy: Policy = {
      ...PAPER_POLICY,
      inverse: { mix: 1, first: { inv_step_into: 1, breakpoint: 5 } as Policy['inverse']['first'], second: {} },
    };
    const rng = mulberry32(11);
    for (let k = 0; k < 20; k++) {
      const t = sampleTrajectory(new Scope(shortIndex, 0), 'inverse', rng, { policy });
      expect(t.actions.every((a) => a.action === 'inv_step_into')).toBe(true);
    }
  });
});

describe('sampleTrace', () => {
  it('defaults to the root, forward: the same draws as saying so', () => {
    const plain = sampleTrace(shortIndex, { seed: 3, traceKey: 'k', perTrace: 4 });
    expect(plain.map((t) => [t.entry, t.direction, t.k])).toEqual([0, 1, 2, 3].map((k) => [0, 'forward', k]));
    expect(
      sampleTrace(shortIndex, { seed: 3, traceKey: 'k', perTrace: 4, entry: 'root', direction: 'forward' }),
    ).toEqual(plain);
  });

  it('entry "calls" draws from each call in order, forward then inverse', () => {
    const calls = short.events.filter((e) => e.event === 'call').map((e) => e.seq);
    expect(calls.length).toBeGreaterThan(3); // f, helper three times (and the recorder's own entry)
    const all = sampleTrace(shortIndex, { seed: 5, traceKey: 'x', perTrace: 2, entry: 'calls', direction: 'both' });
    expect(all.map((t) => [t.entry, t.direction, t.k])).toEqual(
      calls.flatMap((c) => [
        [c, 'forward', 0],
        [c, 'forward', 1],
        [c, 'inverse', 0],
        [c, 'inverse', 1],
      ]),
    );
  });
});

describe('the PRNG', () => {
  it('mulberry32 gives the published sequence', () => {
    // mulberry32 (Tommy Ettinger), as published: seed 1 and seed 0.
    const a = mulberry32(1);
    expect([a(), a(), a()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
    const b = mulberry32(0);
    expect([b(), b()]).toEqual([0.26642920868471265, 0.0003297457005828619]);
  });

  it('seedFrom mixes every part: numbers to 64 bits, strings by their characters and order', () => {
    expect(seedFrom('ab')).not.toBe(seedFrom('ba'));
    expect(seedFrom('ab')).not.toBe(seedFrom('ac'));
    expect(seedFrom(2 ** 32 + 7)).not.toBe(seedFrom(7));
    expect(seedFrom(1)).not.toBe(seedFrom('1'));
    // Pinned: the seeds behind data sets already sampled.
    expect([
      seedFrom(5, 'x', 'root', 0, 'forward', 0),
      seedFrom(0),
      seedFrom('ab'),
      seedFrom('ba'),
      seedFrom(''),
      seedFrom(2 ** 32 + 7),
      seedFrom(7),
    ]).toEqual([4067470087, 2499817573, 1447875595, 952100996, 871144039, 4088462299, 3204674946]);
  });

  it('pickWeighted: each weight owns a half-open interval', () => {
    expect(pickWeighted(() => 0, [0, 1, 1])).toBe(1);
    expect(pickWeighted(() => 0.5, [1, 1])).toBe(1);
    expect(pickWeighted(() => 0.4999, [1, 1])).toBe(0);
  });

  it('pickWeighted: when rounding leaves nothing drawn, the last positive weight is', () => {
    // 1.9 + 4.84 times the largest float below 1, minus 1.9, minus 4.84, is exactly 0.
    const top = () => 1 - 2 ** -53;
    expect(pickWeighted(top, [1.9, 4.84, 0])).toBe(1);
    expect(pickWeighted(top, [0, 1.9, 4.84])).toBe(2);
  });

  it('pickWeighted refuses weights without a positive one', () => {
    expect(() => pickWeighted(() => 0.3, [0, 0])).toThrow(new RangeError('pickWeighted: no positive weight'));
  });
});
