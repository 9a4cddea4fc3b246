#!/usr/bin/env node
// Predictions overlay benchmark (docs/explorer.md), in Chromium through Playwright against
// the web mode: first paint of a ~100,000-state trace opened by a deep link with a run
// overlaid (both trees drawn, the set's items on the trace loaded and marked) against the same
// trace opened without the overlay, in the same run. The set is a next-state set cut from that
// trace alone (--per-action 100, both directions: ~800 items), answered half right, half
// unreadable, so every mark kind is drawn.
// Prints the medians of 3 fresh pages each and the ratio overlay / plain (target: first paint
// under one second on a desktop, issue 9).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';

const root = resolve(import.meta.dirname, '..');
const must = (cmd, args, cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}:\n${r.stderr}`);
  return r.stdout;
};
must(join(root, 'node_modules/.bin/electron-vite'), ['build']);

const work = mkdtempSync(join(tmpdir(), 'stepscope-bench-overlay-'));
const db = join(work, 'corpus.db');
const out = join(work, 'long.jsonl');
must('python3', ['-m', 'stepscope_recorder', 'record', join(root, 'bench/_ui-long.py'), '--name', 'long_100k', '-o', out, '--', '50000'], join(root, 'python'));
const cli = (...args) => must(process.execPath, [join(root, 'bin/stepscope.js'), ...args]);
cli('ingest', out, '--db', db);
cli('evalset', 'create', '--db', db, '--name', 'ns', '--task', 'next-state', '--per-action', '100', '--seed', '1', '--trace', '1');
cli('evalset', 'export', '--db', db, '--name', 'ns', '-o', join(work, 'ns.jsonl'));
const items = readFileSync(join(work, 'ns.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
writeFileSync(join(work, 'run.jsonl'), items.map((it, i) => JSON.stringify({ id: it.id, completion: i % 2 ? 'unreadable' : it.target })).join('\n') + '\n');
cli('predictions', 'import', join(work, 'run.jsonl'), '--db', db, '--set', 'ns', '--model', 'half');

const { startServer } = await import(join(root, 'dist/server/listen.js'));
const server = await startServer({ db, port: 0 });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A fresh page at the link -> both trees drawn with the current node (and, overlaid, the items marked). */
async function firstPaint(query, overlaid) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const t0 = Date.now();
  await page.goto(new URL(query, server.url).href);
  await page.waitForFunction(() => document.querySelector('[data-testid="forward-tree"] [data-current="true"]') && document.querySelector('[data-testid="inverse-tree"] [data-seq]'), null, { timeout: 180_000 });
  if (overlaid) await page.waitForFunction((n) => document.querySelector(`[data-testid="verdict-counts"][data-items="${n}"]`), items.length, { timeout: 180_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const ms = Date.now() - t0;
  await page.close();
  return ms;
}

try {
  await firstPaint('./?trace=1', false); // warm the server's caches for both
  const plain = [];
  const overlay = [];
  for (let rep = 0; rep < 3; rep++) {
    plain.push(await firstPaint('./?trace=1', false));
    overlay.push(await firstPaint('./?trace=1&set=ns&run=half', true));
  }
  const events = JSON.parse(cli('traces', '--db', db, '--json').trim().split('\n')[0]).events;
  console.log(`trace: ${events.toLocaleString('en-US')} states; set ns: ${items.length} items on it`);
  console.log(`first paint, no overlay      ${median(plain)} ms  (${plain.join(', ')})`);
  console.log(`first paint, run overlaid    ${median(overlay)} ms  (${overlay.join(', ')})`);
  console.log(`ratio overlay / no overlay   ${(median(overlay) / median(plain)).toFixed(2)}`);
} finally {
  await browser.close();
  await server.close();
}
