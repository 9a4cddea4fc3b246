/**
 * The tree navigation of nav.ts that the doc and corpus tests do not walk: parents, depth and
 * the pre-order ranges, in the whole trace and in a scope entered at a nested call (where the
 * scope's top level has no parent, whatever the trace says above it).
 */
import { describe, expect, it } from 'vitest';
import { Scope, buildTraceIndex, type TreeIndex } from '../../src/semantics/index.js';
import { depthOf, forwardParent, forwardPreorder, inverseParent } from '../../src/semantics/nav.js';
import { record, type Trace } from './helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

// Recorded as: 0 call main, 1 line `return outer(1)`, 2 call outer, 3 line `a = inner(n)`,
// 4 call inner, 5 line, 6 return, 7 line `b = inner(a)`, 8 call inner, 9 line, 10 return,
// 11 line `return b`, 12 return outer, 13 return main.
const PROGRAM = `def inner(x):
    return x + 1

def outer(n):
    a = inner(n)
    b = inner(a)
    return b
`;

let trace: Trace;
let index: TreeIndex;
beforeAllOrFail(() => {
  trace = record(PROGRAM, 'outer(1)');
  index = buildTraceIndex(trace.events);
});

describe('forward', () => {
  it('the recording is the one the expectations are written for', () => {
    expect(trace.events.map((e) => `${e.event} ${e.src.trim()}`)).toEqual([
      'call def main():',
      'line return outer(1)',
      'call def outer(n):',
      'line a = inner(n)',
      'call def inner(x):',
      'line return x + 1',
      'return return x + 1',
      'line b = inner(a)',
      'call def inner(x):',
      'line return x + 1',
      'return return x + 1',
      'line return b',
      'return return b',
      'return return outer(1)',
    ]);
  });

  it('parents and depths in the whole trace: the calling line is the parent', () => {
    const scope = new Scope(index, 0);
    const seqs = trace.events.map((e) => e.seq);
    expect(seqs.map((s) => forwardParent(scope, s))).toEqual([-1, -1, 1, 1, 3, 3, 3, 1, 7, 7, 7, 1, 1, -1]);
    expect(seqs.map((s) => forwardParent(scope, s))).toEqual(trace.events.map((e) => e.parent ?? -1));
    expect(seqs.map((s) => depthOf(scope, s))).toEqual([0, 0, 1, 1, 2, 2, 2, 1, 2, 2, 2, 1, 1, 0]);
    expect(forwardPreorder(scope)).toEqual({ from: 0, to: 13 });
  });

  it('in a scope entered at a call, its segment is the top level', () => {
    const outer = new Scope(index, 2);
    expect([2, 3, 4, 5, 6, 7, 8, 11, 12].map((s) => forwardParent(outer, s))).toEqual([-1, -1, 3, 3, 3, -1, 7, -1, -1]);
    expect([2, 3, 4, 5, 6, 7, 8, 11, 12].map((s) => depthOf(outer, s))).toEqual([0, 0, 1, 1, 1, 0, 1, 0, 0]);
    expect(forwardPreorder(outer)).toEqual({ from: 2, to: 12 });
    const second = new Scope(index, 8);
    expect([8, 9, 10].map((s) => [forwardParent(second, s), depthOf(second, s)])).toEqual([
      [-1, 0],
      [-1, 0],
      [-1, 0],
    ]);
    expect(forwardPreorder(second)).toEqual({ from: 8, to: 10 });
  });
});

describe('inverse', () => {
  // Id 2·seq is the inverse state of event seq, 2·seq+1 the inv_line_call of a calling line.
  it('the parent of a state is its calling line doubled (an odd id), -1 at the top level', () => {
    const scope = new Scope(index, 0);
    expect([0, 2, 4, 6, 8, 10, 7, 14, 16, 22, 3, 26].map((id) => inverseParent(scope, id))).toEqual([
      -1, -1, 3, 3, 7, 7, 3, 3, 15, 3, -1, -1,
    ]);
    const outer = new Scope(index, 2);
    expect([4, 6, 7, 8, 10, 14, 15, 16, 24].map((id) => inverseParent(outer, id))).toEqual([
      -1, -1, -1, 7, 7, -1, -1, 15, -1,
    ]);
  });
});
