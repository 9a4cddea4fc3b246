// evalset create (src/predictions/create.ts): the options a set stores, the traces and
// directions it keeps to, the traces CRUXEval and horizon sets skip (and why), the refusals;
// what an item keeps beside its prompt and target (its true fields, where its target is, what
// the call behind it returned); then horizon and next-state sets at their edges: a one-line
// function, one point per trace, the traces a horizon set cannot use and why, the inverse count
// over a function that makes calls; next-state items spread over traces, entries and
// occurrences, never repeated, within the trajectory length asked for, the kinds that came
// short, an empty corpus, a trace without events, and the items of one seed pinned.
// The first describes share a corpus of small recordings: the reference vectors' programs, two
// calls in a row (FGH), and hand-labelled CRUXEval-like traces (one cut by the event limit, one
// whose call comes late, one task twice). The horizon and next-state tests make their own
// corpus inside each test, where per-test coverage sees it (a beforeAll's work is credited to no test).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet, type CreateOptions } from '../../src/predictions/create.js';
import { callReturn, Traces } from '../../src/predictions/items.js';
import { parsePrediction, seqOf } from '../../src/semantics/index.js';
import { openCorpus, type Corpus, type StoredItem } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { FGH, HELPER_LOOP, record, type Trace } from '../semantics/helpers.js';
import { corpusOf, tempDir, vectors, vectorTraces } from './helpers.js';

let corpus: Corpus;
/** Corpora the horizon and next-state tests make for themselves. */
const corpora: Corpus[] = [];
/** Trace ids by the names given below. */
const id: Record<string, number> = {};

const named = (t: Trace, name: string, meta: Record<string, unknown> = {}): Trace => ({
  ...t,
  header: { ...t.header, name, meta },
});
const crux = (t: Trace, name: string) => named(t, name, { task: 'cruxeval' });

beforeAll(async () => {
  const ok = record('def f(x):\n    y = x\n    return y\n', 'f(1)');
  const e = ok.events;
  // main's line twice before f's call: f's call is seq 3, not 2 (two step_into do not reach it).
  const late: Trace = {
    ...ok,
    events: [
      e[0],
      e[1],
      { ...e[1], seq: 2 },
      ...e.slice(2).map((x) => ({ ...x, seq: x.seq + 1, parent: x.parent === 1 ? 2 : x.parent })),
    ],
    end: { ...ok.end, events: e.length + 1 },
  };
  const traces: [string, Trace][] = [
    ...vectorTraces().traces.map((t, i): [string, Trace] => [`v${i}`, named(t, `v${i}`)]),
    ['fgh', named(record(FGH, 'f(1)'), 'fgh')],
    ['script', named(record('class A:\n    x = 1\n    y = 2\n', null), 'script')],
    ['nocall', named(record('def f(x):\n    return x\n', 'f(1/0)'), 'nocall')],
    [
      'cut',
      crux(record('def f(x):\n    y = x\n    y += 1\n    return y\n', 'f(1)', ['--max-events', '5']), 'sample_a'),
    ],
    ['late', crux(late, 'sample_b')],
    ['c1', crux(ok, 'sample_c')],
    ['c2', crux(record('def f(x):\n    y = x\n    return y\n', 'f(2)'), 'sample_c')],
  ];
  ({ corpus } = await corpusOf(
    traces.map(([, t]) => t),
    'stepscope-create-',
  ));
  // Ids in the order ingested (none is a duplicate of another: c1 and c2 share a name only).
  const ids = corpus.traceIds();
  expect(ids).toHaveLength(traces.length);
  traces.forEach(([key], i) => (id[key] = ids[i]));
}, 900_000);
afterAll(() => {
  corpus.close();
  for (const c of corpora) c.close();
  cleanTempDirs();
});

let n = 0;
const make = (o: Omit<CreateOptions, 'name'>) => createEvalSet(corpus, { name: `s${n++}`, ...o });
const itemsOf = (setId: number) => [...corpus.iterateItems(setId)];
const vectorIds = () =>
  Object.entries(id)
    .filter(([k]) => /^v\d+$/.test(k))
    .map(([, v]) => v);

