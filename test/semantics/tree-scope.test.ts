/**
 * The state trees and the entry scope (tree.ts, scope.ts) at their edges: malformed traces and
 * entries refused with their messages, events under the entry's own call event, the inverse
 * tree of the root scope, `inv_step_call` out of a callee called right after another call, a
 * root with two top-level segments, traces cut by the event limit (on a line seen for the first
 * time, inside a call), and an index built from the columns alone.
 *
 * Every index is built inside its test, not in a beforeAll: Stryker counts only what a test
 * runs as that test's coverage, so an index built in a set-up hides the tree code from it.
 */
import { describe, expect, it } from 'vitest';
import {
  Scope,
  TraceShapeError,
  buildTraceIndex,
  buildTreeIndex,
  forwardChildren,
  inverseParent,
  inversePreorder,
  serialize,
  stateSeqs,
  walk,
  type TreeIndex,
} from '../../src/semantics/index.js';
import { UserError } from '../../src/common/errors.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { A, FGH, record, type Trace } from './helpers.js';
import { Oracle } from './oracle.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

/** A hand-made event (the trace format allows traces from other recorders). */
const ev = (
  seq: number,
  event: string,
  frame: number,
  src: string,
  parent: number | null,
  locals: Record<string, string> = {},
  arg: string | null = null,
): TraceEvent => ({ seq, event, frame, func: `f${frame}`, line: 1, src, locals, arg, parent }) as TraceEvent;

/** What buildTraceIndex (or `f`) throws: a TraceShapeError with its message, seq and code. */
function shapeError(f: () => unknown): { message: string; seq: number; code: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TraceShapeError);
    const x = e as TraceShapeError;
    return { message: x.message, seq: x.seq, code: x.code };
  }
  throw new Error('expected a TraceShapeError');
}

/** Every action from every node of every call's scope agrees with the naive restatement. */
function agreesWithOracle(tr: Trace, index: TreeIndex) {
  for (const e of tr.events.filter((x) => x.event === 'call')) {
    const scope = new Scope(index, e.seq);
    const o = new Oracle(tr.events, e.seq, tr.end.exit);
    expect(Array.from(inversePreorder(scope))).toEqual(o.inv);
    expect(scope.lineSources()).toEqual(o.lineSrcs());
    for (const s of o.pre) {
      expect(scope.stepInto(s)).toEqual(o.stepInto(s));
      expect(scope.stepOver(s)).toEqual(o.stepOver(s));
      expect(scope.stepReturn(s)).toEqual(o.stepReturn(s));
    }
    for (const id of o.inv) {
      expect(scope.invStepInto(id)).toEqual(o.invStepInto(id));
      expect(scope.invStepOver(id)).toEqual(o.invStepOver(id));
      expect(scope.invStepCall(id)).toEqual(o.invStepCall(id));
    }
  }
}

// Straight-line script, cut by the event limit on its third line (seen for the first time).
const STRAIGHT = `a = 1
b = a + 1
c = b * 2
d = c - 1
`;

// A script whose one line calls g, cut by the event limit inside g: right after g's call
// (the line calling it then has children up to the trace's last event) and right after g's
// return (the trace's last event is a return, but not the top level's).
const CALLS_G = `def g():
    return 1

a = g()
b = a
`;

let fgh: Trace;
let straight: Trace;
let cutAtCall: Trace;
let cutAtReturn: Trace;
beforeAllOrFail(() => {
  fgh = record(FGH, 'f(1)');
  straight = record(STRAIGHT, null, ['--max-events', '4']);
  cutAtCall = record(CALLS_G, null, ['--max-events', '4']);
  cutAtReturn = record(CALLS_G, null, ['--max-events', '6']);
});

