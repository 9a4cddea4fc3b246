/**
 * Names a span of the page's work in the browser's performance timeline (User Timing), e.g.
 * the parts of opening a trace, so bench/ui.mjs and the browser's profiler can read them.
 * Costs nothing visible; does nothing where the timeline is missing (a test DOM).
 */
export function span(name: string, start: number, end = performance.now()): number {
  if (typeof performance.measure === 'function') performance.measure(`stepscope ${name}`, { start, end });
  return end;
}
