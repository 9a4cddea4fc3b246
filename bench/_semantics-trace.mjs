// The generated call-mode-like trace of bench/semantics.mjs, shared with its memory child.
/** A call-mode-like trace: main loops, each iteration calls g, which calls h. 12 events per iteration. */
export function generate(n) {
  const ev = [];
  const push = (event, frame, func, line, src, locals, arg, parent) =>
    ev.push({ seq: ev.length, event, frame, func, line, src, locals, arg, parent });
  let frames = 1;
  push('call', 0, 'main', 10, 'def main():', {}, null, null);
  let acc = 0;
  for (let i = 0; ev.length + 14 < n; i++) {
    const ml = { acc: String(acc), i: String(i) };
    push('line', 0, 'main', 11, '    for i in range(N):', ml, null, null);
    const callLine = ev.length;
    push('line', 0, 'main', 12, '        acc += g(i)', { ...ml }, null, null);
    const g = frames++;
    push('call', g, 'g', 1, 'def g(x):', { x: String(i) }, null, callLine);
    push('line', g, 'g', 2, '    y = x * 2', { x: String(i) }, null, callLine);
    const hLine = ev.length;
    push('line', g, 'g', 3, '    z = h(y) + 1', { x: String(i), y: String(2 * i) }, null, callLine);
    const h = frames++;
    push('call', h, 'h', 6, 'def h(v):', { v: String(2 * i) }, null, hLine);
    push('line', h, 'h', 7, '    return v - 1', { v: String(2 * i) }, null, hLine);
    push('return', h, 'h', 7, '    return v - 1', { v: String(2 * i) }, String(2 * i - 1), hLine);
    push('line', g, 'g', 4, '    return z', { x: String(i), y: String(2 * i), z: String(2 * i) }, null, callLine);
    push(
      'return',
      g,
      'g',
      4,
      '    return z',
      { x: String(i), y: String(2 * i), z: String(2 * i) },
      String(2 * i),
      callLine,
    );
    acc += 2 * i;
  }
  push('line', 0, 'main', 13, '    return acc', { acc: String(acc) }, null, null);
  push('return', 0, 'main', 13, '    return acc', { acc: String(acc) }, String(acc), null);
  return ev;
}
