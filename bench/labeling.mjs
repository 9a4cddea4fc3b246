#!/usr/bin/env node
// Labeling queue benchmark (docs/annotation.md, "The queue"; issue 11: "moving to the next
// item takes under 100 ms on the CRUXEval corpus"), in Chromium through Playwright against
// the web mode. The corpus: every CRUXEval task recorded, the cruxeval-output set over them,
// CodeLlama-7B's released generations with their published verdicts, and the rules'
// pre-labels (e2e/annotation-fixture.mjs). Measured in the page, from the key's keydown to the
// frame after the next item is drawn (its header names the new prediction):
//   baseline  the queue's first item opened (click on Open queue -> first item drawn),
//   Enter     accept the pre-labels (committed to SQLite) and draw the next item,
//   →         the next item without a write.
// A person looks at an item before moving on: 400 ms between keys, so the preload has run.
// Prints medians and 90th percentiles, and the ratio of each to the baseline.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';

const root = resolve(import.meta.dirname, '..');
const must = (cmd, args, cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}:\n${r.stderr}`);
  return r.stdout;
};
must(join(root, 'node_modules/.bin/electron-vite'), ['build']);

// Making the corpus takes minutes on a busy machine: STEPSCOPE_BENCH_LABELING_DB reuses one a
// previous run made (its path is printed).
let db = process.env.STEPSCOPE_BENCH_LABELING_DB;
if (!db) {
  const work = mkdtempSync(join(tmpdir(), 'stepscope-bench-labeling-'));
  db = join(work, 'corpus.db');
  const crux = join(work, 'cruxeval.jsonl');
  must(
    'python3',
    ['-m', 'stepscope_recorder', 'record-cruxeval', '-o', crux, resolve(root, 'resources/cruxeval/cruxeval.jsonl')],
    join(root, 'python'),
  );
  must(process.execPath, [join(root, 'bin/stepscope.js'), 'ingest', crux, '--db', db]);
  must(process.execPath, [join(root, 'e2e/annotation-fixture.mjs'), db]);
}
console.log(`corpus: ${db}`);

const { startServer } = await import(join(root, 'dist/server/listen.js'));
const server = await startServer({ db, port: 0 });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const MOVES = 30;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/**
 * Arms the page: resolves with the ms from the next `key` keydown (or click) to the frame after the item head changes.
 */
const arm = (page, key) =>
  page.evaluate((key) => {
    window.__move = new Promise((done) => {
      let t0 = null;
      const start = () => (t0 = performance.now());
      if (key === 'click')
        document
          .querySelector('[data-testid="label-start"]')
          .addEventListener('click', start, { capture: true, once: true });
      else addEventListener('keydown', (e) => e.key === key && start(), { capture: true, once: true });
      const was = document.querySelector('[data-testid="item-head"]')?.dataset.prediction ?? null;
      const seen = () => {
        const now = document.querySelector('[data-testid="item-head"]')?.dataset.prediction ?? null;
        if (t0 === null || now === null || now === was) return false;
        requestAnimationFrame(() => done(performance.now() - t0));
        return true;
      };
      const mo = new MutationObserver(() => seen() && mo.disconnect());
      mo.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-prediction'],
      });
    });
  }, key);
const measured = (page) => page.evaluate(() => window.__move);

try {
  const opens = [];
  const enter = [];
  const arrow = [];
  let page;
  for (let rep = 0; rep < 3; rep++) {
    await page?.close();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await page.getByTestId('view-label').click();
    await page.getByTestId('annotator').fill('bench');
    await arm(page, 'click');
    await page.getByTestId('label-start').click();
    opens.push(await measured(page));
  }
  const q = await page.evaluate(() => document.querySelector('[data-testid="item-position"]').textContent);
  for (let i = 0; i < MOVES; i++) {
    const key = i % 2 ? 'ArrowRight' : 'Enter';
    await page.waitForTimeout(400);
    await arm(page, key);
    await page.keyboard.press(key);
    (key === 'Enter' ? enter : arrow).push(await measured(page));
  }
  const base = pct(opens, 0.5);
  const line = (name, xs) =>
    console.log(
      `${name.padEnd(34)} median ${pct(xs, 0.5).toFixed(1)} ms  p90 ${pct(xs, 0.9).toFixed(1)} ms  ratio to first open ${(pct(xs, 0.5) / base).toFixed(3)}`,
    );
  console.log(`queue: crux-out / codellama-7b failures, position ${q} at the start`);
  line('first item opened (baseline)', opens);
  line(`Enter: accept + next (${enter.length})`, enter);
  line(`→: next item (${arrow.length})`, arrow);
} finally {
  await browser.close();
  await server.close();
}
