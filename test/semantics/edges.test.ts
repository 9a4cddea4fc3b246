/**
 * Corner cases on recorded traces: exceptions, generators, recursion, callees called from
 * untraced frames, non-root entries, a trace cut by the event limit, breakpoints that never
 * hit. Each trace is also checked against the restatement in oracle.ts on every node.
 */
import { describe, expect, it } from 'vitest';
import {
  Scope,
  buildTraceIndex,
  forwardChildren,
  inversePreorder,
  serialize,
  stateSeqs,
  walk,
  type Action,
  type TreeIndex,
} from '../../src/semantics/index.js';
import { A, record, type Trace } from './helpers.js';
import { Oracle } from './oracle.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

const seqOfLine = (t: Trace, src: string, nth = 0, kind = 'line') =>
  t.events.filter((e) => e.event === kind && e.src === src)[nth].seq;

function agreesWithOracle(tr: Trace, index: TreeIndex) {
  for (const e of tr.events.filter((x) => x.event === 'call')) {
    const scope = new Scope(index, e.seq);
    const o = new Oracle(tr.events, e.seq, tr.end.exit);
    expect(Array.from(inversePreorder(scope))).toEqual(o.inv);
    for (const s of o.pre) {
      expect(scope.stepOver(s)).toEqual(o.stepOver(s));
      expect(scope.stepReturn(s)).toEqual(o.stepReturn(s));
      for (const src of o.lineSrcs()) expect(scope.breakpoint(s, src)).toEqual(o.breakpoint(s, src));
    }
    for (const id of o.inv) {
      expect(scope.invStepOver(id)).toEqual(o.invStepOver(id));
      expect(scope.invStepCall(id)).toEqual(o.invStepCall(id));
    }
  }
}

const GEN = `def gen(n):
    for i in range(n):
        yield i * 10

def f(n):
    total = 0
    for x in gen(n):
        total += x
    return total
`;

const REC = `def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)
`;

const UNTRACED = `def f(xs):
    ys = sorted(xs, key=lambda x: -x)
    zs = list(map(str, ys))
    return ys
`;

const LOOP = `def spin(k):
    n = 0
    while True:
        n += k
`;

const ERR = `def g(x):
    return 1 // x

def f(x):
    y = g(x)
    return y
`;

const traces: Record<string, Trace> = {};
const idx: Record<string, TreeIndex> = {};
beforeAllOrFail(() => {
  const progs: Record<string, [string, string, string[]?]> = {
    gen: [GEN, 'f(3)'],
    rec: [REC, 'fact(4)'],
    untraced: [UNTRACED, 'f([1, 3, 2])'],
    loop: [LOOP, 'spin(2)', ['--max-events', '40']],
    err: [ERR, 'f(0)'],
  };
  for (const [k, [src, call, extra]] of Object.entries(progs)) {
    traces[k] = record(src, call, extra);
    idx[k] = buildTraceIndex(traces[k].events);
  }
});

describe('generators: one segment per resume', () => {
  it('each resume is its own segment under the for line', () => {
    const t = traces.gen;
    const forLine = seqOfLine(t, '    for x in gen(n):');
    const kids = forwardChildren(new Scope(idx.gen, 0), forLine);
    expect(kids.length).toBeGreaterThan(0);
    expect(kids.every((s) => t.events[s].func === 'gen')).toBe(true);
    // The first resume only: its call, its lines, and the yield's return.
    expect(kids.map((s) => t.events[s].event)).toEqual(['call', 'line', 'line', 'return']);
    agreesWithOracle(t, idx.gen);
  });

  it("step_return inside a resume stops at that resume's yield; inv_step_call at that resume's call", () => {
    const t = traces.gen;
    const resumes = t.events.filter((e) => e.event === 'call' && e.func === 'gen');
    expect(resumes.length).toBe(4); // three yields and the final StopIteration return
    const second = resumes[1].seq;
    const scope = new Scope(idx.gen, 0);
    const ret = scope.stepReturn(second);
    expect('node' in ret && t.events[ret.node]).toMatchObject({ event: 'return', func: 'gen', arg: '10' });
    const inv = scope.invStepCall(2 * (second + 1));
    expect(inv).toEqual({ node: 2 * second });
    // With the second resume as entry, the trajectory ends with that yield.
    const tr = walk(new Scope(idx.gen, second), 'forward', A('step_over', 'step_over', 'step_over', 'step_over'));
    expect(tr.exit).toBe('exit_normal');
    expect(tr.states.every((s) => t.events[s].frame === t.events[second].frame)).toBe(true);
  });
});

describe('recursion', () => {
  it('step_over from the calling line skips the whole recursion; step_return climbs one frame at a time', () => {
    const t = traces.rec;
    const calls = t.events.filter((e) => e.event === 'call' && e.func === 'fact');
    expect(calls.length).toBe(4);
    const root = new Scope(idx.rec, 0);
    const tr = walk(root, 'forward', A('step_over', 'step_over', 'step_over'));
    expect(tr.states.map((s) => t.events[s].event)).toEqual(['call', 'line', 'return']);
    expect(tr.exit).toBe('exit_normal');
    // From the innermost `return 1` line, step_return goes to the innermost return, then
    // to each enclosing frame's return in turn.
    const deepest = seqOfLine(t, '        return 1');
    let node = deepest;
    const frames: number[] = [];
    for (;;) {
      const r = root.stepReturn(node);
      if ('exit' in r) break;
      node = r.node;
      frames.push(t.events[node].frame);
      expect(t.events[node].event).toBe('return');
    }
    expect(frames.length).toBe(5); // four fact frames and main
    expect(new Set(frames).size).toBe(5);
    agreesWithOracle(t, idx.rec);
  });

  it('a recursive call shows all locals again (another frame instance)', () => {
    const text = serialize(
      idx.rec,
      walk(
        new Scope(idx.rec, 0),
        'forward',
        A('step_into', 'step_into', 'step_into', 'step_into', 'step_into', 'step_into'),
      ),
      traces.rec.header.context_forward,
    );
    expect(text).toContain('<|call_sep|><|src_sep|>def fact(n):<|arg_sep|>{"n": "3"}');
  });
});

