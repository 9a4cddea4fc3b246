/**
 * Names a span of the page's work in the browser's performance timeline (User Timing), e.g.
 * the parts of opening a trace, so bench/ui.mjs and the browser's profiler can read them.
 * Costs nothing visible; does nothing where the timeline is missing (a test DOM).
 */
export function span(name: string, start: number, end = performance.now()): number {
  if (typeof performance.measure === 'function') performance.measure(`stepscope ${name}`, { start, end });
  return end;
}

/**
 * Resolves once the page has had a chance to paint what is set now: after the next frame
 * (a task queued from requestAnimationFrame runs after that frame is drawn), or after 100 ms
 * where frames do not come (a hidden page, a test DOM), so nothing waits on it for long.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => setTimeout(() => (clearTimeout(timer), resolve()), 0));
  });
}