describe('a malformed trace is refused with the event and what was expected', () => {
  const main = ev(0, 'call', 0, 'def main():', null);
  const bad = 'bad-input';

  it('a seq out of order, an unknown event kind', () => {
    expect(shapeError(() => buildTraceIndex([main, ev(2, 'line', 0, 'x', null)]))).toEqual({
      message: 'event 1: expected seq 1, got 2',
      seq: 1,
      code: bad,
    });
    expect(shapeError(() => buildTraceIndex([main, ev(1, 'opcode', 0, 'x', null)]))).toEqual({
      message: 'event 1: expected event call, line, return or exception, got "opcode"',
      seq: 1,
      code: bad,
    });
  });

  it('a parent that is not an earlier seq', () => {
    for (const p of [1, 2, -2]) {
      expect(shapeError(() => buildTraceIndex([main, ev(1, 'line', 0, 'x', p)]))).toEqual({
        message: `event 1: expected parent null or an earlier seq, got ${p}`,
        seq: 1,
        code: bad,
      });
    }
  });

  it('a parent whose subtree has already ended (from events, and from the columns the renderer draws)', () => {
    // 0 main call, 1 main line, 2-3 g under 1, 4 main line (closes 1), 5 a call claiming 1 as parent.
    const events = [
      main,
      ev(1, 'line', 0, 'a()', null),
      ev(2, 'call', 1, 'def g():', 1),
      ev(3, 'return', 1, 'def g():', 1, {}, 'None'),
      ev(4, 'line', 0, 'b()', null),
      ev(5, 'call', 2, 'def h():', 1),
    ];
    const expected = {
      message:
        'event 5: its parent 1 has already ended (expected the parent to be an event whose subtree is still open, so that pre-order equals time order)',
      seq: 5,
      code: bad,
    };
    expect(shapeError(() => buildTraceIndex(events))).toEqual(expected);
    expect(
      shapeError(() =>
        buildTreeIndex({
          count: 6,
          kind: [0, 1, 0, 2, 1, 0],
          parent: [-1, -1, 1, 1, -1, 1],
          frame: [0, 0, 1, 1, 0, 2],
        }),
      ),
    ).toEqual(expected);
  });

  it('a parent that is event 0 is an earlier seq like any other', () => {
    // Two calls made before the entry's first line: both sit under its call event.
    const index = buildTraceIndex([
      main,
      ev(1, 'call', 1, 'def g():', 0),
      ev(2, 'return', 1, 'def g():', 0, {}, '1'),
      ev(3, 'line', 0, 'x', null),
      ev(4, 'return', 0, 'x', null, {}, 'None'),
    ]);
    const root = new Scope(index, 0);
    expect(forwardChildren(root, 0)).toEqual([1, 2]);
    expect(root.stepOver(0)).toEqual({ node: 3 });
    expect(Array.from(inversePreorder(root))).toEqual([8, 6, 1, 4, 2, 0]);
  });
});

describe('segments', () => {
  it('a call always opens a new activation (§3), even of a frame number whose last activation has no return', () => {
    // A trace from another recorder where g's first activation lost its return (its tracing
    // was switched off inside it) and the same frame number is called again.
    const index = buildTraceIndex([
      ev(0, 'call', 0, 'def main():', null),
      ev(1, 'line', 0, '    g()', null),
      ev(2, 'call', 1, 'def g():', 1),
      ev(3, 'line', 1, '    stop_tracing()', 1),
      ev(4, 'line', 0, '    g()', null),
      ev(5, 'call', 1, 'def g():', 4),
      ev(6, 'line', 1, '    return 0', 4),
      ev(7, 'return', 1, '    return 0', 4, {}, '0'),
      ev(8, 'return', 0, '    g()', null, {}, 'None'),
    ]);
    const root = new Scope(index, 0);
    expect(root.stepReturn(6)).toEqual({ node: 7 });
    expect(root.stepReturn(2)).toEqual({ exit: 'exit_never' });
    expect(root.invStepCall(2 * 7)).toEqual({ node: 2 * 5 });
  });
});

describe('the inverse tree of the root scope', () => {
  it("starts at the entry's inv_return and doubles only nodes that have children (inv_step_into all the way)", () => {
    const index = buildTraceIndex(fgh.events);
    const root = new Scope(index, 0);
    const t = walk(root, 'inverse', A(...Array(17).fill('inv_step_into')));
    expect(stateSeqs(t)).toEqual([13, 1, 12, 11, 7, 10, 9, 8, 7, 3, 6, 5, 4, 3, 2, 1, 0]);
    expect(t.exit).toBe('inv_exit_entry');
    expect(
      serialize(
        index,
        walk(root, 'inverse', A('inv_step_over', 'inv_step_over', 'inv_step_over', 'inv_step_over')),
        fgh.header.context_inverse,
      ),
    ).toBe(
      '<|begin_of_text|><|trace_context_start|>' +
        FGH +
        '<|frame_sep|><|inv_return_sep|><|src_sep|>    return f(1)<|arg_sep|>"4"<|action_sep|><|inv_step_over|>' +
        '<|frame_sep|><|inv_line_call_sep|><|src_sep|>    return f(1)<|action_sep|><|inv_step_over|>' +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>    return f(1)<|arg_sep|>{}<|action_sep|><|inv_step_over|>' +
        '<|frame_sep|><|inv_call_sep|><|src_sep|>def main():<|arg_sep|>{}<|action_sep|><|inv_step_over|>' +
        '<|frame_sep|><|inv_exit_entry|><|trace_end|><|end_of_text|>',
    );
    agreesWithOracle(fgh, index);
  });
});

