// Generates a long call-mode trace (a loop in f) as a trace file, and the same events as
// row arrays for the bare-insert baseline. Each event line is ~230 bytes, locals ~150 bytes.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const SOURCE =
  'def f(n):\n    acc = 0\n    xs = [1, 2, 3, 4, 5, 6, 7, 8]\n    for i in range(n):\n        acc += i * i\n    return acc\n';

export function header(name, n) {
  const wrapper = `def main():\n    return f(${n})\n`;
  return {
    type: 'trace',
    format: 'stepscope-trace',
    version: 1,
    name,
    mode: 'call',
    python: '3.11.7',
    hashseed: 0,
    filename: '<program>',
    source: SOURCE,
    call: `f(${n})`,
    context_forward: SOURCE + '\n' + wrapper,
    context_inverse: SOURCE,
    limits: { events: 10000000, seconds: 600, memory_mb: 1024, repr_chars: 10000 },
    meta: { bench: true },
  };
}

/** Event `seq` of the loop trace (seq 0..2 are calls and the first line). */
export function event(seq, n) {
  const i = Math.floor(seq / 2);
  const line = seq % 2 === 0 ? 4 : 5;
  return {
    type: 'event',
    seq,
    event: seq === 0 ? 'call' : 'line',
    frame: 1,
    func: 'f',
    line,
    src: line === 4 ? '    for i in range(n):' : '        acc += i * i',
    locals: {
      n: String(n),
      acc: String((i * (i + 1) * (2 * i + 1)) / 6),
      xs: '[1, 2, 3, 4, 5, 6, 7, 8]',
      i: String(i),
      label: "'loop over the squares'",
    },
    arg: null,
    parent: seq === 0 ? null : 0,
  };
}

/** Writes one trace of `count` events to `path` (Python-style spacing, like the recorder). */
export async function writeTrace(path, count, name = `bench_${count}`) {
  const out = createWriteStream(path);
  const py = (o) => JSON.stringify(o).replace(/","/g, '", "').replace(/":/g, '": ').replace(/,"/g, ', "');
  out.write(py(header(name, count)) + '\n');
  let buf = '';
  for (let s = 0; s < count; s++) {
    buf += py(event(s, count)) + '\n';
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  buf += py({ type: 'end', exit: 'normal', reason: null, events: count, seconds: 1.5 }) + '\n';
  out.end(buf);
  await once(out, 'finish');
}

/** Writes `traces` short traces (8 events each, every 7th ends in error) to `path`. */
export async function writeMany(path, traces) {
  const out = createWriteStream(path);
  const py = (o) => JSON.stringify(o).replace(/","/g, '", "').replace(/":/g, '": ').replace(/,"/g, ', "');
  let buf = '';
  for (let t = 0; t < traces; t++) {
    buf += py(header(`task_${String(t).padStart(6, '0')}`, t)) + '\n';
    for (let s = 0; s < 8; s++) buf += py(event(s, t)) + '\n';
    const error = t % 7 === 0;
    buf +=
      py({
        type: 'end',
        exit: error ? 'error' : 'normal',
        reason: error ? "ValueError('x')" : null,
        events: 8,
        seconds: 0.001,
      }) + '\n';
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

/** The same events as the rows ingest would insert (trace_id filled in by the caller). */
export function rows(count) {
  const out = new Array(count);
  for (let s = 0; s < count; s++) {
    const e = event(s, count);
    out[s] = [s, e.event, e.frame, e.func, e.line, e.src, JSON.stringify(e.locals), e.arg, e.parent, null];
  }
  return out;
}