/** The UserError (or other error) `f` throws, as [message, code]. */
function refusal(f: () => unknown): [string, string | undefined] {
  try {
    f();
  } catch (e) {
    return [(e as Error).message, (e as { code?: string }).code];
  }
  throw new Error('no error');
}

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

async function corpusOfPrograms(programs: [string, string | null, string[]?][]): Promise<Corpus> {
  const { corpus } = await corpusOf(programs.map(([source, call, extra]) => record(source, call, extra ?? [])));
  corpora.push(corpus);
  return corpus;
}
const itemsIn = (c: Corpus, setId: number): StoredItem[] => [...c.iterateItems(setId)];
const steps = (it: StoredItem, kind: string) => it.actions.filter((a) => a.action === kind).length;

describe('the options a set stores, and the traces and directions it keeps to', () => {
  it('next-state defaults: 10 per action kind, seed 0, both directions, 200 steps, every trace; nothing skipped', () => {
    const { set, short, skipped } = make({ task: 'next-state', traceIds: undefined });
    expect(set.options).toEqual({ traces: null, per_action: 10, seed: 0, direction: 'both', max_steps: 200 });
    expect(skipped).toEqual([]);
    const items = itemsOf(set.id);
    const counts = new Map<string, number>();
    for (const it of items) counts.set(it.action, (counts.get(it.action) ?? 0) + 1);
    for (const [action, c] of counts)
      expect(c, action).toBe(
        10 - (short.find((s) => s.action === action) ? 10 - short.find((s) => s.action === action)!.made : 0),
      );
    expect(Math.max(...counts.values())).toBe(10);
    expect(new Set(items.map((it) => it.direction))).toEqual(new Set(['forward', 'inverse']));
  });

  it('next-state with options: the traces given (sorted, once each), one direction, the step limit', () => {
    const [a, b] = vectorIds();
    const { set } = make({
      task: 'next-state',
      traceIds: [b, a, b],
      direction: 'forward',
      perAction: 2,
      seed: 5,
      maxSteps: 7,
    });
    expect(set.options).toEqual({ traces: [a, b], per_action: 2, seed: 5, direction: 'forward', max_steps: 7 });
    const items = itemsOf(set.id);
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) {
      expect(it.direction).toBe('forward');
      expect([a, b]).toContain(it.traceId);
      expect(it.actions.length).toBeLessThanOrEqual(7);
    }
  });

  it('horizon: 5 points by default, both directions; one direction when asked', () => {
    const both = make({ task: 'horizon', traceIds: [id.fgh] });
    expect(both.set.options).toEqual({ traces: [id.fgh], per_action: 5, direction: 'both' });
    expect(both.short).toEqual([]);
    expect(new Set(itemsOf(both.set.id).map((it) => it.direction))).toEqual(new Set(['forward', 'inverse']));
    const inv = make({ task: 'horizon', traceIds: [id.fgh], direction: 'inverse', perAction: 2 });
    expect(inv.set.options).toEqual({ traces: [id.fgh], per_action: 2, direction: 'inverse' });
    expect(itemsOf(inv.set.id).map((it) => it.direction)).toEqual(['inverse', 'inverse']);
  });

  it('horizon: a call-mode trace that never reached its call is skipped and said so', () => {
    const { set, skipped } = make({
      task: 'horizon',
      traceIds: [id.nocall, id.fgh],
      direction: 'forward',
      perAction: 1,
    });
    expect(skipped).toEqual([{ trace: id.nocall, name: 'nocall', reason: 'no call of the function' }]);
    expect(itemsOf(set.id).map((it) => it.traceId)).toEqual([id.fgh]);
  });
});

