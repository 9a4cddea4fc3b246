/**
 * Trajectories, states and their locals (trajectory.ts, state.ts, delta.ts): action lists that
 * cannot be walked, prompt steps out of range, the first state of an inverse trajectory over a
 * cut script, the delta right after the trace's second event, a name deleted before an inverse
 * step, and what an inv_line_call carries. Both renderings of a state are compared: `serialize`
 * (stateText) and the explorer's `walkView` (showState + renderState) are separate code.
 *
 * Every index is built inside its test, not in a beforeAll (see tree-scope.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  Scope,
  WalkError,
  buildTraceIndex,
  promptTarget,
  serialize,
  showState,
  showStates,
  stateSeqs,
  stateText,
  textParts,
  walk,
  walkView,
  type Action,
  type Direction,
  type TreeIndex,
} from '../../src/semantics/index.js';
import { UserError } from '../../src/common/errors.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { A, FGH, record, type Trace } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

const HEAD = '<|begin_of_text|><|trace_context_start|>';
const TAIL = '<|trace_end|><|end_of_text|>';

/** The text of a walk, checked to be the same through serialize and through the explorer's walkView. */
function text(
  index: TreeIndex,
  header: { context_forward: string; context_inverse: string },
  direction: Direction,
  entry: number,
  actions: Action[],
): string {
  const t = walk(new Scope(index, entry), direction, actions);
  const s = serialize(index, t, direction === 'forward' ? header.context_forward : header.context_inverse);
  expect(walkView(index, header, direction, entry, actions).text).toBe(s);
  return s;
}

/** What `f` throws: its class, message and (for a WalkError) step. */
function thrown(f: () => unknown): { error: string; message: string; step?: number; code?: string } {
  try {
    f();
  } catch (e) {
    const x = e as Error & { step?: number; code?: string };
    return {
      error: x.constructor.name,
      message: x.message,
      ...(x instanceof WalkError ? { step: x.step } : {}),
      ...(x instanceof UserError ? { code: x.code } : {}),
    };
  }
  throw new Error('expected an error');
}

// `del` leaves the earlier state with a name the later one does not have.
const DEL = `def d(x):
    y = x + 1
    del x
    return y
`;
const LOOP = `n = 0
while True:
    n += 1
`;

let fgh: Trace;
let del: Trace;
let loop: Trace;
beforeAllOrFail(() => {
  fgh = record(FGH, 'f(1)');
  del = record(DEL, 'd(1)');
  loop = record(LOOP, null, ['--max-events', '8']);
});

describe('action lists that cannot be walked', () => {
  it('an action of the other direction, named with its place in the list', () => {
    const root = new Scope(buildTraceIndex(fgh.events), 0);
    expect(thrown(() => walk(root, 'forward', A('step_into', 'inv_step_over')))).toEqual({
      error: 'WalkError',
      message: 'action 2 (inv_step_over) is not a forward action',
      step: 1,
      code: 'bad-input',
    });
    expect(thrown(() => walk(root, 'inverse', A('inv_step_into', 'inv_step_into', 'continue')))).toEqual({
      error: 'WalkError',
      message: 'action 3 (continue) is not an inverse action',
      step: 2,
      code: 'bad-input',
    });
  });

  it('an action after the exit', () => {
    const f = new Scope(buildTraceIndex(fgh.events), 2);
    expect(thrown(() => walk(f, 'forward', A('step_into', 'continue', 'step_into')))).toEqual({
      error: 'WalkError',
      message: 'action 3 (step_into) comes after the trajectory exited with exit_normal',
      step: 2,
      code: 'bad-input',
    });
    expect(thrown(() => walk(f, 'inverse', A('inv_step_call', 'inv_step_call', 'inv_step_over')))).toEqual({
      error: 'WalkError',
      message: 'action 3 (inv_step_over) comes after the trajectory exited with inv_exit_entry',
      step: 2,
      code: 'bad-input',
    });
  });
});

describe('prompt and target of a step', () => {
  it("a step that is not one of the trajectory's actions is refused", () => {
    const index = buildTraceIndex(fgh.events);
    const t = walk(new Scope(index, 2), 'forward', A('step_into', 'step_over', 'step_return'));
    const p = textParts(index, t, fgh.header.context_forward);
    for (const k of [-1, 3, 1.5]) {
      expect(thrown(() => promptTarget(p, k))).toEqual({
        error: 'RangeError',
        message: `step ${k}: expected 0 to 2 (the trajectory has 3 actions)`,
      });
    }
    expect(promptTarget(p, 2)).toEqual({
      prompt:
        HEAD +
        FGH +
        '\ndef main():\n    return f(1)\n' +
        '<|frame_sep|><|call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "1"}<|action_sep|><|step_into|>' +
        '<|frame_sep|><|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>    a = g(x)<|action_sep|><|step_over|>' +
        '<|frame_sep|><|line_sep|><|arg_sep|>{"..": "..", "a": "2"}<|src_sep|>    b = h(a)<|action_sep|><|step_return|><|frame_sep|>',
      target: '<|return_sep|><|src_sep|>    return b<|arg_sep|>"4"',
    });
  });
});

