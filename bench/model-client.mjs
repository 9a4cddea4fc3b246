// What the model client costs over bare fetch, against the fake model server in a child
// process (so the server's work is not counted in this process): prompts per second through
// runCompletions, and the ratio to a plain fetch loop with the same concurrency; then heap
// growth over a long run (a leak would show here long before a 100,000-item run dies of it).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const { runCompletions } = await import(join(root, 'dist/model/index.js'));
const N = 4000;
const CONCURRENCY = 8;

// Prompts of the reference size: cut from the semantics' worked trajectories (test data).
let text = '<|begin_of_text|><|trace_context_start|>def f(x):\n    return x + 1\n'.repeat(20);
try {
  text = JSON.parse(readFileSync(join(root, 'test/data/semantics/trajectories.json'), 'utf8'))[0].text;
} catch {
  // not readable: the repeated snippet above
}
const answer = '<|line_sep|><|arg_sep|>{"..": "..", "n": "1"}<|src_sep|>    for c in s:';
const prompts = Array.from({ length: N }, (_, i) => `${text.slice(0, 1200)}#${i}<|frame_sep|>`);

const dir = mkdtempSync(join(tmpdir(), 'stepscope-bench-model-'));
writeFileSync(join(dir, 'answers.json'), JSON.stringify({ default: answer }));
const server = spawn(
  process.execPath,
  [join(root, 'scripts/fake-model-server.mjs'), '--answers', join(dir, 'answers.json')],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const line = await new Promise((r) => createInterface({ input: server.stdout }).once('line', r));
const url = /on (\S+)$/.exec(line)[1];

async function bare(items) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const prompt = items[next++];
      const res = await fetch(`${url}/v1/completions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: 'm',
          prompt,
          max_tokens: 512,
          temperature: 0,
          stop: ['<|action_sep|>', '<|trace_end|>'],
        }),
      });
      const j = await res.json();
      if (j.choices[0].text !== answer) throw new Error('wrong answer');
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function client(items) {
  let got = 0;
  const s = await runCompletions(
    items.map((prompt, i) => ({ id: String(i), prompt })),
    { settings: { endpoint: url, model: 'm' }, concurrency: CONCURRENCY },
    (_, c) => {
      if (c.texts[0] !== answer) throw new Error('wrong answer');
      got++;
    },
  );
  if (s.answered !== items.length || got !== items.length) throw new Error(`answered ${s.answered} of ${items.length}`);
}

const time = async (f, items) => {
  const t0 = performance.now();
  await f(items);
  return performance.now() - t0;
};

try {
  await time(bare, prompts.slice(0, 300)); // warm both paths
  await time(client, prompts.slice(0, 300));
  const runs = { bare: [], client: [] };
  for (let r = 0; r < 3; r++) {
    runs.bare.push(await time(bare, prompts));
    runs.client.push(await time(client, prompts));
  }
  const best = (xs) => Math.min(...xs);
  const perSec = (ms) => (N * 1000) / ms;
  console.log(`prompts: ${N}, concurrency ${CONCURRENCY}, best of 3`);
  console.log(`bare fetch loop (baseline): ${perSec(best(runs.bare)).toFixed(0)} prompts/s`);
  console.log(
    `runCompletions:             ${perSec(best(runs.client)).toFixed(0)} prompts/s  = ${(best(runs.bare) / best(runs.client)).toFixed(2)}× the baseline's rate`,
  );

  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let r = 0; r < 5; r++) await client(prompts);
  globalThis.gc?.();
  const after = process.memoryUsage().heapUsed;
  console.log(
    `heap after ${5 * N} more prompts: ${((after - before) / 1e6).toFixed(1)} MB growth (${(after / before).toFixed(2)}× the heap before)`,
  );
} finally {
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