describe('inv_step_call', () => {
  it("from the inv_call of a callee called right after another call goes to its caller's inv_call", () => {
    const index = buildTraceIndex(fgh.events);
    const f = new Scope(index, 2);
    const t = walk(
      f,
      'inverse',
      A('inv_step_into', 'inv_step_into', 'inv_step_into', 'inv_step_call', 'inv_step_call', 'inv_step_call'),
    );
    expect(stateSeqs(t)).toEqual([12, 11, 7, 10, 8, 2]);
    expect(serialize(index, t, fgh.header.context_inverse)).toBe(
      '<|begin_of_text|><|trace_context_start|>' +
        FGH +
        '<|frame_sep|><|inv_return_sep|><|src_sep|>    return b<|arg_sep|>"4"<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>    return b<|arg_sep|>{"..": ".."}<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_line_call_sep|><|src_sep|>    b = h(a)<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_return_sep|><|src_sep|>    return x * 2<|arg_sep|>"4"<|action_sep|><|inv_step_call|>' +
        '<|frame_sep|><|inv_call_sep|><|src_sep|>def h(x):<|arg_sep|>{"x": "2"}<|action_sep|><|inv_step_call|>' +
        '<|frame_sep|><|inv_call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "1"}<|action_sep|><|inv_step_call|>' +
        '<|frame_sep|><|inv_exit_entry|><|trace_end|><|end_of_text|>',
    );
  });
});

describe("inverse parents (the explorer's inverse tree)", () => {
  it("a node's inverse parent is the inv_line_call of its forward parent; -1 at the scope's top level", () => {
    const index = buildTraceIndex(fgh.events);
    const root = new Scope(index, 0);
    // f's events hang under main's line (seq 1), g's under `a = g(x)` (3), h's under `b = h(a)` (7).
    expect([0, 2, 3, 26, 4, 6, 7, 8, 10, 12, 14, 16, 20, 24].map((id) => inverseParent(root, id))).toEqual([
      -1, -1, -1, -1, 3, 3, 3, 7, 7, 7, 3, 15, 15, 3,
    ]);
    const f = new Scope(index, 2);
    expect([4, 6, 7, 8, 24, 16].map((id) => inverseParent(f, id))).toEqual([-1, -1, -1, 7, -1, 15]);
  });
});

describe('the entry of a scope', () => {
  it('an empty trace, an entry out of range, an entry that is not a call are refused', () => {
    expect(shapeError(() => new Scope(buildTraceIndex([]), 0))).toEqual({
      message: 'the trace has no events',
      seq: 0,
      code: 'bad-input',
    });
    const index = buildTraceIndex(fgh.events);
    for (const entry of [-1, 14, 1.5]) {
      expect(shapeError(() => new Scope(index, entry))).toEqual({
        message: `entry ${entry}: expected the seq of a call event (0 to 13)`,
        seq: entry,
        code: 'bad-input',
      });
    }
    expect(shapeError(() => new Scope(index, 3))).toEqual({
      message: 'entry 3: expected the seq of a call event, got a line event',
      seq: 3,
      code: 'bad-input',
    });
    expect(shapeError(() => new Scope(index, 12))).toEqual({
      message: 'entry 12: expected the seq of a call event, got a return event',
      seq: 12,
      code: 'bad-input',
    });
  });

  it('the root holds every top-level segment, and may start with an event that is not a call', () => {
    // A callback run with no traced ancestor after main returned (an atexit handler, a finalizer).
    const events = [
      ev(0, 'call', 0, 'def main():', null),
      ev(1, 'line', 0, '    return 1', null),
      ev(2, 'return', 0, '    return 1', null, {}, '1'),
      ev(3, 'call', 1, 'def bye():', null),
      ev(4, 'line', 1, '    print("bye")', null),
      ev(5, 'return', 1, '    print("bye")', null, {}, 'None'),
    ];
    const root = new Scope(buildTraceIndex(events), 0);
    const t = walk(root, 'forward', A('step_over', 'step_over', 'step_over', 'step_over', 'step_over', 'step_over'));
    expect(stateSeqs(t)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(t.exit).toBe('exit_normal');
    expect(root.lineSources()).toEqual(['    return 1', '    print("bye")']);
    // A trace whose recording began inside a frame: its first event is a line.
    const midway = new Scope(buildTraceIndex(events.slice(1).map((e, i) => ({ ...e, seq: i }))), 0);
    expect(stateSeqs(walk(midway, 'forward', A('step_into')))).toEqual([0, 1]);
  });

  it('applying an action of the other direction is refused with a message', () => {
    const root = new Scope(buildTraceIndex(fgh.events), 0);
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        return [(e as UserError).message, (e as UserError).code];
      }
      return null;
    };
    expect(refusal(() => root.apply('forward', 0, { action: 'inv_step_into' }))).toEqual([
      'inv_step_into is not a forward action',
      'bad-input',
    ]);
    expect(refusal(() => root.apply('inverse', 26, { action: 'continue' }))).toEqual([
      'continue is not an inverse action',
      'bad-input',
    ]);
  });

  it('what needs the events says so on an index built from the columns alone', () => {
    const index = buildTraceIndex(fgh.events);
    const bare = buildTreeIndex({ count: index.count, kind: index.kind, parent: index.parent, frame: index.frame });
    const root = new Scope(bare, 0);
    expect(root.stepOver(1)).toEqual({ node: 13 });
    expect(() => root.lineSources()).toThrow(
      new Error('this operation needs the events: build the index with buildTraceIndex(events)'),
    );
  });
});

