#!/usr/bin/env node
// Explorer scale benchmark, in Chromium through Playwright against the web mode.
// Records traces of bench/_ui-long.py (~1k, ~100k and ~270k states), then measures
//   - cold open: a server just started (nothing cached) and a fresh page, click in the corpus
//     browser -> both trees drawn with the current node; 1k vs 270k states;
//   - first paint (server warm), both tree shapes (indented rows, graph);
//   - zoom/pan: mean time per frame of 60 wheel zooms (in the page) and 20 drags, both shapes;
//   - fit: zoom out to the whole tree (level of detail, depth profile) and paint, both shapes;
//   - overview: a brush over the strip -> both trees zoomed to the range and painted.
// The cold open is broken into its parts: each API call (request to last byte, size; the
// skeleton's bytes are fetched by the page's tree worker), the page's spans (fetch, tree build
// in the worker, first walk; the rest is painting), and the server's steps timed in this
// process (events scan or kept-row read, pack, bytes form, decode, index).
// Prints absolute figures and ratios against the 1k trace measured in this same run.
// Usage: node bench/ui.mjs [--root DIR] [--cold-only] [--against DIR]   (--root: another checkout to
// measure, e.g. the commit before a change; builds its core and renderer first. Shapes it lacks are
// skipped. --against: also cold-opens with that checkout (its own corpus of the same recordings),
// the two taking turns, 5 times each, and prints both medians and their ratio: on a busy machine
// turns share the load alike where two runs one after the other do not.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';

