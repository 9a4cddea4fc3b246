#!/usr/bin/env node
// The dashboard over 100,000 predictions, in Chromium through Playwright against the web mode.
// A corpus of the demo programs gets a next-state set of 10,000 forward items (2,000 per action
// kind) and two runs of 10 samples per item (100,000 predictions each: right, a local wrong,
// another event, cut short), and a baseline set of 100 items with the same two runs (1,000
// predictions each).
// Measured, best of three, both sets in this same run:
//   - scores of the big set's runs from the per-item sums (SQL, migration 008) against the same
//     scores from one row per prediction (the path `stepscope scores` takes);
//   - draw: choosing the set in the dashboard -> every plot drawn and the comparison shown
//     (the API's scores, intervals and comparison, then Observable Plot), the runs' verdicts
//     already read by the server; and the first draw, which reads them;
//   - the same API calls alone, from Node (what the server computes per draw).
// Prints absolute figures and the ratio of the 100,000-prediction set to the baseline.
// Usage: node bench/dashboard.mjs [--items 10000] [--samples 10]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { arg, variants } from './_predictions-mix.mjs';

const ITEMS = arg('--items', 10_000);
const SAMPLES = arg('--samples', 10);
const root = new URL('..', import.meta.url).pathname;
const must = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}:\n${r.stderr}`);
};
must(join(root, 'node_modules/.bin/electron-vite'), ['build']);
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const { createEvalSet } = await import(join(root, 'dist/predictions/create.js'));
const { importPredictions } = await import(join(root, 'dist/predictions/import.js'));
const { createApi } = await import(join(root, 'dist/api/handlers/index.js'));
const { scoreLines } = await import(join(root, 'dist/predictions/scores.js'));
const { itemVerdictsOf } = await import(join(root, 'dist/predictions/item-verdicts.js'));
const dir = mkdtempSync(join(tmpdir(), 'stepscope-bench-dash-'));
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

const MIXES = { a: [0, 0, 0, 0, 0, 0, 1, 1, 2, 3], b: [0, 0, 0, 0, 1, 1, 1, 2, 3, 3] };

let browser;
let server;
try {
  const db = join(dir, 'demo.db');
  must(process.execPath, [join(root, 'bin/stepscope.js'), 'demo', '--db', db]);
  const corpus = openCorpus(db);
  const sets = { big: ITEMS, base: 100 };
  for (const [name, n] of Object.entries(sets)) {
    const { set } = createEvalSet(corpus, {
      name,
      task: 'next-state',
      perAction: Math.ceil(n / 5),
      direction: 'forward',
      seed: 1,
    });
    for (const [label, mix] of Object.entries(MIXES)) {
      const lines = [];
      for (const it of corpus.iterateItems(set.id)) {
        const v = variants(it.target);
        for (let k = 0; k < SAMPLES; k++)
          lines.push(JSON.stringify({ id: it.id, completion: v[mix[(k + it.id) % 10]] }));
      }
      const file = join(dir, `${name}-${label}.jsonl`);
      writeFileSync(file, lines.join('\n') + '\n');
      importPredictions(corpus, { file, set: name, label });
    }
    sets[name] = corpus.listRuns(set.id)[0].predictions;
  }
  console.log(
    `predictions per run: ${sets.big.toLocaleString('en')} (set big), ${sets.base.toLocaleString('en')} (set base, the baseline); two runs each`,
  );

  // What the server computes for one draw, from Node, with nothing cached (a fresh API each
  // time), as the dashboard asks it (no interval on a next-state set).
  const apiMs = (set) => {
    const api = createApi(corpus);
    const t = process.hrtime.bigint();
    for (const run of ['a', 'b']) api.getRunScores({ set, run, interval: false });
    api.compareRuns({ set, a: 'a', b: 'b' });
    return ms(t);
  };
  // The same scores from one row per prediction, summed in JS (what `stepscope scores` reads,
  // and what the dashboard read before migration 008): the sums' baseline.
  const rowsMs = (setName) => {
    const set = corpus.listEvalSets().find((s) => s.name === setName);
    const t = process.hrtime.bigint();
    for (const run of corpus.listRuns(set.id))
      for (const by of ['action', 'length', 'depth'])
        scoreLines(set, run, itemVerdictsOf(corpus.verdictRows(run.id)), by);
    return ms(t);
  };
  const sumsMs = (setName) => {
    const set = corpus.listEvalSets().find((s) => s.name === setName);
    const t = process.hrtime.bigint();
    for (const run of corpus.listRuns(set.id))
      for (const by of ['action', 'length', 'depth']) scoreLines(set, run, corpus.itemVerdicts(run.id), by);
    return ms(t);
  };
  const best = (f, x) => Math.min(f(x), f(x), f(x));
  const apiBig = best(apiMs, 'big');
  const apiBase = best(apiMs, 'base');
  const [rowsBig, sumsBig] = [best(rowsMs, 'big'), best(sumsMs, 'big')];
  corpus.close();

  const { startServer } = await import(join(root, 'dist/server/listen.js'));
  server = await startServer({ db, port: 0 });
  browser = await chromium.launch({
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
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  // The first set drawn reads 100,000 predictions' verdicts: slow on a busy machine.
  page.setDefaultTimeout(300_000);
  await page.goto(server.openUrl);
  await page.getByTestId('view-dashboard').click();
  await page.getByTestId('dash-set').locator('option').first().waitFor({ state: 'attached', timeout: 300_000 });
  const drawn = (set) =>
    page.waitForFunction(
      (set) => {
        const marks = (id) => document.querySelector(`[data-testid="plot-${id}"] [data-testid="mark"]`);
        // The dashboard names the set its plots are of and is not busy reading another: without
        // this the previous set's plots passed for the new ones (the select's value changes at once).
        const dash = document.querySelector('[data-testid="dashboard"]');
        return (
          dash.dataset.set === set &&
          dash.getAttribute('aria-busy') === 'false' &&
          ['action-field', 'pass-at-k', 'format-errors', 'length', 'depth'].every(marks) &&
          document.querySelector('[data-testid="compare-row"]')
        );
      },
      set,
      { timeout: 300_000, polling: 'raf' },
    );
  const draw = async (set) => {
    // From another set, so the chosen one draws again (the server keeps the last runs' verdicts
    // read: the first draw of each set, outside these timings, read them).
    const other = set === 'big' ? 'base' : 'big';
    await page.getByTestId('dash-set').selectOption(other);
    await drawn(other);
    const t = process.hrtime.bigint();
    await page.getByTestId('dash-set').selectOption(set);
    await drawn(set);
    return ms(t);
  };
  const first = await draw('big');
  const big = [];
  const base = [];
  for (let i = 0; i < 3; i++) {
    base.push(await draw('base'));
    big.push(await draw('big'));
  }
  const [b, s] = [Math.min(...big), Math.min(...base)];
  console.log(
    `load (uptime): ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')} on ${(await import('node:os')).cpus().length} cores`,
  );
  console.log(
    `scores of both runs over 100,000 (3 breakdowns): ${rowsBig.toFixed(0)} ms from one row per prediction, ${sumsBig.toFixed(0)} ms from the per-item sums: ratio ${(sumsBig / rowsBig).toFixed(2)}`,
  );
  console.log(
    `API per draw (Node):  ${apiBase.toFixed(0)} ms baseline, ${apiBig.toFixed(0)} ms over 100,000: ratio ${(apiBig / apiBase).toFixed(1)}`,
  );
  console.log(
    `dashboard draw:       ${s.toFixed(0)} ms baseline, ${b.toFixed(0)} ms over 100,000: ratio ${(b / s).toFixed(2)} (verdicts cached by the server)`,
  );
  console.log(
    `first draw of 100,000 (verdicts read): ${first.toFixed(0)} ms, ${(first / s).toFixed(1)}x the baseline draw`,
  );
} finally {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
}