describe('a trace cut by the event limit on a line never seen before', () => {
  it("that line is among the scope's breakpoint lines", () => {
    expect(straight.end.exit).toBe('never');
    expect(straight.events.map((e) => e.event)).toEqual(['call', 'line', 'line', 'line']);
    const index = buildTraceIndex(straight.events);
    const root = new Scope(index, 0);
    expect(root.lineSources()).toEqual(['a = 1', 'b = a + 1', 'c = b * 2']);
    expect(root.breakpoint(0, 'c = b * 2')).toEqual({ node: 3 });
    agreesWithOracle(straight, index);
  });
});

describe('a trace cut by the event limit inside a call', () => {
  it('cut after the call: the inverse tree starts at the last event and holds every node once', () => {
    expect(cutAtCall.events.map((e) => e.event)).toEqual(['call', 'line', 'line', 'call']);
    const index = buildTraceIndex(cutAtCall.events);
    const root = new Scope(index, 0);
    const o = new Oracle(cutAtCall.events, 0, cutAtCall.end.exit);
    // 4 events, and the line calling g doubled as an inv_line_call: 5 inverse nodes.
    expect(Array.from(inversePreorder(root))).toEqual(o.inv);
    expect(o.inv).toHaveLength(5);
    expect(root.start('inverse')).toBe(o.inv[0]);
    expect(root.forwardExit).toBe('exit_never');
  });

  it("cut after the callee's return: leaving the root forward is exit_never, not exit_normal", () => {
    expect(cutAtReturn.events.map((e) => e.event)).toEqual(['call', 'line', 'line', 'call', 'line', 'return']);
    expect(cutAtReturn.end.exit).toBe('never');
    const index = buildTraceIndex(cutAtReturn.events);
    const root = new Scope(index, 0);
    expect(root.forwardExit).toBe('exit_never');
    const o = new Oracle(cutAtReturn.events, 0, cutAtReturn.end.exit);
    expect(Array.from(inversePreorder(root))).toEqual(o.inv);
    for (const s of o.pre) expect(root.stepReturn(s), `stepReturn(${s})`).toEqual(o.stepReturn(s));
  });
});

describe("events whose parent is the entry's own call event", () => {
  // Calls made before the entry's first line (a default argument, a decorator) sit under its
  // call event: they are inside the scope, one level down, not at its top level.
  const events = [
    ev(0, 'call', 0, 'def main():', null),
    ev(1, 'call', 1, 'def g():', 0),
    ev(2, 'return', 1, 'def g():', 0, {}, '1'),
    ev(3, 'line', 0, 'x', null),
    ev(4, 'return', 0, 'x', null, {}, 'None'),
  ];
  it('have the entry as their parent in both trees, as the restatement says', () => {
    const index = buildTraceIndex(events);
    const root = new Scope(index, 0);
    const o = new Oracle(events, 0, 'normal');
    expect(root.parentOf(1)).toBe(0);
    expect(root.parentOf(2)).toBe(0);
    for (const s of o.pre) expect(root.stepReturn(s), `stepReturn(${s})`).toEqual(o.stepReturn(s));
    // The inverse parent of g's nodes is main's inv_line_call (2·0 + 1).
    expect(inverseParent(root, 2 * 1)).toBe(1);
    expect(inverseParent(root, 2 * 2)).toBe(1);
  });
});

describe("an index built from the columns alone (the store's skeleton)", () => {
  it('steps forward off the end of the scope: a return at the top level is exit_normal', () => {
    // Without the events, the return's value (null for an exception) is unknown.
    const bare = buildTreeIndex({ count: 3, kind: [0, 1, 2], parent: [-1, -1, -1], frame: [0, 0, 0] });
    const root = new Scope(bare, 0);
    expect(root.forwardExit).toBe('exit_normal');
    expect(root.stepOver(2)).toEqual({ exit: 'exit_normal' });
  });
});
