/**
 * Source lines and breakpoints. A breakpoint names a line by its text (`breakpoint <src>`, as
 * the paper does): it stops at the next `line` event whose src equals that text, on whichever
 * line holds it. So a line can hit only if its text is the src of some `line` event of the
 * trace (not a blank line, not a `def` line of a function recorded in call mode, not past the
 * end), and lines with the same text stop together.
 */
import type { Skeleton } from '@core/contract/index.js';
import { LINE } from './tree/kinds.js';

/** Line numbers (1-based) whose text some `line` event of the trace has. */
export function hittableLines(sk: Skeleton, lines: readonly string[]): Set<number> {
  return hittableFrom(lineEventLines(sk), lines);
}

/** The distinct line numbers of the trace's `line` events, ascending (the tree worker finds them while it builds). */
export function lineEventLines(sk: Skeleton): Int32Array {
  const seen = new Set<number>();
  for (let s = 0; s < sk.count; s++) if (sk.kind[s] === LINE) seen.add(sk.line[s]);
  return Int32Array.from([...seen].sort((a, b) => a - b));
}

/** hittableLines from the line numbers `line` events visit (lineEventLines): no pass over the trace. */
export function hittableFrom(lineNumbers: ArrayLike<number>, lines: readonly string[]): Set<number> {
  const srcs = new Set<string>();
  for (let j = 0; j < lineNumbers.length; j++) srcs.add(lines[lineNumbers[j] - 1] ?? '');
  const out = new Set<number>();
  lines.forEach((text, i) => {
    if (text.trim() !== '' && srcs.has(text)) out.add(i + 1);
  });
  return out;
}

/** The other lines with exactly the text of line n. */
export function sameTextLines(lines: readonly string[], n: number): number[] {
  const text = lines[n - 1];
  const out: number[] = [];
  lines.forEach((t, i) => {
    if (i + 1 !== n && t === text) out.push(i + 1);
  });
  return out;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st … */
export function ordinal(n: number): string {
  const t = n % 100;
  const suffix = t >= 11 && t <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