describe('CRUXEval sets: only CRUXEval traces, the first of each task, and the skipped ones said so', () => {
  for (const task of ['cruxeval-output', 'cruxeval-output-breakpoint'] as const) {
    it(task, () => {
      const { set, short, skipped } = make({ task });
      expect(short).toEqual([]);
      expect(skipped).toEqual([
        { trace: id.cut, name: 'sample_a', reason: 'the function never returned' },
        { trace: id.late, name: 'sample_b', reason: "f's call is not the second step from the root" },
        { trace: id.c2, name: 'sample_c', reason: 'another trace of sample_c comes first' },
      ]);
      expect(itemsOf(set.id).map((it) => [it.key, it.traceId])).toEqual([['sample_c', id.c1]]);
    });
  }

  it("cruxeval-input: f's call need not be the second step", () => {
    const { set, skipped } = make({ task: 'cruxeval-input' });
    expect(skipped.map((s) => [s.name, s.reason])).toEqual([
      ['sample_a', 'the function never returned'],
      ['sample_c', 'another trace of sample_c comes first'],
    ]);
    expect(itemsOf(set.id).map((it) => [it.key, it.traceId])).toEqual([
      ['sample_b', id.late],
      ['sample_c', id.c1],
    ]);
  });
});

it("a trace with no events (the recorder writes at least main's call; a hand-made file need not) is skipped", async () => {
  const ok = record('def f(x):\n    y = x\n    return y\n', 'f(1)');
  const empty = crux({ ...ok, events: [], end: { ...ok.end, exit: 'never', events: 0 } } as Trace, 'sample_e');
  const { corpus: c } = await corpusOf([empty, crux(ok, 'sample_c')], 'stepscope-create-');
  try {
    const [e, k] = c.traceIds();
    const co = createEvalSet(c, { name: 'co', task: 'cruxeval-output' });
    expect(co.skipped).toEqual([{ trace: e, name: 'sample_e', reason: 'the function never returned' }]);
    expect([...c.iterateItems(co.set.id)].map((it) => it.traceId)).toEqual([k]);
    const hz = createEvalSet(c, { name: 'hz', task: 'horizon' });
    expect(hz.skipped).toEqual([{ trace: e, name: 'sample_e', reason: 'no call of the function' }]);
  } finally {
    c.close();
  }
});

describe('refusals', () => {
  it('a name already used, a trace that is not there, an unknown task', () => {
    make({ task: 'horizon', traceIds: [id.fgh] });
    expect(refusal(() => createEvalSet(corpus, { name: `s${n - 1}`, task: 'horizon' }))).toEqual([
      `${corpus.path} already has an evaluation set named "s${n - 1}"`,
      'bad-input',
    ]);
    expect(refusal(() => make({ task: 'horizon', traceIds: [id.fgh, 9999] }))).toEqual([
      `${corpus.path} has no trace with id 9999`,
      'not-found',
    ]);
    // Refused before any item is made: not only when making one reaches the missing trace.
    expect(refusal(() => make({ task: 'next-state', perAction: 0, traceIds: [9999] }))).toEqual([
      `${corpus.path} has no trace with id 9999`,
      'not-found',
    ]);
    expect(() => make({ task: 'bogus' as CreateOptions['task'] })).toThrow(new RangeError('unknown task bogus'));
  });

  it('no items: nothing stored, and the message says why', () => {
    const before = corpus.listEvalSets().length;
    expect(refusal(() => make({ task: 'cruxeval-output', traceIds: vectorIds() }))).toEqual([
      'cruxeval-output: no items to make (no CRUXEval trace (record them with record-cruxeval)); nothing was stored',
      'bad-input',
    ]);
    expect(refusal(() => make({ task: 'next-state', perAction: 0 }))).toEqual([
      'next-state: no items to make (no trace gives one); nothing was stored',
      'bad-input',
    ]);
    // A script-mode trace has no recorded function: no horizon (its class body is not one).
    expect(refusal(() => make({ task: 'horizon', traceIds: [id.script] }))).toEqual([
      'horizon: no items to make (no trace gives one); nothing was stored',
      'bad-input',
    ]);
    expect(corpus.listEvalSets()).toHaveLength(before);
  });
});