const here = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { root: { type: 'string' }, 'cold-only': { type: 'boolean' }, against: { type: 'string' } },
});
const root = resolve(values.root ?? here);
const against = values.against ? resolve(values.against) : null;
const must = (cmd, args, cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}:\n${r.stderr}`);
};
for (const dir of against ? [root, against] : [root]) {
  must('npm', ['run', '--silent', 'build:core'], dir);
  must(join(dir, 'node_modules/.bin/electron-vite'), ['build'], dir);
}
console.log(`measuring ${root}`);

const work = mkdtempSync(join(tmpdir(), 'stepscope-bench-ui-'));
const db = join(work, 'corpus.db');
const sizes = { long_1k: 500, long_100k: 50_000, long_270k: 136_400 };
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const corpus = openCorpus(db, { create: true });
for (const [name, n] of Object.entries(sizes)) {
  const out = join(work, `${name}.jsonl`);
  must(
    'python3',
    ['-m', 'stepscope_recorder', 'record', join(here, 'bench/_ui-long.py'), '--name', name, '-o', out, '--', String(n)],
    join(here, 'python'),
  );
  await corpus.ingest(out);
}
const events = Object.fromEntries(corpus.listTraces({}).rows.map((r) => [r.name, r.events]));
const ids = Object.fromEntries(corpus.listTraces({}).rows.map((r) => [r.name, r.id]));
corpus.close();
// The other checkout's corpus, ingested by its own code (its schema may be older than this one's).
const otherDb = join(work, 'against.db');
if (against) {
  const other = (await import(join(against, 'dist/store/corpus.js'))).openCorpus(otherDb, { create: true });
  for (const name of Object.keys(sizes)) await other.ingest(join(work, `${name}.jsonl`));
  other.close();
}

const { startServer } = await import(join(root, 'dist/server/listen.js'));
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
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const drawn = (page) =>
  page.waitForFunction(
    () =>
      document.querySelector('[data-testid="forward-tree"] [data-current="true"]') &&
      document.querySelector('[data-testid="inverse-tree"] [data-seq]'),
    null,
    { timeout: 120_000 },
  );

async function filter(page, name) {
  await page.getByTestId('search-name').fill(name);
  await page.waitForFunction(
    (n) => [...document.querySelectorAll('[data-testid="trace-row"] .name')].map((e) => e.textContent).join() === n,
    name,
  );
}

/** Click -> both trees drawn with the current node, for `name` (already filtered). */
async function openAndPaint(page, name) {
  const t0 = Date.now();
  await page.getByTestId('trace-row').first().click();
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="code-view"]')?.textContent?.includes(n),
    name,
  );
  await drawn(page);
  await frame(page);
  return Date.now() - t0;
}

/**
 * CPU time (ms) used so far by this process (the server's threads) and every process below it
 * (the browser's): the work an open costs, which a busy machine does not stretch as it
 * stretches the wall-clock time.
 */
function cpuMs() {
  const stats = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const text = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // ended meanwhile
    }
  }
  let ticks = 0;
  for (const [pid, st] of stats) {
    let p = pid;
    while (p > 1 && p !== process.pid) p = stats.get(p)?.ppid ?? 0;
    if (p === process.pid) ticks += st.ticks;
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

async function newPage(url, shape) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  await page.evaluate((s) => localStorage.setItem('stepscope.shape', s), shape);
  await page.reload();
  return page;
}

/**
 * Cold open of `name`, 3 times; the median total and, of that run, its parts: each API
 * call's time from request to last byte (server work + transfer) and its size, and the
 * page's own spans (state/explorer/trace-view.svelte.ts names them in the performance timeline).
 */
async function coldOpen(name, reps = 3, start = () => startServer({ db, port: 0 })) {
  const runs = [];
  for (let rep = 0; rep < reps; rep++) {
    const server = await start();
    const page = await newPage(server.url, 'rows');
    await filter(page, name);
    const calls = [];
    // Each call's size is read before the page closes (a late listener would read a closed page).
    const sized = [];
    page.on('requestfinished', (req) => {
      const m = /\/api\/(getSkeleton|walk|getTrace)$/.exec(req.url());
      if (!m) return;
      const t = req.timing();
      sized.push(
        req
          .response()
          .then((r) => r?.body())
          .then(
            (body) => calls.push({ method: m[1], ms: t.responseEnd, bytes: body?.length ?? 0 }),
            () => calls.push({ method: m[1], ms: t.responseEnd, bytes: 0 }),
          ),
      );
    });
    await page.evaluate(() => performance.clearMeasures());
    const cpu0 = cpuMs();
    const total = await openAndPaint(page, name);
    const cpu = cpuMs() - cpu0;
    const spans = await page.evaluate(() =>
      performance
        .getEntriesByType('measure')
        .filter((e) => e.name.startsWith('stepscope open'))
        .map((e) => [e.name.slice('stepscope open: '.length), e.duration]),
    );
    await Promise.all(sized);
    runs.push({ total, cpu, calls: [...calls], spans });
    await page.close();
    await server.close();
  }
  return [...runs].sort((a, b) => a.total - b.total)[Math.floor(runs.length / 2)];
}

/** Cold opens of `name` with this checkout and the other one taking turns: the median of each. */
async function coldTurns(name, turns = 5) {
  const { startServer: startOther } = await import(join(against, 'dist/server/listen.js'));
  const mine = [];
  const theirs = [];
  for (let t = 0; t < turns; t++) {
    mine.push(await coldOpen(name, 1));
    theirs.push(await coldOpen(name, 1, () => startOther({ db: otherDb, port: 0 })));
  }
  const of = (runs, k) => runs.map((x) => x[k]);
  return {
    mine: median(of(mine, 'total')),
    theirs: median(of(theirs, 'total')),
    cpu: [median(of(mine, 'cpu')), median(of(theirs, 'cpu'))],
    all: { mine: of(mine, 'total'), theirs: of(theirs, 'total') },
  };
}

const kb = (b) => `${(b / 1024).toFixed(0)} KB`;
function describeCold(label, run) {
  const calls = run.calls.map((c) => `${c.method} ${c.ms.toFixed(0)} ms (${kb(c.bytes)})`).join(', ');
  const spans = run.spans.map(([n, d]) => `${n} ${d.toFixed(0)} ms`).join(', ');
  return `  ${label}: total ${run.total} ms (CPU ${run.cpu} ms); API request -> last byte: ${calls || 'n/a'}; page: ${spans || 'n/a (no timeline spans in this checkout)'}`;
}

/** Server side of opening a trace, in this process on the same corpus: median ms of 3 of each step. */
async function serverParts(id) {
  const contract = await import(join(root, 'dist/contract/index.js'));
  const { buildTreeIndex } = await import(join(root, 'dist/semantics/index.js'));
  const c = openCorpus(db, { readonly: true });
  const time = (f) => {
    const ms = [];
    let v;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      v = f();
      ms.push(performance.now() - t);
    }
    return [median(ms), v];
  };
  const [scan, shape] = time(() => c.getTraceShape(id));
  const [encode, wire] = time(() => contract.encodeSkeleton(shape));
  const [index] = time(() => buildTreeIndex(shape));
  const [decode] = time(() => contract.decodeSkeleton(wire));
  const kept = typeof c.getPackedSkeleton === 'function' ? time(() => c.getPackedSkeleton(id))[0] : null;
  // The bytes form (what the page's tree worker fetches, where the checkout has it): kept row -> bytes
  // (the row itself where the corpus keeps the bytes, migration 010).
  const asBytes =
    typeof c.getSkeletonBytes === 'function'
      ? time(() => c.getSkeletonBytes(id))
      : typeof contract.skeletonBytes === 'function'
        ? time(() => contract.skeletonBytes(c.getPackedSkeleton(id)))
        : null;
  c.close();
  return {
    scan,
    encode,
    index,
    decode,
    kept,
    bytes: JSON.stringify(wire).length,
    asBytes: asBytes && { ms: asBytes[0], size: asBytes[1].length },
  };
}
function describeServer(label, p) {
  const f = (x) => x.toFixed(1);
  const kept = p.kept === null ? 'no kept skeleton in this checkout' : `kept row as the JSON form ${f(p.kept)} ms`;
  const bytes = p.asBytes ? ` | kept row -> bytes form ${f(p.asBytes.ms)} ms (${kb(p.asBytes.size)})` : '';
  return `  ${label}: events scan for the shape ${f(p.scan)} ms, pack ${f(p.encode)} ms | ${kept}${bytes} | decode ${f(p.decode)} ms, walk index ${f(p.index)} ms; skeleton ${kb(p.bytes)} of JSON`;
}

async function measure(url, name, shape) {
  const page = await newPage(url, shape);
  const paints = [];
  const other = name === 'long_1k' ? 'long_100k' : 'long_1k';
  for (let rep = 0; rep < 3; rep++) {
    // Open another trace first so each repetition really reloads this one.
    await filter(page, other);
    await openAndPaint(page, other);
    await filter(page, name);
    paints.push(await openAndPaint(page, name));
  }
  if (shape === 'graph' && (await page.getByTestId('forward-tree').getAttribute('data-shape')) !== 'graph')
    return (await page.close(), null);
  const box = await page.getByTestId('forward-tree').locator('svg').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  // Zoom in the page itself (synthetic Ctrl+wheel events, one per frame) so the figure is the
  // renderer's work per frame, not Playwright's round trips; then drags through Playwright.
  const zoomFrame = await page.evaluate(async () => {
    const svg = document.querySelector('[data-testid="forward-tree"] svg');
    const r = svg.getBoundingClientRect();
    const t0 = performance.now();
    for (let i = 0; i < 60; i++) {
      svg.dispatchEvent(
        new WheelEvent('wheel', {
          deltaY: i % 2 ? -100 : 100,
          ctrlKey: true,
          clientX: r.x + r.width / 2,
          clientY: r.y + r.height / 2,
          bubbles: true,
          cancelable: true,
        }),
      );
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
    await frame(page);
  }
  const perFrame = (Date.now() - t1) / 20;
  // Open the long loop's fold so the tree really has all its states, then fit.
  const fold = page.getByTestId('forward-tree').getByTestId('fold').first();
  if (await fold.count()) {
    await fold.dispatchEvent('click');
    await frame(page);
  }
  const t2 = Date.now();
  await page.getByTestId('forward-fit').click();
  await page.getByTestId('inverse-fit').click();
  await frame(page);
  const fit = Date.now() - t2;
  const nodes = await page.locator('[data-testid="forward-tree"] [data-seq]').count();
  let brush = null;
  const ov = page.getByTestId('overview').locator('svg');
  if (await ov.count()) {
    const b = await ov.boundingBox();
    const t3 = Date.now();
    await page.mouse.move(b.x + b.width * 0.4, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width * 0.45, b.y + b.height / 2, { steps: 2 });
    await page.mouse.up();
    await frame(page);
    brush = Date.now() - t3;
  }
  await page.close();
  return { paint: median(paints), zoomFrame, perFrame, fit, nodes, brush };
}

try {
  const r = (a, b) => (a / Math.max(b, 1)).toFixed(2);
  const cold1k = await coldOpen('long_1k');
  const cold270k = await coldOpen('long_270k');
  console.log(`traces: long_1k ${events.long_1k}, long_100k ${events.long_100k}, long_270k ${events.long_270k} states`);
  console.log(
    `cold open (server just started, fresh page): 1k ${cold1k.total} ms, 270k ${cold270k.total} ms  ratio 270k/1k ${r(cold270k.total, cold1k.total)}`,
  );
  console.log(describeCold('1k  ', cold1k));
  console.log(describeCold('270k', cold270k));
  console.log('server side of an open (in this process):');
  console.log(describeServer('1k  ', await serverParts(ids.long_1k)));
  console.log(describeServer('270k', await serverParts(ids.long_270k)));
  if (against) {
    console.log(`cold open, taking turns with ${against} (medians of 5 each):`);
    for (const name of ['long_1k', 'long_270k']) {
      const t = await coldTurns(name);
      console.log(
        `  ${name}: this ${t.mine} ms, that ${t.theirs} ms, ratio this/that ${r(t.mine, t.theirs)}  (this ${t.all.mine.join(', ')}; that ${t.all.theirs.join(', ')})`,
      );
      console.log(
        `  ${name}: CPU time of the open (server and browser processes): this ${t.cpu[0]} ms, that ${t.cpu[1]} ms, ratio ${r(t.cpu[0], t.cpu[1])}`,
      );
    }
  }
  const server = await startServer({ db, port: 0 });
  for (const shape of values['cold-only'] ? [] : ['rows', 'graph']) {
    const small = await measure(server.url, 'long_1k', shape);
    const big = small && (await measure(server.url, 'long_100k', shape));
    if (!small || !big) {
      console.log(`[${shape}] not in this checkout`);
      continue;
    }
    console.log(
      `[${shape}] first paint of both trees: 1k ${small.paint} ms, 100k ${big.paint} ms  ratio 100k/1k ${r(big.paint, small.paint)}`,
    );
    console.log(
      `[${shape}] wheel zoom, per frame:     1k ${small.zoomFrame.toFixed(1)} ms, 100k ${big.zoomFrame.toFixed(1)} ms  ratio ${r(big.zoomFrame, small.zoomFrame)} (16.7 ms = 60 fps)`,
    );
    console.log(
      `[${shape}] drag pan (via Playwright): 1k ${small.perFrame.toFixed(1)} ms, 100k ${big.perFrame.toFixed(1)} ms  ratio ${r(big.perFrame, small.perFrame)} (includes Playwright round trips)`,
    );
    console.log(
      `[${shape}] fit, loop unfolded:        1k ${small.fit} ms, 100k ${big.fit} ms  ratio ${r(big.fit, small.fit)}; nodes drawn after fit: 1k ${small.nodes}, 100k ${big.nodes}`,
    );
    if (big.brush !== null)
      console.log(
        `[${shape}] overview brush -> trees:   1k ${small.brush} ms, 100k ${big.brush} ms  ratio ${r(big.brush, small.brush)}`,
      );
  }
  await server.close();
} finally {
  await browser.close();
}
