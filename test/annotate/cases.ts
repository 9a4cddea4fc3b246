/**
 * Hand-made programs and states for the pre-label tests. Events are written out as the
 * recorder records them (docs/semantics.md §2: a line state holds the locals before the line
 * runs), so the rules see what they will see on a real corpus.
 */
import type { EventFacts, PrelabelInput, Suggestion } from '../../src/annotate/index.js';
import { prelabel } from '../../src/annotate/index.js';
import { read } from './example-input.js';

export const COUNT = 'def count(s, t):\n    n = 0\n    for c in s:\n        n += int(c == t)\n    return n\n';

/** count("berry", "r"): seq, line, c, n of count's frame (frame 2), as in docs/semantics.md §2. */
const COUNT_ROWS: [number, number, string | null, string | null][] = [
  [2, 1, null, null],
  [3, 2, null, null],
  [4, 3, null, '0'],
  [5, 4, "'b'", '0'],
  [6, 3, "'b'", '0'],
  [7, 4, "'e'", '0'],
  [8, 3, "'e'", '0'],
  [9, 4, "'r'", '0'],
  [10, 3, "'r'", '1'],
  [11, 4, "'r'", '1'],
  [12, 3, "'r'", '2'],
  [13, 4, "'y'", '2'],
  [14, 3, "'y'", '2'],
  [15, 5, "'y'", '2'],
];
const COUNT_LINES = COUNT.split('\n');

export const countEvents: EventFacts[] = COUNT_ROWS.map(([seq, line, c, n]) => {
  const locals: Record<string, string> = { s: "'berry'", t: "'r'" };
  if (n !== null) locals.n = n;
  if (c !== null) locals.c = c;
  return { seq, frame: 2, line, src: COUNT_LINES[line - 1], locals };
});

export const countEvent = (seq: number) => countEvents.find((e) => e.seq === seq)!;

/** An inverse step from count("berry", "r")'s return to its call: the truth is the call with its arguments. */
export const INV_COUNT = {
  truth: '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
  before: '<|inv_return_sep|><|src_sep|>    return n<|arg_sep|>"2"',
  direction: 'inverse' as const,
  action: 'inv_step_call' as const,
  source: COUNT,
};

/** A line state's text with the given locals object. */
export const lineState = (locals: string, src: string) => `<|line_sep|><|arg_sep|>${locals}<|src_sep|>${src}`;

export interface Case extends Omit<PrelabelInput, 'truth' | 'previous'> {
  truth: string;
  /** The previous state's text, and optionally its event. */
  before?: string;
  beforeEvent?: EventFacts;
}

/** Runs the rules on a case written with texts. */
export function run(c: Case): Suggestion[] {
  const { truth, before, beforeEvent, ...rest } = c;
  const input: PrelabelInput = { ...rest, truth: read(truth) };
  if (before) input.previous = beforeEvent ? { state: read(before), event: beforeEvent } : { state: read(before) };
  return prelabel(input);
}

/** `label by rule` for each suggestion: what most tests compare. */
export const labels = (s: Suggestion[]) => s.map((x) => `${x.label} by ${x.rule}`);