describe('the first state shows all its locals', () => {
  it('inverse over a script cut inside its loop: the last recorded line comes first, with all its locals', () => {
    expect(loop.end.exit).toBe('never');
    const index = buildTraceIndex(loop.events);
    expect(text(index, loop.header, 'inverse', 0, A('inv_step_into', 'inv_step_into'))).toBe(
      HEAD +
        LOOP +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>    n += 1<|arg_sep|>{"n": "2"}<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>while True:<|arg_sep|>{"..": ".."}<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>    n += 1<|arg_sep|>{"n": "1"}' +
        TAIL,
    );
    const t = walk(new Scope(index, 0), 'inverse', A('inv_step_into'));
    expect(showStates(index, t)).toStrictEqual([
      { kind: 'inv_line', src: '    n += 1', locals: { n: '2' } },
      { kind: 'inv_line', src: 'while True:', locals: { '..': '..' } },
    ]);
  });
});

describe('locals as a delta', () => {
  it("right after the trace's second event, in the same frame, only what changed is shown", () => {
    // A trace from a recorder that starts at the function itself (no main wrapper): its
    // second event (seq 1) already has locals.
    const ev = (
      seq: number,
      event: string,
      src: string,
      locals: Record<string, string>,
      arg: string | null = null,
    ): TraceEvent => ({ seq, event, frame: 0, func: 'f', line: seq + 1, src, locals, arg, parent: null }) as TraceEvent;
    const events = [
      ev(0, 'call', 'def f(x):', { x: '1' }),
      ev(1, 'line', '    y = x + 1', { x: '1' }),
      ev(2, 'line', '    return y', { x: '1', y: '2' }),
      ev(3, 'return', '    return y', { x: '1', y: '2' }, '2'),
    ];
    const ctx = 'def f(x):\n    y = x + 1\n    return y\n';
    const index = buildTraceIndex(events);
    expect(
      text(
        index,
        { context_forward: ctx, context_inverse: ctx },
        'forward',
        0,
        A('step_into', 'step_into', 'step_into', 'step_into'),
      ),
    ).toBe(
      HEAD +
        ctx +
        '<|frame_sep|><|call_sep|><|src_sep|>def f(x):<|arg_sep|>{"x": "1"}<|action_sep|><|step_into|>' +
        '<|frame_sep|><|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>    y = x + 1<|action_sep|><|step_into|>' +
        '<|frame_sep|><|line_sep|><|arg_sep|>{"..": "..", "y": "2"}<|src_sep|>    return y<|action_sep|><|step_into|>' +
        '<|frame_sep|><|return_sep|><|src_sep|>    return y<|arg_sep|>"2"<|action_sep|><|step_into|>' +
        '<|frame_sep|><|exit_normal|>' +
        TAIL,
    );
  });

  it('inverse: a name the later state no longer has (deleted) is left out, like an unchanged one', () => {
    const index = buildTraceIndex(del.events);
    const d = del.events.find((e) => e.func === 'd' && e.event === 'call')!.seq;
    expect(
      text(
        index,
        del.header,
        'inverse',
        d,
        A('inv_step_into', 'inv_step_into', 'inv_step_into', 'inv_step_into', 'inv_step_into'),
      ),
    ).toBe(
      HEAD +
        DEL +
        '<|frame_sep|><|inv_return_sep|><|src_sep|>    return y<|arg_sep|>"2"<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>    return y<|arg_sep|>{"..": ".."}<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>    del x<|arg_sep|>{"..": ".."}<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_line_sep|><|src_sep|>    y = x + 1<|arg_sep|>{"..": ".."}<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_call_sep|><|src_sep|>def d(x):<|arg_sep|>{"x": "1"}<|action_sep|><|inv_step_into|>' +
        '<|frame_sep|><|inv_exit_entry|>' +
        TAIL,
    );
    // Forward, the same name is simply gone: nothing marks a deletion.
    expect(walkView(index, del.header, 'forward', d, A('step_into', 'step_into', 'step_into')).shown).toEqual([
      { x: '1' },
      { '..': '..' },
      { '..': '..', y: '2' },
      { '..': '..' },
    ]);
  });

  it('showState and stateText give the delta unless asked for all locals', () => {
    const index = buildTraceIndex(fgh.events);
    // seq 3 (`a = g(x)`) right after f's call (seq 2), same frame, same x.
    expect(showState(index, 'forward', 3, 2)).toStrictEqual({
      kind: 'line',
      src: '    a = g(x)',
      locals: { '..': '..' },
    });
    expect(stateText(index, 'forward', 3, 2)).toBe('<|line_sep|><|arg_sep|>{"..": ".."}<|src_sep|>    a = g(x)');
    expect(showState(index, 'forward', 3, 2, true)).toStrictEqual({
      kind: 'line',
      src: '    a = g(x)',
      locals: { x: '1' },
    });
    expect(stateText(index, 'forward', 3, 2, true)).toBe('<|line_sep|><|arg_sep|>{"x": "1"}<|src_sep|>    a = g(x)');
  });
});

describe('an inv_line_call carries its src only', () => {
  it('no locals and no value (a prediction of it has nothing else to match)', () => {
    const index = buildTraceIndex(fgh.events);
    const t = walk(new Scope(index, 2), 'inverse', A('inv_step_into', 'inv_step_into'));
    expect(stateSeqs(t)).toEqual([12, 11, 7]);
    expect(showStates(index, t)).toStrictEqual([
      { kind: 'inv_return', src: '    return b', arg: '4' },
      { kind: 'inv_line', src: '    return b', locals: { '..': '..' } },
      { kind: 'inv_line_call', src: '    b = h(a)' },
    ]);
  });
});
