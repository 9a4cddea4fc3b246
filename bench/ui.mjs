#!/usr/bin/env node
// Explorer scale benchmark, in Chromium through Playwright against the web mode.
// Records a ~1k-state and a ~100k-state trace of bench/_ui-long.py, then for each measures
//   - first paint: click in the corpus browser -> both trees drawn with the current node;
//   - zoom/pan: mean time per frame of 60 wheel zooms (in the page) and 20 drags;
//   - fit: zoom out to the whole tree (level of detail) and paint.
// Prints absolute figures and the 100k/1k ratios measured in this same run.
// Usage: node bench/ui.mjs   (builds the core and the renderer first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';

const root = resolve(import.meta.dirname, '..');
const must = (cmd, args, cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}:\n${r.stderr}`);
};
must('npm', ['run', '--silent', 'build:core']);
must(join(root, 'node_modules/.bin/electron-vite'), ['build']);

const work = mkdtempSync(join(tmpdir(), 'stepscope-bench-ui-'));
const db = join(work, 'corpus.db');
const sizes = { long_1k: 500, long_100k: 50_000 };
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const corpus = openCorpus(db, { create: true });
for (const [name, n] of Object.entries(sizes)) {
  const out = join(work, `${name}.jsonl`);
  must('python3', ['-m', 'stepscope_recorder', 'record', join(root, 'bench/_ui-long.py'), '--name', name, '-o', out, '--', String(n)], join(root, 'python'));
  await corpus.ingest(out);
}
const events = Object.fromEntries(corpus.listTraces({}).rows.map((r) => [r.name, r.events]));
corpus.close();

const { startServer } = await import(join(root, 'dist/server/listen.js'));
const server = await startServer({ db, port: 0 });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(name) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(server.url);
  const paints = [];
  for (let rep = 0; rep < 3; rep++) {
    await page.getByTestId('search-name').fill(name);
    await page.getByTestId('trace-row').filter({ hasText: name }).first().waitFor();
    // Open another trace first so each repetition really reloads this one.
    const other = name === 'long_1k' ? 'long_100k' : 'long_1k';
    if (rep > 0) {
      await page.getByTestId('search-name').fill(other);
      await page.getByTestId('trace-row').filter({ hasText: other }).first().click();
      await page.waitForSelector('[data-testid="forward-tree"] [data-current="true"]');
      await page.getByTestId('search-name').fill(name);
      await page.getByTestId('trace-row').filter({ hasText: name }).first().waitFor();
    }
    const t0 = Date.now();
    await page.getByTestId('trace-row').filter({ hasText: name }).first().click();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="forward-tree"] header')?.textContent?.includes(`${n} nodes`) &&
        document.querySelector('[data-testid="forward-tree"] [data-current="true"]') &&
        document.querySelector('[data-testid="inverse-tree"] [data-seq]'),
      events[name],
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    paints.push(Date.now() - t0);
  }
  const box = await page.getByTestId('forward-tree').locator('svg').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // Zoom in the page itself (synthetic wheel events, one per frame) so the figure is the
  // renderer's work per frame, not Playwright's round trips; then drags through Playwright.
  const zoomFrame = await page.evaluate(async () => {
    const svg = document.querySelector('[data-testid="forward-tree"] svg');
    const r = svg.getBoundingClientRect();
    const t0 = performance.now();
    for (let i = 0; i < 60; i++) {
      svg.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 2 ? -100 : 100, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, cancelable: true }));
      await new Promise((res) => requestAnimationFrame(() => res()));
    }
    return (performance.now() - t0) / 60;
  });
  const t1 = Date.now();
  for (let i = 0; i < 20; i++) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 20, cy - 200, { steps: 2 });
    await page.mouse.up();
    await frame();
  }
  const perFrame = (Date.now() - t1) / 20;
  const t2 = Date.now();
  await page.getByTestId('forward-fit').click();
  await page.getByTestId('inverse-fit').click();
  await frame();
  const fit = Date.now() - t2;
  const drawn = await page.locator('[data-testid="forward-tree"] [data-seq]').count();
  await page.close();
  return { paint: median(paints), zoomFrame, perFrame, fit, drawn };
}

try {
  const small = await measure('long_1k');
  const big = await measure('long_100k');
  const r = (a, b) => (a / Math.max(b, 1)).toFixed(2);
  console.log(`traces: long_1k ${events.long_1k} states, long_100k ${events.long_100k} states`);
  console.log(`first paint of both trees: 1k ${small.paint} ms, 100k ${big.paint} ms  ratio 100k/1k ${r(big.paint, small.paint)}`);
  console.log(`wheel zoom, per frame:     1k ${small.zoomFrame.toFixed(1)} ms, 100k ${big.zoomFrame.toFixed(1)} ms  ratio ${r(big.zoomFrame, small.zoomFrame)} (16.7 ms = 60 fps)`);
  console.log(`drag pan (via Playwright): 1k ${small.perFrame.toFixed(1)} ms, 100k ${big.perFrame.toFixed(1)} ms  ratio ${r(big.perFrame, small.perFrame)} (includes Playwright round trips)`);
  console.log(`fit (whole tree, LOD):     1k ${small.fit} ms, 100k ${big.fit} ms  ratio ${r(big.fit, small.fit)}; nodes drawn after fit: 1k ${small.drawn}, 100k ${big.drawn}`);
} finally {
  await browser.close();
  await server.close();
}
