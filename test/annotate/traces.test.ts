/**
 * The pre-label rules over every step of the 800 CRUXEval traces, recorded by the recorder.
 * The predictions are the true next states with one known fault put in (an argument or a
 * newly bound local left out, a name that does not exist added), so the label each should get
 * is known by construction; and the true state itself must get none. This holds the rules to
 * real reprs, deltas, frames and programs, not only hand-made ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { prelabel, type PrelabelInput } from '../../src/annotate/index.js';
import {
  buildTraceIndex,
  parsePrediction,
  renderState,
  showState,
  type Prediction,
  type ShownState,
} from '../../src/semantics/index.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { cruxevalTraces, type Trace } from '../semantics/helpers.js';

const read = (s: ShownState): Prediction => {
  const p = parsePrediction(renderState(s));
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
};

interface Step {
  input: PrelabelInput;
  /** The previous state's text: a prediction equal to it is a copy, whatever was changed. */
  before: string;
  truth: ShownState;
  /** Names the true state shows that the previous state of its frame did not have (or all, for a call). */
  fresh: string[];
}

/** Every step_into of every trace: previous state → true state, as the prompt shows them. */
function steps(traces: Trace[]): Step[] {
  const out: Step[] = [];
  for (const t of traces) {
    const index = buildTraceIndex(t.events);
    for (let seq = 1; seq < t.events.length; seq++) {
      const ev = t.events[seq];
      const prev = t.events[seq - 1];
      const truth = showState(index, 'forward', seq, seq - 1);
      const before = showState(index, 'forward', seq - 1, seq - 2 >= 0 ? seq - 2 : -1);
      const frameEvents = t.events.filter((e) => e.frame === ev.frame);
      const fresh = Object.keys(truth.locals ?? {}).filter(
        (k) => k !== '..' && (ev.event === 'call' || prev.frame !== ev.frame || !(k in prev.locals)),
      );
      out.push({
        truth,
        before: renderState(before),
        fresh,
        input: {
          completion: renderState(truth),
          truth: read(truth),
          direction: 'forward',
          action: 'step_into',
          source: t.header.context_forward,
          trueEvent: ev,
          previous: { state: read(before), event: prev },
          frameEvents,
        },
      });
    }
  }
  return out;
}

let traces: Trace[];
let all: Step[];
beforeAll(() => {
  traces = cruxevalTraces();
  all = steps(traces);
}, 300_000);

describe('pre-labels on every step of the CRUXEval traces', () => {
  it('the true state itself gets no pre-label', () => {
    expect(all.length).toBeGreaterThan(10_000);
    const labelled = all.filter((s) => prelabel(s.input).length > 0);
    expect(labelled.map((s) => s.input.completion).slice(0, 3)).toEqual([]);
  });

  it('leaving out a newly bound local or an argument is a missing local, and only that', () => {
    let n = 0;
    for (const s of all) {
      for (const name of s.fresh) {
        const locals = { ...s.truth.locals };
        delete locals[name];
        const completion = renderState({ ...s.truth, locals });
        // A loop line whose only change is its loop variable, without it, is the state before.
        const expected = completion === s.before ? 'format.repeated' : 'data.missing_local';
        const got = prelabel({ ...s.input, completion });
        expect(
          got.map((x) => x.label),
          `${s.input.completion} without ${name}`,
        ).toEqual([expected]);
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  it('adding a name the frame does not have is an invented local, and only that', () => {
    let n = 0;
    for (const s of all) {
      if (!s.truth.locals) continue;
      const got = prelabel({
        ...s.input,
        completion: renderState({ ...s.truth, locals: { ...s.truth.locals, zz_not_a_local: '0' } }),
      });
      expect(
        got.map((x) => x.label),
        s.input.completion,
      ).toEqual(['data.invented_local']);
      n++;
    }
    expect(n).toBeGreaterThan(5000);
  });

  it("a breakpoint answered with another visit's state of the line (two or more locals apart) is a loop iteration off", () => {
    let n = 0;
    for (const t of traces) {
      const index = buildTraceIndex(t.events);
      for (const ev of t.events) {
        if (ev.event !== 'line' || ev.seq === 0) continue;
        const frameEvents = t.events.filter((e) => e.frame === ev.frame);
        const other = frameEvents.find(
          (e) =>
            e.event === 'line' &&
            e.line === ev.line &&
            e.seq !== ev.seq &&
            Object.keys(ev.locals).filter((k) => e.locals[k] !== ev.locals[k]).length >= 2,
        );
        if (!other || Object.keys(other.locals).some((k) => !(k in ev.locals))) continue;
        const prev = t.events[ev.seq - 1];
        const truth = showState(index, 'forward', ev.seq, ev.seq - 1, true);
        const completion = renderState(showState(index, 'forward', other.seq, -1, true));
        if (completion === renderState(showState(index, 'forward', prev.seq, -1, true))) continue;
        const got = prelabel({
          completion,
          truth: read(truth),
          direction: 'forward',
          action: 'breakpoint',
          source: t.header.context_forward,
          trueEvent: ev,
          previous: { state: read(showState(index, 'forward', prev.seq, -1, true)), event: prev },
          frameEvents,
        });
        expect(
          got.map((x) => `${x.label} by ${x.rule}`),
          `${t.header.name} seq ${ev.seq} answered with seq ${other.seq}`,
        ).toEqual(['control.loop_iteration by other-iteration']);
        n++;
      }
    }
    expect(n).toBeGreaterThan(500);
  });

  it('one step from an if or a loop line answered with the line another run of it went to is a branch or a loop iteration', () => {
    let n = 0;
    for (const t of traces) {
      const index = buildTraceIndex(t.events);
      // Where each if/elif/for/while line (with a body on its own lines) went next, in the same frame.
      const next = new Map<string, Set<string>>();
      const stepsFrom: [TraceEvent, TraceEvent][] = [];
      for (let i = 1; i + 1 < t.events.length; i++) {
        const [h, after] = [t.events[i], t.events[i + 1]];
        if (
          h.event !== 'line' ||
          after.event !== 'line' ||
          after.frame !== h.frame ||
          !/^\s*(if|elif|for|while)\b.*:$/.test(h.src)
        )
          continue;
        const key = `${h.func}:${h.line}`; // a comprehension's frame runs on its function's line
        next.set(key, (next.get(key) ?? new Set()).add(after.src));
        stepsFrom.push([h, after]);
      }
      for (const [h, after] of stepsFrom) {
        const other = [...next.get(`${h.func}:${h.line}`)!].find((src) => src !== after.src);
        if (other === undefined) continue;
        const truth = showState(index, 'forward', after.seq, h.seq);
        const got = prelabel({
          completion: renderState({ ...truth, src: other }),
          truth: read(truth),
          direction: 'forward',
          action: 'step_into',
          source: t.header.context_forward,
          trueEvent: after,
          previous: { state: read(showState(index, 'forward', h.seq, h.seq - 1)), event: h },
        });
        const expected = /^\s*(if|elif)\b/.test(h.src)
          ? 'control.branch by branch-condition'
          : 'control.loop_iteration by loop-condition';
        expect(
          got.map((x) => `${x.label} by ${x.rule}`),
          `${t.header.name} seq ${after.seq}: ${other}`,
        ).toEqual([expected]);
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
  });
});