describe('what an item keeps beside its prompt and target', () => {
  it("its true fields are its target's, and targetNode / targetSeq say where the target is", () => {
    const { set } = make({ task: 'next-state', perAction: 6, seed: 1, traceIds: [...vectorIds(), id.fgh] });
    const items = itemsOf(set.id);
    const traces = new Traces(corpus);
    const exits = { forward: 0, inverse: 0 };
    for (const it of items) {
      const parsed = parsePrediction(it.target);
      expect(parsed.ok, it.target).toBe(true);
      // Same keys, same values: a completion equal to the target matches on every field.
      expect(it.truth, `${it.key} ${it.target}`).toEqual(parsed.ok ? parsed.value : null);
      // An exit token (<|exit_normal|>, <|inv_exit_entry|> …) is no node of the tree.
      if (/^<\|(inv_)?exit_\w+\|>$/.test(it.target)) {
        exits[it.direction]++;
        expect(it.callReturn).toBeNull();
        expect([it.targetNode, it.targetSeq]).toEqual([null, null]);
      } else {
        expect(it.targetNode).toEqual(expect.any(Number));
        expect(it.targetSeq).toBe(seqOf(it.direction, it.targetNode!));
        expect(traces.get(it.traceId).events[it.targetSeq!].src).toBe(it.truth.src);
      }
    }
    expect(exits.forward).toBeGreaterThan(0);
    expect(exits.inverse).toBeGreaterThan(0);
    expect(items.some((it) => it.action === 'breakpoint' && it.truth.locals !== undefined)).toBe(true);
    expect(items.some((it) => it.truth.arg !== undefined)).toBe(true);
  });

  it('callReturn: only for an inverse inv_call target on a call-mode trace, the value that call returned', () => {
    const traces = new Traces(corpus);
    const fgh = traces.get(id.fgh);
    const fCall = fgh.events.find((e) => e.event === 'call' && e.func === 'f')!.seq;
    // f(1): g(1) returns 2 first, then h(2) returns 4, then f returns 4.
    expect(callReturn(fgh, 'inverse', 2 * fCall)).toBe('4');
    expect(callReturn(fgh, 'inverse', 2 * fCall + 1)).toBeNull();
    expect(callReturn(fgh, 'forward', fCall)).toBeNull();
    // main's line (not a call) in the inverse tree.
    expect(callReturn(fgh, 'inverse', 2 * 1)).toBeNull();
    // The class body of a script-mode trace is a call, but running it would run the script.
    const script = traces.get(id.script);
    expect(callReturn(script, 'inverse', 2 * script.events.find((e) => e.func === 'A')!.seq)).toBeNull();
    // A call cut by the event limit returned nothing.
    expect(callReturn(traces.get(id.cut), 'inverse', 2 * 2)).toBeNull();
  });

  it("items of an inverse set carry callReturn exactly where their target is a call's inv_call", () => {
    const { set } = make({ task: 'horizon', traceIds: [id.fgh], direction: 'inverse', perAction: 2 });
    for (const it of itemsOf(set.id)) expect(it.callReturn).toBe('4');
    const fwd = make({ task: 'horizon', traceIds: [id.fgh], direction: 'forward', perAction: 2 });
    for (const it of itemsOf(fwd.set.id)) expect(it.callReturn).toBeNull();
  });
});

