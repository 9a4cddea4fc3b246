// Horizon and next-state sets at their edges (gaps the mutation run of src/predictions found):
// a one-line function, one point per trace, the traces a horizon set cannot use and why, the
// inverse count over a function that makes calls; next-state items spread over traces, entries
// and occurrences, never repeated, within the trajectory length asked for, the kinds that came
// short, an empty corpus, a trace without events, and the items of one seed pinned. Each test
// makes its own corpus (Stryker's per-test coverage ignores what a beforeAll builds).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { openCorpus, type Corpus, type StoredItem } from '../../src/store/corpus.js';
import { FGH, HELPER_LOOP, record } from '../semantics/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, tempDir, vectors } from './helpers.js';

const ONE_LINE = 'def f(x):\n    return x\n';
/** next-state items of ONE_LINE f(1), seed 7, one per kind: `key entry actions`, as made on 2026-12-01. */
const PINNED = [
  'step_into/0 0 step_over,step_into',
  'step_over/0 0 step_over',
  'step_return/0 0 step_return',
  'breakpoint/0 2 breakpoint',
  'continue/0 0 breakpoint,step_into,continue',
  'inv_step_into/0 2 inv_step_into,inv_step_into',
  'inv_step_over/0 2 inv_step_into,inv_step_over,inv_step_over',
  'inv_step_call/0 0 inv_step_into,inv_step_call',
];
const corpora: Corpus[] = [];
afterAll(() => {
  for (const c of corpora) c.close();
  cleanTempDirs();
});

async function corpusOfPrograms(programs: [string, string | null, string[]?][]): Promise<Corpus> {
  const { corpus } = await corpusOf(programs.map(([source, call, extra]) => record(source, call, extra ?? [])));
  corpora.push(corpus);
  return corpus;
}
const itemsOf = (c: Corpus, setId: number): StoredItem[] => [...c.iterateItems(setId)];
const steps = (it: StoredItem, kind: string) => it.actions.filter((a) => a.action === kind).length;

describe('horizon sets', () => {
  it('a one-line function: jumps from its call (horizon 1) and from its line (0), in both directions', async () => {
    const c = await corpusOfPrograms([[ONE_LINE, 'f(1)']]);
    const { set } = createEvalSet(c, { name: 'hz', task: 'horizon' });
    const items = itemsOf(c, set.id);
    expect(items.map((i) => [i.direction, i.horizon, i.key])).toEqual([
      ['forward', 1, 'forward/1/0'],
      ['forward', 0, 'forward/1/1'],
      ['inverse', 1, 'inverse/1/0'],
      ['inverse', 0, 'inverse/1/1'],
    ]);
  });

  it('one point per trace and direction: the jump from the call, horizon 1', async () => {
    const count = vectors().find((v) => v.name === 'count-forward-step-into')!;
    const c = await corpusOfPrograms([[count.source, count.call]]);
    const { set } = createEvalSet(c, { name: 'hz1', task: 'horizon', perAction: 1 });
    const items = itemsOf(c, set.id);
    expect(items.map((i) => [i.direction, i.horizon, i.actions.length])).toEqual([
      ['forward', 1, 3], // step_into, step_into, step_return
      ['inverse', 1, 1], // inv_step_call
    ]);
  });

  it('skips a call that never returned and a call never made, and says why; a script is not listed', async () => {
    const c = await corpusOfPrograms([
      ['x = 1\n', null],
      ['def f(x):\n    while True:\n        x += 1\n', 'f(1)', ['--max-events', '30']],
      [ONE_LINE, 'f(1/0)'],
      [ONE_LINE, 'f(1)'],
    ]);
    const { set, skipped } = createEvalSet(c, { name: 'hz', task: 'horizon' });
    expect(skipped).toEqual([
      { trace: 2, name: 'prog.py', reason: 'the function never returned or is not reached by two steps' },
      { trace: 3, name: 'prog.py', reason: 'no call of the function' },
    ]);
    expect(new Set(itemsOf(c, set.id).map((i) => i.traceId))).toEqual(new Set([4]));
  });

  it('f(g(1)): the items are about f, the function called, not g, called first in its arguments', async () => {
    const G_THEN_F = 'def g(x):\n    return x + 1\n\ndef f(x):\n    y = x * 2\n    return y\n';
    const c = await corpusOfPrograms([[G_THEN_F, 'f(g(1))'], [G_THEN_F, 'f(1)']]);
    const { set, skipped } = createEvalSet(c, { name: 'hz', task: 'horizon' });
    // f's call is not the second step from main (g's is), so the forward jump cannot reach it.
    expect(skipped).toEqual([{ trace: 1, name: 'prog.py', reason: 'the function never returned or is not reached by two steps' }]);
    expect(new Set(itemsOf(c, set.id).map((i) => i.traceId))).toEqual(new Set([2]));
  });

  it('inverse: a line that made a call counts twice, so the last jump steps over the calls too', async () => {
    // f([1, 2]) calls helper twice: its inverse top level has two nodes more than its forward states.
    const c = await corpusOfPrograms([[HELPER_LOOP, 'f([1, 2])']]);
    const { set } = createEvalSet(c, { name: 'hz', task: 'horizon' });
    const items = itemsOf(c, set.id);
    const fwd = items.filter((i) => i.direction === 'forward');
    const inv = items.filter((i) => i.direction === 'inverse');
    const fwdMax = Math.max(...fwd.map((i) => steps(i, 'step_over')));
    const invMax = Math.max(...inv.map((i) => steps(i, 'inv_step_over')));
    expect(invMax).toBe(fwdMax + 2);
    // The fractions are over each direction's own count: p steps of (m - 2) in all.
    for (const it of inv) expect(it.horizon).toBeCloseTo((invMax - steps(it, 'inv_step_over')) / invMax, 12);
  });
});

