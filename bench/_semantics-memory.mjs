// One memory measurement for bench/semantics.mjs, in a fresh process run with --expose-gc:
// generates the 1,000,000-event trace, then builds both trees, walks step_into over every
// event and serializes the trajectory, either as one string (`string`) or as the chunks of
// serializeChunks (`chunks`, consumed one at a time and dropped). Prints one JSON line:
// the RSS with only the events held, the peak RSS of the whole process (maxRSS) and the
// events' heap, in MB, and the text's length.
import * as sem from '../dist/semantics/index.js';
const { Scope, buildTraceIndex, serialize, serializeChunks, walk } = sem;
import { generate } from './_semantics-trace.mjs';

const mode = process.argv[2];
const size = Number(process.argv[3] ?? 1_000_000);
const MB = 1024 * 1024;
globalThis.gc();
const heap0 = process.memoryUsage().heapUsed;
const events = generate(size);
const n = events.length;
globalThis.gc();
const heapEvents = process.memoryUsage().heapUsed - heap0;
const rssEvents = process.memoryUsage().rss;
// RSS sampled along the way (maxRSS is the process's peak; these say where it happened).
const seen = {};
const note = (at) => (seen[at] = Math.max(seen[at] ?? 0, process.memoryUsage().rss));

const index = buildTraceIndex(events);
note('trees');
const scope = new Scope(index, 0);
// One action object for every step: the list is the bench's input, not what is measured.
const step = { action: 'step_into' };
const t = walk(scope, 'forward', new Array(n).fill(step));
note('walk');
let chars = 0;
if (mode === 'string') {
  const text = serialize(index, t, 'def main():\n');
  note('serialize');
  chars = text.length;
} else {
  let k = 0;
  for (const chunk of serializeChunks(index, t, 'def main():\n')) {
    chars += chunk.length;
    if (++k % 64 === 0) note('serialize');
  }
}
if (t.exit !== 'exit_normal' || t.states.length !== n) throw new Error('step_into did not visit every event');
process.stdout.write(
  JSON.stringify({
    mode,
    events: n,
    chars,
    heapEventsMb: heapEvents / MB,
    rssEventsMb: rssEvents / MB,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    sampledMb: Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, v / MB])),
  }) + '\n',
);
