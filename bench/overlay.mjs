#!/usr/bin/env node
// Predictions overlay benchmark (docs/explorer.md, Scale), in Chromium through Playwright
// against the web mode, on a ~100,000-state trace with a next-state set cut from it alone
// (--per-action 100, both directions: ~800 items), answered half right, half unreadable, so
// every mark kind is drawn. Each figure is the median over fresh pages (a new browser context:
// nothing cached), overlaid against the same trace without the overlay, in the same run:
//   (a) in-app open, counted as bench/ui.mjs counts the explorer's first paint: the page booted
//       and idle (with the set and run chosen, by `/?set=…&run=…`), then a click on the trace in
//       the corpus list -> both trees drawn with the current node (and the verdict marks in);
//   (b) the cold deep link `/?trace=…&set=…&run=…`, from navigation to the same point, in two
//       parts: boot (navigation -> the page's first API call) and open (the rest). Beside them,
//       from the page's timeline: the entry script arrived, evaluated (`stepscope boot: …`
//       marks, where the checkout has them), App mounted, and the script the boot fetched; and
//       when the open's steps ended (its `stepscope open: …` spans: skeleton, trees, first walk).
// Issue 9's target (first paint of the overlay under one second) is read on (a).
// Usage: node bench/overlay.mjs [--reps N] [--base DIR]   (DIR: another checkout, e.g. the commit
// before a change, measured the same way in the same run, interleaved, with this/base ratios;
// its core and renderer are built first.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';

