/**
 * Mutants of src/semantics that Stryker's re-run of 2026-12-01 still left undetected and no
 * test in scope caught when planted by hand.
 */
import { describe, expect, it } from 'vitest';
import { pyJsonString } from '../../src/semantics/json.js';
import { Scope, buildTraceIndex, buildTreeIndex, inverseParent, inversePreorder, parseTrajectory } from '../../src/semantics/index.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { record, type Trace } from './helpers.js';
import { Oracle } from './oracle.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

describe('pyJsonString: "~" is printable ASCII on the escaping path too', () => {
  // json.test.ts goes through every code unit, but "~" only among plain characters, where
  // the string is returned as it is; here the string also holds a character to escape, so
  // each code unit is looked at (Python: json.dumps("~\n") == '"~\\n"').
  it('"~" next to a character that needs escaping stays "~"', () => {
    expect(pyJsonString('~\n')).toBe('"~\\n"');
    expect(pyJsonString('a~é~')).toBe('"a~\\u00e9~"');
    expect(pyJsonString('~"~ and a long string after it')).toBe('"~\\"~ and a long string after it"');
  });
});

describe('parseTrajectory: locals that are not JSON at all', () => {
  // parse-gaps.test.ts refuses locals that are JSON of the wrong shape ("locals as a JSON
  // object of strings"); malformed JSON is refused by the JSON reader, whose complaint is
  // prefixed with what was being read.
  it('names the locals and what the JSON reader expected, where it stopped', () => {
    const head = '<|begin_of_text|><|trace_context_start|>def f():\n    return 1\n<|frame_sep|><|line_sep|><|arg_sep|>';
    const text = `${head}{"a" "1"}<|src_sep|>    return 1<|trace_end|><|end_of_text|>`;
    const p = parseTrajectory(text);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.error.offset).toBe(head.length + '{"a" '.length);
    expect(p.error.expected).toBe("locals as a JSON object: ':'");
    expect(p.error.message).toContain("expected locals as a JSON object: ':', got ");
  });
});

// A script whose one line calls g, cut by the event limit inside g: right after g's call
// (the line calling it then has children up to the trace's last event) and right after g's
// return (the trace's last event is a return, but not the top level's).
const CALLS_G = `def g():
    return 1

a = g()
b = a
`;
let cutAtCall: Trace;
let cutAtReturn: Trace;
beforeAllOrFail(() => {
  cutAtCall = record(CALLS_G, null, ['--max-events', '4']);
  cutAtReturn = record(CALLS_G, null, ['--max-events', '6']);
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

  it('cut after the callee\'s return: leaving the root forward is exit_never, not exit_normal', () => {
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

const ev = (seq: number, event: string, frame: number, src: string, parent: number | null, arg: string | null = null): TraceEvent =>
  ({ seq, event, frame, src, parent, locals: {}, arg }) as unknown as TraceEvent;

describe('events whose parent is the entry\'s own call event', () => {
  // Calls made before the entry's first line (a default argument, a decorator) sit under its
  // call event: they are inside the scope, one level down, not at its top level.
  const events = [
    ev(0, 'call', 0, 'def main():', null),
    ev(1, 'call', 1, 'def g():', 0),
    ev(2, 'return', 1, 'def g():', 0, '1'),
    ev(3, 'line', 0, 'x', null),
    ev(4, 'return', 0, 'x', null, 'None'),
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

describe('an index built from the columns alone (the store\'s skeleton)', () => {
  it('steps forward off the end of the scope: a return at the top level is exit_normal', () => {
    // Without the events, the return's value (null for an exception) is unknown.
    const bare = buildTreeIndex({ count: 3, kind: [0, 1, 2], parent: [-1, -1, -1], frame: [0, 0, 0] });
    const root = new Scope(bare, 0);
    expect(root.forwardExit).toBe('exit_normal');
    expect(root.stepOver(2)).toEqual({ exit: 'exit_normal' });
  });
});
