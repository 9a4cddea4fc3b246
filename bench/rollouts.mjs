#!/usr/bin/env node
// Rollout throughput against teacher-forced `predict` (docs/predictions.md, "Rollouts"). A rollout asks for its steps
// one after another (each prompt holds the answer before), items in parallel; a next-state set of the same positions
// (`--prefixes-of`: one item per step of each rollout) asks for all of them in parallel. Both run through `predict`
// against the fake model server in a child process, answering from the truth; printed: steps per second of each, and
// their ratio (rollout / next-state), without and with a per-request delay standing in for a model's latency.
// Usage: npm run build:core && node bench/rollouts.mjs [--per-trace 2] [--max-steps 10] [--delay 20]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { arg } from './_predictions-mix.mjs';

const PER_TRACE = arg('--per-trace', 2);
const MAX_STEPS = arg('--max-steps', 10);
const DELAY = arg('--delay', 20);
const CONCURRENCY = 8;
const root = new URL('..', import.meta.url).pathname;
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const { createEvalSet } = await import(join(root, 'dist/predictions/create.js'));
const { predict } = await import(join(root, 'dist/predictions/predict.js'));
const { exportLine } = await import(join(root, 'dist/predictions/views.js'));
const dir = mkdtempSync(join(tmpdir(), 'stepscope-bench-rollouts-'));
const servers = [];

/** The fake server in a child process with these options; its URL. */
async function serve(options) {
  const file = join(dir, `answers-${servers.length}.json`);
  writeFileSync(file, JSON.stringify(options));
  const child = spawn(process.execPath, [join(root, 'scripts/fake-model-server.mjs'), '--answers', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(child);
  const line = await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
  return /on (\S+)$/.exec(line)[1];
}

try {
  const db = join(dir, 'demo.db');
  const demo = spawnSync(process.execPath, [join(root, 'bin/stepscope.js'), 'demo', '--db', db], { encoding: 'utf8' });
  if (demo.status !== 0) throw new Error(demo.stderr);
  const corpus = openCorpus(db);
  const { set } = createEvalSet(corpus, {
    name: 'ro',
    task: 'rollout',
    perTrace: PER_TRACE,
    maxSteps: MAX_STEPS,
    seed: 1,
  });
  const items = [...corpus.iterateItems(set.id)];
  const targets = corpus.rolloutTargets(items.map((i) => i.id));
  const rollouts = items.map((it) => exportLine(set, it, targets.get(it.id)));
  const tf = createEvalSet(corpus, { name: 'ro-tf', task: 'next-state', prefixesOf: 'ro' }).set;
  const steps = rollouts.reduce((n, r) => n + r.targets.length, 0);
  console.log(
    `rollout set:               ${items.length} items over ${corpus.traceIds().length} demo traces, ${steps} steps ` +
      `(at most ${MAX_STEPS} each); next-state set of the same positions: ${tf.items} items`,
  );
  if (tf.items !== steps) throw new Error('the next-state set does not have one item per step');

  const run = async (setName, label, url) => {
    const t0 = performance.now();
    const r = await predict(corpus, {
      set: setName,
      label,
      settings: { endpoint: url, model: 'fake-model', timeoutMs: 30_000 },
      concurrency: CONCURRENCY,
    });
    const s = (performance.now() - t0) / 1000;
    if (r.summary.failed || r.summary.answered !== (setName === 'ro' ? items.length : steps))
      throw new Error(`${setName}: ${JSON.stringify(r.summary)}`);
    return steps / s;
  };
  for (const delay of [0, DELAY]) {
    const faults = delay ? [{ fault: 'delay', ms: delay, times: 1e9 }] : [];
    const url = await serve({ rollouts, faults });
    // Best of two, taken in turn (the machine may be busy with something else for a while).
    const ns = await run('ro-tf', `ns-${delay}-a`, url);
    const ro = await run('ro', `ro-${delay}-a`, url);
    const ns2 = Math.max(ns, await run('ro-tf', `ns-${delay}-b`, url));
    const ro2 = Math.max(ro, await run('ro', `ro-${delay}-b`, url));
    const what = delay ? `${delay} ms per request` : 'no delay';
    console.log(
      `${what.padEnd(26)} rollout ${ro2.toFixed(0)} steps/s, next-state ${ns2.toFixed(0)} steps/s: ` +
        `rollout / next-state = ${(ro2 / ns2).toFixed(2)} (concurrency ${CONCURRENCY})`,
    );
  }
  corpus.close();
} finally {
  for (const s of servers) s.kill();
  rmSync(dir, { recursive: true, force: true });
}