describe('next-state sets', () => {
  it('an empty corpus gives no items, with the reason, and stores nothing', async () => {
    const c = openCorpus(join(tempDir('stepscope-pred-'), 'c.db'), { create: true });
    corpora.push(c);
    expect(() => createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 2 })).toThrow(/next-state: no items to make \(no trace gives one\); nothing was stored/);
    expect(c.listEvalSets()).toEqual([]);
  });

  it('a program that did not compile (a trace with no events) gives no item, and does not stop the others', async () => {
    const broken: [string, null] = ['def f(:\n', null];
    const c = await corpusOfPrograms([broken, [ONE_LINE, 'f(1)']]);
    expect(c.getTrace(1)!.events).toBe(0);
    const { set, short } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 2, seed: 4 });
    expect(short).toEqual([]);
    const items = itemsOf(c, set.id);
    expect(items).toHaveLength(16);
    expect(new Set(items.map((i) => i.traceId))).toEqual(new Set([2]));
    const alone = await corpusOfPrograms([broken]);
    expect(() => createEvalSet(alone, { name: 'ns', task: 'next-state', perAction: 2 })).toThrow(/next-state: no items to make \(no trace gives one\)/);
  });

  it('draws from every trace, from entries other than the root, and cuts at other than the first occurrence', async () => {
    const count = vectors().find((v) => v.name === 'count-forward-step-into')!;
    const c = await corpusOfPrograms([[count.source, count.call], [HELPER_LOOP, 'f([1, 2, 3])'], [FGH, 'f(1)']]);
    const { set } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 6, seed: 3 });
    const items = itemsOf(c, set.id);
    expect(new Set(items.map((i) => i.traceId))).toEqual(new Set([1, 2, 3]));
    expect(items.some((i) => i.entry !== 0)).toBe(true);
    // An item whose action kind was taken before too: the cut is not always at the first one.
    expect(items.some((i) => steps(i, i.action) > 1)).toBe(true);
  });

  it('the same seed gives the same items from one version to the next (pinned on a one-line function)', async () => {
    const c = await corpusOfPrograms([[ONE_LINE, 'f(1)']]);
    const { set } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 1, seed: 7 });
    const got = itemsOf(c, set.id).map((i) => `${i.key} ${i.entry} ${i.actions.map((a) => a.action).join(',')}`);
    expect(got).toEqual(PINNED);
  });

  it('keeps trajectories within the length asked for', async () => {
    const c = await corpusOfPrograms([[HELPER_LOOP, 'f([1, 2, 3])']]);
    const { set } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 4, seed: 1, maxSteps: 2 });
    const items = itemsOf(c, set.id);
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) expect(it.actions.length).toBeLessThanOrEqual(2);
  });

  it('never repeats an item; a kind with too few distinct cuts comes short, with its count', async () => {
    // One action per trajectory over a one-line function: at most one cut per entry and kind.
    const c = await corpusOfPrograms([[ONE_LINE, 'f(1)']]);
    const { set, short } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 3, seed: 2, maxSteps: 1 });
    const items = itemsOf(c, set.id);
    const cuts = items.map((i) => JSON.stringify([i.traceId, i.direction, i.entry, i.actions]));
    expect(new Set(cuts).size).toBe(items.length);
    const made = (kind: string) => items.filter((i) => i.action === kind).length;
    expect(short.length).toBeGreaterThan(0);
    for (const s of short) expect(s).toEqual({ action: s.action, made: made(s.action) });
    for (const s of short) expect(s.made).toBeLessThan(3);
    for (const k of new Set(items.map((i) => i.action))) if (!short.some((s) => s.action === k)) expect(made(k)).toBe(3);
  });
});
