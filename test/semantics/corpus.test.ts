/**
 * The semantics over all 800 CRUXEval traces recorded by the real recorder, checked against
 * the naive restatement in oracle.ts on every node of every scope (the root and every call).
 */
import { describe, expect, it } from 'vitest';
import {
  Scope,
  buildTraceIndex,
  contextFor,
  forwardChildren,
  forwardRoots,
  inverseChildren,
  inversePreorder,
  inverseRoots,
  joinParts,
  parseTrajectory,
  renderState,
  sampleTrace,
  serialize,
  showStates,
  stateSeqs,
  walk,
  actionText,
  exitToken,
  type Action,
  type ShownState,
  type TreeIndex,
} from '../../src/semantics/index.js';
import { Oracle } from './oracle.js';
import { oracleText } from './oracle-text.js';
import { checkedTraces, shapesOf, SUBSET } from './corpus-subset.js';
import { cruxevalTraces, type Trace } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let all: Trace[] = [];
/** All 800, or a fixed subset under mutation testing (corpus-subset.ts); the bounds below scale with it. */
let traces: Trace[] = [];
let indexes: TreeIndex[] = [];
/** The share of the 800 checked, by events. */
let share = 1;

beforeAllOrFail(() => {
  all = cruxevalTraces();
  traces = checkedTraces(all);
  indexes = traces.map((t) => buildTraceIndex(t.events));
  const events = (ts: Trace[]) => ts.reduce((n, t) => n + t.events.length, 0);
  share = events(traces) / events(all);
}, 300_000);

const entriesOf = (t: Trace) => t.events.filter((e) => e.event === 'call').map((e) => e.seq);

describe('CRUXEval corpus', () => {
  it('has 800 recorded traces; the traces checked have every shape the 800 have', () => {
    expect(all.length).toBe(800);
    if (!SUBSET) expect(traces).toBe(all);
    const shapes = (ts: Trace[]) => [...new Set(ts.flatMap((t) => [...shapesOf(t)]))].sort();
    expect(shapes(traces)).toEqual(shapes(all));
  });

  it('step_into alone visits every event in time order and exits as the trace did', () => {
    for (let i = 0; i < traces.length; i++) {
      const n = traces[i].events.length;
      const t = walk(
        new Scope(indexes[i], 0),
        'forward',
        Array.from({ length: n }, () => ({ action: 'step_into' }) as Action),
      );
      expect(t.states).toEqual(Array.from({ length: n }, (_, k) => k));
      expect(t.exit).toBe(`exit_${traces[i].end.exit}`);
    }
  });

  it('both trees and every action target agree with the restatement, for the root and every call as entry', () => {
    let checked = 0;
    for (let i = 0; i < traces.length; i++) {
      const tr = traces[i];
      for (const entry of entriesOf(tr)) {
        const scope = new Scope(indexes[i], entry);
        const o = new Oracle(tr.events, entry, tr.end.exit);
        const where = `${tr.header.name} entry ${entry}`;
        // Trees: pre-orders, top levels, children.
        expect(
          Array.from({ length: scope.hi - scope.lo + 1 }, (_, k) => scope.lo + k),
          where,
        ).toEqual(o.pre);
        expect(Array.from(inversePreorder(scope)), where).toEqual(o.inv);
        expect(forwardRoots(scope), where).toEqual(o.top);
        expect(inverseRoots(scope), where).toEqual(o.invLevelOf(o.top));
        for (const s of o.pre) {
          expect(forwardChildren(scope, s), where).toEqual(o.kids.get(s) ?? []);
          if (o.kids.has(s)) expect(inverseChildren(scope, 2 * s + 1), where).toEqual(o.invLevelOf(o.kids.get(s)!));
          expect(inverseChildren(scope, 2 * s)).toEqual([]);
        }
        // Actions: every node, every action (breakpoints: every distinct line src of the scope).
        const srcs = o.lineSrcs();
        for (const s of o.pre) {
          expect(scope.stepInto(s), `${where} step_into ${s}`).toEqual(o.stepInto(s));
          expect(scope.stepOver(s), `${where} step_over ${s}`).toEqual(o.stepOver(s));
          expect(scope.stepReturn(s), `${where} step_return ${s}`).toEqual(o.stepReturn(s));
          expect(scope.apply('forward', s, { action: 'continue' })).toEqual({ exit: o.exitKind });
          for (const src of srcs.slice(0, 6))
            expect(scope.breakpoint(s, src), `${where} breakpoint ${s}`).toEqual(o.breakpoint(s, src));
          checked += 4;
        }
        for (const id of o.inv) {
          expect(scope.invStepInto(id), `${where} inv_step_into ${id}`).toEqual(o.invStepInto(id));
          expect(scope.invStepOver(id), `${where} inv_step_over ${id}`).toEqual(o.invStepOver(id));
          expect(scope.invStepCall(id), `${where} inv_step_call ${id}`).toEqual(o.invStepCall(id));
          checked += 3;
        }
        expect(scope.start('inverse')).toBe(o.inv[0]);
      }
    }
    expect(checked).toBeGreaterThan(50_000 * share);
  });

  it('serialized text agrees with the restatement of §6, and parse(serialize(t)) gives t back, in both directions', () => {
    let n = 0;
    let elided = 0;
    for (let i = 0; i < traces.length; i++) {
      const ts = sampleTrace(indexes[i], {
        seed: 7,
        traceKey: i,
        perTrace: 2,
        entry: 'calls',
        direction: 'both',
        maxSteps: 40,
      });
      for (const t of ts) {
        const where = `${traces[i].header.name} ${t.direction} entry ${t.entry}`;
        const ctx = contextFor(t.direction, traces[i].header);
        const text = serialize(indexes[i], t, ctx);
        // Compared as text, so the order of locals and the place of ".." count.
        expect(text, where).toBe(oracleText(traces[i].events, t, ctx));
        elided += text.split('{"..": "..", ').length - 1;
        const p = parseTrajectory(text);
        if (!p.ok) throw new Error(`${where}: ${p.error.message}`);
        expect(p.value.context).toBe(ctx);
        expect(p.value.actions).toEqual(t.actions);
        expect(p.value.exit).toBe(t.exit);
        // The states as the explorer shows them, and as parsed back, give the same text.
        const textOf = (states: ShownState[]) =>
          joinParts({
            head: '<|begin_of_text|><|trace_context_start|>' + p.value.context,
            states: states.map(renderState),
            actions: p.value.actions.map(actionText),
            exit: p.value.exit && exitToken(p.value.exit),
          });
        expect(textOf(showStates(indexes[i], t)), where).toBe(text);
        expect(textOf(p.value.states), where).toBe(text);
        // Replaying the sampled actions reproduces the trajectory.
        expect(stateSeqs(walk(new Scope(indexes[i], t.entry), t.direction, t.actions))).toEqual(stateSeqs(t));
        n++;
      }
    }
    expect(n).toBeGreaterThan(3000 * (traces.length / 800));
    expect(elided).toBeGreaterThan(1000 * share);
  });

  it('sampling with a seed is reproducible and the seed matters', () => {
    const run = (seed: number) =>
      traces
        .slice(0, 100)
        .flatMap((tr, i) =>
          sampleTrace(indexes[i], { seed, traceKey: tr.header.name, perTrace: 3, entry: 'random', direction: 'both' }),
        );
    const a = run(42);
    expect(run(42)).toEqual(a);
    const b = run(43);
    expect(b.length).toBe(a.length);
    expect(b).not.toEqual(a);
  });
});
