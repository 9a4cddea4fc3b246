#!/usr/bin/env node
// Semantics benchmark (run by `npm run bench`, after `npm run build:core`):
// 1. Scaling: build both trees and serialize the step_into trajectory of a generated
//    1,000,000-event trace vs a 10,000-event one; prints time per event at 1M as a ratio
//    of time per event at 10k (target: within 2x) and the peak memory, measured in a fresh
//    process for the text as one string and streamed (target: streamed under 300 MB RSS).
// 2. Sampling throughput over the 800 CRUXEval traces (recorded once, cached in the temp
//    dir like the tests do): trajectories/s and serialized MB/s, against a baseline
//    measured in the same run (JSON.stringify of the same events, MB/s).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Scope, buildTraceIndex, sampleTrace, serialize, walk, contextFor } from '../dist/semantics/index.js';
import { generate } from './_semantics-trace.mjs';

const root = resolve(import.meta.dirname, '..');
const gc = globalThis.gc ?? (() => {});

function measure(events) {
  const t0 = performance.now();
  const index = buildTraceIndex(events);
  const scope = new Scope(index, 0);
  const t1 = performance.now();
  const actions = new Array(events.length).fill({ action: 'step_into' });
  const t = walk(scope, 'forward', actions);
  const text = serialize(index, t, 'def main():\n');
  const t2 = performance.now();
  if (t.exit !== 'exit_normal' || t.states.length !== events.length)
    throw new Error('step_into did not visit every event');
  return { build: t1 - t0, serialize: t2 - t1, total: t2 - t0, chars: text.length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log('1. scaling: both trees + the step_into trajectory serialized');
const small = generate(10_000);
for (let k = 0; k < 5; k++) measure(small); // warm up the JIT
const smallRuns = Array.from({ length: 7 }, () => measure(small));
const perSmall = median(smallRuns.map((r) => r.total)) / small.length;
gc();
const heapBefore = process.memoryUsage().heapUsed;
const big = generate(1_000_000);
gc();
const heapEvents = process.memoryUsage().heapUsed - heapBefore;
const bigRuns = Array.from({ length: 2 }, () => {
  gc();
  return measure(big);
});
const bigRun = bigRuns.sort((a, b) => a.total - b.total)[0];
const perBig = bigRun.total / big.length;
console.log(`  10k events: ${(perSmall * 1000).toFixed(3)} us/event (median of 7)`);
console.log(
  `  1M events:  ${(perBig * 1000).toFixed(3)} us/event (build ${bigRun.build.toFixed(0)} ms, walk+serialize ${bigRun.serialize.toFixed(0)} ms, ${(bigRun.chars / 1e6).toFixed(0)}M chars)`,
);
console.log(`  ratio per event 1M / 10k: ${(perBig / perSmall).toFixed(2)}x (target <= 2x)`);
console.log(
  `  peak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (the 1M events themselves: ${(heapEvents / 1e6).toFixed(0)} MB of heap)`,
);
// Memory, each way in a fresh process (bench/_semantics-memory.mjs): the text as one string,
// and streamed (serializeChunks). Target: the streamed peak under 300 MB.
let streamedPeak = 0;
for (const mode of ['string', 'chunks']) {
  const out = execFileSync(process.execPath, ['--expose-gc', join(root, 'bench/_semantics-memory.mjs'), mode], {
    encoding: 'utf8',
  });
  const r = JSON.parse(out);
  const s = r.sampledMb;
  console.log(
    `  ${mode === 'string' ? 'one string' : 'streamed  '}: peak RSS ${r.peakRssMb.toFixed(0)} MB = ` +
      `${(r.peakRssMb / r.heapEventsMb).toFixed(2)}x the events' ${r.heapEventsMb.toFixed(0)} MB of heap ` +
      `(RSS with the events alone ${r.rssEventsMb.toFixed(0)}, after the trees ${s.trees.toFixed(0)}, ` +
      `the walk ${s.walk.toFixed(0)}, serializing ${s.serialize.toFixed(0)})`,
  );
  if (mode === 'chunks') streamedPeak = r.peakRssMb;
}

console.log('\n2. sampling throughput over CRUXEval');
function cruxevalFile() {
  const h = createHash('sha256');
  const pkg = join(root, 'python/stepscope_recorder');
  for (const f of readdirSync(pkg)
    .filter((f) => f.endsWith('.py'))
    .sort())
    h.update(f).update(readFileSync(join(pkg, f)));
  const data = resolve(root, 'resources/cruxeval/cruxeval.jsonl');
  h.update(readFileSync(data));
  const path = join(tmpdir(), `stepscope-cruxeval-${h.digest('hex').slice(0, 16)}.jsonl`);
  if (!existsSync(path)) {
    console.log('  recording the corpus (about a minute)…');
    const tmp = `${path}.${process.pid}.tmp`;
    execFileSync('python3', ['-m', 'stepscope_recorder', 'record-cruxeval', data, '-o', tmp, '--jobs', '2'], {
      cwd: root,
      env: { ...process.env, PYTHONPATH: join(root, 'python') },
      stdio: 'ignore',
    });
    renameSync(tmp, path);
  }
  const traces = [];
  let cur;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    if (r.type === 'trace') cur = { header: r, events: [] };
    else if (r.type === 'event') cur.events.push(r);
    else traces.push(cur);
  }
  return traces;
}
const traces = cruxevalFile();
const t0 = performance.now();
let baseBytes = 0;
for (const tr of traces) baseBytes += Buffer.byteLength(JSON.stringify(tr.events));
const baseMBs = baseBytes / 1e6 / ((performance.now() - t0) / 1000);
const indexes = traces.map((tr) => buildTraceIndex(tr.events));
const s0 = performance.now();
let n = 0;
let bytes = 0;
for (let i = 0; i < traces.length; i++) {
  for (const t of sampleTrace(indexes[i], { seed: 1, traceKey: i, perTrace: 10, entry: 'calls', direction: 'both' })) {
    bytes += Buffer.byteLength(serialize(indexes[i], t, contextFor(t.direction, traces[i].header)));
    n++;
  }
}
const secs = (performance.now() - s0) / 1000;
console.log(
  `  ${n} trajectories in ${secs.toFixed(2)} s: ${(n / secs).toFixed(0)} trajectories/s, ${(bytes / 1e6 / secs).toFixed(1)} MB/s of text`,
);
console.log(
  `  baseline JSON.stringify of the same events: ${baseMBs.toFixed(1)} MB/s; sampling+serializing runs at ${(bytes / 1e6 / secs / baseMBs).toFixed(2)}x of it`,
);
if (streamedPeak >= 300) {
  console.log(`  FAIL: streaming a 1M-event trajectory peaks at ${streamedPeak.toFixed(0)} MB RSS (target < 300)`);
  process.exit(1);
}
if (perBig / perSmall > 2) {
  console.log('  FAIL: time per event at 1M is more than 2x that at 10k');
  process.exit(1);
}