describe('callees called from untraced frames', () => {
  it('a lambda called by sorted sits under the line that called sorted', () => {
    const t = traces.untraced;
    const sortedLine = seqOfLine(t, '    ys = sorted(xs, key=lambda x: -x)');
    const root = new Scope(idx.untraced, 0);
    const kids = forwardChildren(root, sortedLine);
    expect(kids.filter((s) => t.events[s].event === 'call').length).toBe(3);
    expect(kids.every((s) => t.events[s].func === '<lambda>')).toBe(true);
    // step_over from that line skips all three lambdas; inv_step_over from its line_call copy too.
    expect(root.stepOver(sortedLine)).toEqual({ node: sortedLine + kids.length + 1 });
    expect(root.invStepOver(2 * sortedLine + 1)).toEqual({ node: 2 * sortedLine });
    agreesWithOracle(t, idx.untraced);
  });
});

describe('a trace cut by the event limit', () => {
  it('ends with exit_never forward, whatever the action', () => {
    const t = traces.loop;
    expect(t.end.exit).toBe('never');
    const root = new Scope(idx.loop, 0);
    const n = t.events.length;
    const all = walk(
      root,
      'forward',
      Array.from({ length: n }, () => ({ action: 'step_into' }) as Action),
    );
    expect(all.exit).toBe('exit_never');
    expect(walk(root, 'forward', A('step_over', 'step_over')).exit).toBe('exit_never');
    expect(walk(root, 'forward', A('continue')).exit).toBe('exit_never');
    const spin = t.events.find((e) => e.func === 'spin' && e.event === 'call')!.seq;
    // step_return from inside spin: spin never returns.
    expect(root.stepReturn(spin + 2)).toEqual({ exit: 'exit_never' });
    expect(walk(new Scope(idx.loop, spin), 'forward', A('step_return')).exit).toBe('exit_never');
    agreesWithOracle(t, idx.loop);
  });

  it("an inverse trajectory starts at the last recorded event and ends at the entry's call", () => {
    const t = traces.loop;
    const spin = t.events.find((e) => e.func === 'spin' && e.event === 'call')!.seq;
    const scope = new Scope(idx.loop, spin);
    expect(scope.start('inverse') >> 1).toBe(t.events.length - 1);
    const tr = walk(scope, 'inverse', A('inv_step_call', 'inv_step_call'));
    expect(stateSeqs(tr)).toEqual([t.events.length - 1, spin]);
    expect(tr.exit).toBe('inv_exit_entry');
  });
});

describe('exceptions', () => {
  it('an entry left by an exception exits with exit_error; its inverse starts at inv_return with null', () => {
    const t = traces.err;
    expect(t.end.exit).toBe('error');
    const root = new Scope(idx.err, 0);
    expect(walk(root, 'forward', A('continue')).exit).toBe('exit_error');
    const f = t.events.find((e) => e.func === 'f' && e.event === 'call')!.seq;
    const fwd = walk(new Scope(idx.err, f), 'forward', A('step_return', 'step_return'));
    expect(fwd.exit).toBe('exit_error');
    const inv = walk(new Scope(idx.err, f), 'inverse', A('inv_step_into'));
    const text = serialize(idx.err, inv, t.header.context_inverse);
    expect(text).toContain(
      '<|frame_sep|><|inv_return_sep|><|src_sep|>    y = g(x)<|arg_sep|>null<|action_sep|><|inv_step_into|>',
    );
    expect(text).toContain(
      '<|inv_exception_sep|><|src_sep|>    y = g(x)<|arg_sep|>"ZeroDivisionError(\'integer division or modulo by zero\')"',
    );
    agreesWithOracle(t, idx.err);
  });
});

describe('breakpoints', () => {
  it('on a line never reached again (or never at all) the trajectory exits like the entry does', () => {
    const t = traces.rec;
    const root = new Scope(idx.rec, 0);
    const last = seqOfLine(t, '    return n * fact(n - 1)', 0);
    // After the last time `if n <= 1:` runs, a breakpoint there never hits.
    const lastIf = t.events.filter((e) => e.src === '    if n <= 1:').at(-1)!.seq;
    expect(root.breakpoint(lastIf, '    if n <= 1:')).toEqual({ exit: 'exit_normal' });
    expect(root.breakpoint(0, 'no such line')).toEqual({ exit: 'exit_normal' });
    // A breakpoint target shows all locals even in the same frame.
    const tr = walk(root, 'forward', A('step_into', 'step_into', 'bp:    if n <= 1:', 'bp:    if n <= 1:'));
    expect(tr.states.slice(-1)[0]).toBeGreaterThan(last);
    const text = serialize(idx.rec, tr, t.header.context_forward);
    expect(
      text.endsWith(
        '<|breakpoint|>    if n <= 1:<|frame_sep|><|line_sep|><|arg_sep|>{"n": "3"}<|src_sep|>    if n <= 1:<|trace_end|><|end_of_text|>',
      ),
    ).toBe(true);
    // Breakpoints stop only at `line` events: the src of a `call` never matches.
    expect(root.breakpoint(0, 'def fact(n):')).toEqual({ exit: 'exit_normal' });
  });
});