describe('horizon sets', () => {
  it('a one-line function: jumps from its call (horizon 1) and from its line (0), in both directions', async () => {
    const c = await corpusOfPrograms([[ONE_LINE, 'f(1)']]);
    const { set } = createEvalSet(c, { name: 'hz', task: 'horizon' });
    const items = itemsIn(c, set.id);
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
    const items = itemsIn(c, set.id);
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
    expect(new Set(itemsIn(c, set.id).map((i) => i.traceId))).toEqual(new Set([4]));
  });

  it('f(g(1)): the items are about f, the function called, not g, called first in its arguments', async () => {
    const G_THEN_F = 'def g(x):\n    return x + 1\n\ndef f(x):\n    y = x * 2\n    return y\n';
    const c = await corpusOfPrograms([
      [G_THEN_F, 'f(g(1))'],
      [G_THEN_F, 'f(1)'],
    ]);
    const { set, skipped } = createEvalSet(c, { name: 'hz', task: 'horizon' });
    // f's call is not the second step from main (g's is), so the forward jump cannot reach it.
    expect(skipped).toEqual([
      { trace: 1, name: 'prog.py', reason: 'the function never returned or is not reached by two steps' },
    ]);
    expect(new Set(itemsIn(c, set.id).map((i) => i.traceId))).toEqual(new Set([2]));
  });

  it('inverse: a line that made a call counts twice, so the last jump steps over the calls too', async () => {
    // f([1, 2]) calls helper twice: its inverse top level has two nodes more than its forward states.
    const c = await corpusOfPrograms([[HELPER_LOOP, 'f([1, 2])']]);
    const { set } = createEvalSet(c, { name: 'hz', task: 'horizon' });
    const items = itemsIn(c, set.id);
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
    expect(() => createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 2 })).toThrow(
      /next-state: no items to make \(no trace gives one\); nothing was stored/,
    );
    expect(c.listEvalSets()).toEqual([]);
  });

  it('a program that did not compile (a trace with no events) gives no item, and does not stop the others', async () => {
    const broken: [string, null] = ['def f(:\n', null];
    const c = await corpusOfPrograms([broken, [ONE_LINE, 'f(1)']]);
    expect(c.getTrace(1)!.events).toBe(0);
    const { set, short } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 2, seed: 4 });
    expect(short).toEqual([]);
    const items = itemsIn(c, set.id);
    expect(items).toHaveLength(16);
    expect(new Set(items.map((i) => i.traceId))).toEqual(new Set([2]));
    const alone = await corpusOfPrograms([broken]);
    expect(() => createEvalSet(alone, { name: 'ns', task: 'next-state', perAction: 2 })).toThrow(
      /next-state: no items to make \(no trace gives one\)/,
    );
  });

  it('draws from every trace, from entries other than the root, and cuts at other than the first occurrence', async () => {
    const count = vectors().find((v) => v.name === 'count-forward-step-into')!;
    const c = await corpusOfPrograms([
      [count.source, count.call],
      [HELPER_LOOP, 'f([1, 2, 3])'],
      [FGH, 'f(1)'],
    ]);
    const { set } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 6, seed: 3 });
    const items = itemsIn(c, set.id);
    expect(new Set(items.map((i) => i.traceId))).toEqual(new Set([1, 2, 3]));
    expect(items.some((i) => i.entry !== 0)).toBe(true);
    // An item whose action kind was taken before too: the cut is not always at the first one.
    expect(items.some((i) => steps(i, i.action) > 1)).toBe(true);
  });

  it('the same seed gives the same items from one version to the next (pinned on a one-line function)', async () => {
    const c = await corpusOfPrograms([[ONE_LINE, 'f(1)']]);
    const { set } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 1, seed: 7 });
    const got = itemsIn(c, set.id).map((i) => `${i.key} ${i.entry} ${i.actions.map((a) => a.action).join(',')}`);
    expect(got).toEqual(PINNED);
  });

  it('keeps trajectories within the length asked for', async () => {
    const c = await corpusOfPrograms([[HELPER_LOOP, 'f([1, 2, 3])']]);
    const { set } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 4, seed: 1, maxSteps: 2 });
    const items = itemsIn(c, set.id);
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) expect(it.actions.length).toBeLessThanOrEqual(2);
  });

  it('never repeats an item; a kind with too few distinct cuts comes short, with its count', async () => {
    // One action per trajectory over a one-line function: at most one cut per entry and kind.
    const c = await corpusOfPrograms([[ONE_LINE, 'f(1)']]);
    const { set, short } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 3, seed: 2, maxSteps: 1 });
    const items = itemsIn(c, set.id);
    const cuts = items.map((i) => JSON.stringify([i.traceId, i.direction, i.entry, i.actions]));
    expect(new Set(cuts).size).toBe(items.length);
    const made = (kind: string) => items.filter((i) => i.action === kind).length;
    expect(short.length).toBeGreaterThan(0);
    for (const s of short) expect(s).toEqual({ action: s.action, made: made(s.action) });
    for (const s of short) expect(s.made).toBeLessThan(3);
    for (const k of new Set(items.map((i) => i.action)))
      if (!short.some((s) => s.action === k)) expect(made(k)).toBe(3);
  });
});