const here = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { reps: { type: 'string', default: '5' }, base: { type: 'string' } } });
const reps = Number(values.reps);
const must = (cmd, args, cwd = here) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}:\n${r.stderr}`);
  return r.stdout;
};
const checkouts = [
  { label: 'this checkout', root: here },
  ...(values.base ? [{ label: `base ${values.base}`, root: resolve(values.base) }] : []),
];
for (const c of checkouts) {
  if (c.root !== here) must('npm', ['run', '--silent', 'build:core'], c.root);
  must(join(c.root, 'node_modules/.bin/electron-vite'), ['build'], c.root);
}

const work = mkdtempSync(join(tmpdir(), 'stepscope-bench-overlay-'));
const db = join(work, 'corpus.db');
const out = join(work, 'long.jsonl');
must(
  'python3',
  [
    '-m',
    'stepscope_recorder',
    'record',
    join(here, 'bench/_ui-long.py'),
    '--name',
    'long_100k',
    '-o',
    out,
    '--',
    '50000',
  ],
  join(here, 'python'),
);
const cli = (...args) => must(process.execPath, [join(here, 'bin/stepscope.js'), ...args]);
cli('ingest', out, '--db', db);
cli(
  'evalset',
  'create',
  '--db',
  db,
  '--name',
  'ns',
  '--task',
  'next-state',
  '--per-action',
  '100',
  '--seed',
  '1',
  '--trace',
  '1',
);
cli('evalset', 'export', '--db', db, '--name', 'ns', '-o', join(work, 'ns.jsonl'));
const items = readFileSync(join(work, 'ns.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
writeFileSync(
  join(work, 'run.jsonl'),
  items.map((it, i) => JSON.stringify({ id: it.id, completion: i % 2 ? 'unreadable' : it.target })).join('\n') + '\n',
);
cli('predictions', 'import', join(work, 'run.jsonl'), '--db', db, '--set', 'ns', '--model', 'half');
const events = JSON.parse(cli('traces', '--db', db, '--json').trim().split('\n')[0]).events;

for (const c of checkouts)
  c.server = await (await import(join(c.root, 'dist/server/listen.js'))).startServer({ db, port: 0 });
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
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** Both trees drawn with the current node, and overlaid, the set's items on the trace counted in the bar. */
async function drawn(page, overlaid) {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="forward-tree"] [data-current="true"]') &&
      document.querySelector('[data-testid="inverse-tree"] [data-seq]'),
    null,
    { timeout: 180_000 },
  );
  if (overlaid)
    await page.waitForFunction(
      (n) => document.querySelector(`[data-testid="verdict-counts"][data-items="${n}"]`),
      items.length,
      { timeout: 180_000 },
    );
}
const painted = (page) =>
  page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))),
  );
const fresh = () => browser.newPage({ viewport: { width: 1440, height: 900 } });

/** (a) Booted and idle (the overlay chosen by the address), then a click on the trace: ms to both trees drawn. */
async function inApp(server, overlaid) {
  const page = await fresh();
  await page.goto(new URL(overlaid ? './?set=ns&run=half' : './', server.url).href);
  await page.getByTestId('trace-row').first().waitFor();
  await page.waitForLoadState('networkidle');
  const t0 = Date.now();
  await page.getByTestId('trace-row').first().click();
  await drawn(page, overlaid);
  await painted(page);
  const ms = Date.now() - t0;
  await page.close();
  return ms;
}

/**
 * (b) The deep link from navigation to both trees drawn, and the boot's steps on the page's clock (ms from navigation).
 */
async function deepLink(server, overlaid) {
  const page = await fresh();
  await page.goto(new URL(overlaid ? './?trace=1&set=ns&run=half' : './?trace=1', server.url).href);
  await drawn(page, overlaid);
  const total = await painted(page);
  const t = await page.evaluate(() => {
    const res = performance.getEntriesByType('resource');
    const entry = res.find((r) => /\/assets\/index-[^/]*\.js$/.test(r.name));
    const api = res.filter((r) => r.name.includes('/api/')).map((r) => r.startTime);
    const mark = (n) => performance.getEntriesByName(`stepscope boot: ${n}`)[0]?.startTime ?? null;
    // Script the page fetched before its first API call: the boot's (lazy views come later, if at all).
    const first = api.length ? Math.min(...api) : Infinity;
    const js = res.filter((r) => r.name.endsWith('.js') && r.startTime < first);
    // The open's own spans (state/explorer/trace-view.svelte.ts names them): when the skeleton was in,
    // the trees built, the first walk landed.
    const span = (n) => performance.getEntriesByName(`stepscope open: ${n}`)[0] ?? null;
    const end = (n) => (span(n) ? span(n).startTime + span(n).duration : null);
    return {
      script: entry?.responseEnd ?? null,
      evaluated: mark('script evaluated'),
      mounted: mark('mounted'),
      firstCall: api.length ? first : null,
      jsBytes: js.reduce((s, r) => s + r.encodedBodySize, 0),
      jsFiles: js.length,
      skeleton: end('fetch skeleton'),
      built: end('build trees'),
      walked: end('first walk'),
    };
  });
  await page.close();
  return { total, ...t, boot: t.firstCall, open: t.firstCall === null ? null : total - t.firstCall };
}

const ms = (x) => (x === null || x === undefined ? 'n/a' : `${Math.round(x)} ms`);
const list = (xs) => xs.map((x) => Math.round(x)).join(', ');
const med = (runs, key) => (runs.some((r) => r[key] === null) ? null : median(runs.map((r) => r[key])));

try {
  for (const c of checkouts) await deepLink(c.server, true); // warm each server's caches (the trace, the set)
  const loadBefore = load();
  for (const c of checkouts) c.r = { aPlain: [], aOver: [], bPlain: [], bOver: [] };
  for (let rep = 0; rep < reps; rep++) {
    for (const c of checkouts) {
      c.r.aPlain.push(await inApp(c.server, false));
      c.r.aOver.push(await inApp(c.server, true));
      c.r.bPlain.push(await deepLink(c.server, false));
      c.r.bOver.push(await deepLink(c.server, true));
    }
  }
  console.log(
    `trace: ${events.toLocaleString('en-US')} states; set ns: ${items.length} items on it; medians of ${reps} fresh pages each; load average ${loadBefore} before, ${load()} after`,
  );
  for (const c of checkouts) {
    const { aPlain, aOver, bPlain, bOver } = c.r;
    console.log(`[${c.label}]`);
    console.log(`(a) in-app open (booted and idle, set and run chosen; click -> both trees drawn, marks in)`);
    console.log(`    no overlay     ${ms(median(aPlain))}  (${list(aPlain)})`);
    console.log(`    run overlaid   ${ms(median(aOver))}  (${list(aOver)})`);
    console.log(`    ratio overlay / no overlay ${(median(aOver) / median(aPlain)).toFixed(2)}`);
    console.log(`(b) deep link from navigation (-> both trees drawn, marks in) = boot (-> first API call) + open`);
    for (const [name, runs] of [
      ['no overlay  ', bPlain],
      ['run overlaid', bOver],
    ]) {
      console.log(
        `    ${name}   ${ms(med(runs, 'total'))} = boot ${ms(med(runs, 'boot'))} + open ${ms(med(runs, 'open'))}  (totals ${list(runs.map((r) => r.total))})`,
      );
      console.log(
        `      open: skeleton in ${ms(med(runs, 'skeleton'))}, trees built ${ms(med(runs, 'built'))}, first walk landed ${ms(med(runs, 'walked'))} (from navigation)`,
      );
      console.log(
        `      boot: entry script arrived ${ms(med(runs, 'script'))}, evaluated ${ms(med(runs, 'evaluated'))}, App mounted ${ms(med(runs, 'mounted'))}, first API call ${ms(med(runs, 'firstCall'))}; script fetched before it ${(median(runs.map((r) => r.jsBytes)) / 1024).toFixed(0)} KB in ${runs[0].jsFiles} files`,
      );
    }
    console.log(`    ratio overlay / no overlay ${(med(bOver, 'total') / med(bPlain, 'total')).toFixed(2)}`);
  }
  if (checkouts.length === 2) {
    const [t, b] = checkouts.map((c) => c.r);
    const r = (x, y) => (x / y).toFixed(2);
    console.log(
      `this checkout / base: (a) overlaid ${r(median(t.aOver), median(b.aOver))}, no overlay ${r(median(t.aPlain), median(b.aPlain))}; (b) overlaid ${r(med(t.bOver, 'total'), med(b.bOver, 'total'))} (boot ${r(med(t.bOver, 'boot'), med(b.bOver, 'boot'))}, open ${r(med(t.bOver, 'open'), med(b.bOver, 'open'))}), no overlay ${r(med(t.bPlain, 'total'), med(b.bPlain, 'total'))}`,
    );
  }
} finally {
  await browser.close();
  for (const c of checkouts) await c.server?.close();
}
