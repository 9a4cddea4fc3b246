/**
 * inv_step_call from a call whose parent is the `call` that opens a segment: a generator resumed
 * by send() calls `double` on its resume line before any `line` event, so `double`'s call hangs
 * under the resume's own `call` state. docs/semantics.md §5: from a segment's own inv_call the
 * rule is applied from its parent, the parent's inv_line_call (it has children, so it is doubled),
 * whose segment's inv_call is the resume's plain copy. Climbing to the parent's plain copy
 * instead (already that segment's inv_call) would skip the resume and land in `run`.
 */
import { describe, expect, it } from 'vitest';
import { Scope, buildTraceIndex, walk, type TreeIndex } from '../../src/semantics/index.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { A, record, type Trace } from './helpers.js';
import { Oracle } from './oracle.js';

const SEND = `def double(x):
    return x * 2

def running_total():
    total = 0
    while True:
        total += double((yield total))

def run():
    g = running_total()
    next(g)
    g.send(5)
    return g.send(7)
`;

let t: Trace;
let index: TreeIndex;
beforeAllOrFail(() => {
  t = record(SEND, 'run()'); // the Python recorder, as `stepscope record prog.py --call 'run()'`
  index = buildTraceIndex(t.events);
});

describe('inv_step_call under a generator resumed by send()', () => {
  it("from the callee's inv_call lands on the resume's inv_call, the segment its parent opens", () => {
    const resumes = t.events.filter((e) => e.event === 'call' && e.func === 'running_total');
    const calls = t.events.filter((e) => e.event === 'call' && e.func === 'double');
    expect(calls).toHaveLength(2);
    const run = t.events.find((e) => e.event === 'call' && e.func === 'run')!.seq;
    for (const entry of [0, run]) {
      const scope = new Scope(index, entry);
      for (const call of calls) {
        // The recorder hangs double's call under the resume's call: no line event between them.
        const resume = resumes.find((r) => r.seq === call.parent)!;
        expect(resume, `double at ${call.seq}`).toBeDefined();
        expect(scope.invStepCall(2 * call.seq)).toEqual({ node: 2 * resume.seq });
        // Once more: from the resume's own inv_call, on to run's (the parent of the resume is its send line).
        expect(scope.invStepCall(2 * resume.seq)).toEqual({ node: 2 * run });
      }
      // The same, computed from the rule as written (test/semantics/oracle.ts), on every node.
      const o = new Oracle(t.events, entry, t.end.exit);
      for (const id of o.inv) expect(scope.invStepCall(id), `inv_step_call from ${id}`).toEqual(o.invStepCall(id));
    }
  });

  it("a trajectory from double's inputs steps out to the resume, then to run's inputs", () => {
    const first = t.events.find((e) => e.event === 'call' && e.func === 'double')!;
    const scope = new Scope(index, first.seq);
    // Entered at double: stepping out of its own inv_call leaves the scope.
    expect(walk(scope, 'inverse', A('inv_step_call', 'inv_step_call')).exit).toBe('inv_exit_entry');
    const root = new Scope(index, 0);
    const states = [2 * first.seq];
    for (let k = 0; k < 2; k++) states.push((root.invStepCall(states[k]) as { node: number }).node);
    expect(states.slice(1).map((id) => [t.events[id >> 1].event, t.events[id >> 1].func])).toEqual([
      ['call', 'running_total'],
      ['call', 'run'],
    ]);
  });
});
