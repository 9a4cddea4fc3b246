// The dashboard on CRUXEval (CodeLlama-7B and GPT-4's released generations of the corpus's
// tasks) and on next-state and horizon sets (e2e/make-predictions.mjs): every number drawn
// equals `stepscope scores --json` (run here on the same corpus), the comparison's counts add
// up to the API's per-item verdicts, a clicked mark lists its items and an item opens in the
// explorer, and each plot saves as SVG and PNG. Screenshots of each view for looking at.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ItemDetail, ScoreLine } from '../src/contract/index.js';
import { truth, verdictOf } from './helpers.js';

const root = resolve(import.meta.dirname, '..');
const shots = join(import.meta.dirname, 'screenshots');

/** `stepscope scores --json` on the served corpus: one line per run and group. */
function scores(set: string, by?: string): ScoreLine[] {
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'bin/stepscope.js'),
      'scores',
      '--db',
      process.env.STEPSCOPE_E2E_DB!,
      '--set',
      set,
      '--json',
      ...(by ? ['--by', by] : []),
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function openDashboard(page: Page, set: string) {
  await page.goto('./');
  await page.getByTestId('view-dashboard').click();
  await expect(page.getByTestId('dash-set').locator('option')).not.toHaveCount(0);
  await page.getByTestId('dash-set').selectOption(set);
  await expect(page.getByTestId('dash-set')).toHaveValue(set);
  await expect(page.getByTestId('plot-length')).toBeVisible();
}

/** Every mark of a plot as {run, group, metric, value}. */
async function marks(page: Page, plot: string) {
  return page
    .getByTestId(`plot-${plot}`)
    .getByTestId('mark')
    .evaluateAll((els) =>
      els.map((e) => ({
        run: e.getAttribute('data-run')!,
        group: e.getAttribute('data-group')!,
        metric: e.getAttribute('data-metric')!,
        value: Number(e.getAttribute('data-value')),
      })),
    );
}

const lineOf = (ls: ScoreLine[], run: string, group: string) =>
  ls.find((l) => l.model === run && (l.group === null ? '' : String(l.group)) === group);

test('CRUXEval: pass@1 and pass@k are the numbers of scores --json, next to the published figures', async ({
  page,
}) => {
  await openDashboard(page, 'crux-out');
  const json = scores('crux-out');
  await expect(page.getByTestId('plot-cruxeval-pass1')).toContainText('GPT-4 (0613) T=0.2 (published)');
  await expect(page.getByTestId('plot-cruxeval-pass1')).toContainText('68.70');
  const bars = await marks(page, 'cruxeval-pass1');
  if (json.some((l) => l['pass@1'] === null)) {
    // Execution checks not run yet: nothing of the run is drawn, and the run says why.
    expect(bars).toEqual([]);
    await expect(page.getByTestId('plot-cruxeval-pass1').getByTestId('plot-empty')).toBeVisible();
    await expect(page.locator('label.run', { hasText: 'codellama-7b' })).toContainText('checks pending');
  } else {
    expect(bars.map((b) => b.run).sort()).toEqual(['codellama-7b', 'gpt-4']);
    for (const b of bars) expect(b.value, b.run).toBe(lineOf(json, b.run, '')!['pass@1']);
    const points = await marks(page, 'pass-at-k');
    expect(points).toHaveLength(6); // 10 samples per task: k = 1, 5, 10 for both runs
    for (const p of points)
      expect(p.value, `${p.run} ${p.metric}`).toBe(lineOf(json, p.run, '')![p.metric as 'pass@1']);
  }
  // Length: the same lines as --by length.
  const ls = scores('crux-out', 'length');
  const ms = await marks(page, 'length');
  expect(ms.length).toBe(ls.filter((l) => l.group !== null && l['pass@1'] !== null).length);
  for (const m of ms) expect(m.value, `length ${m.run} ${m.group}`).toBe(lineOf(ls, m.run, m.group)!['pass@1']);
  // CRUXEval's f is called from main: every target at depth 1, one point per run. Left out, saying so.
  expect(new Set(scores('crux-out', 'depth').map((l) => l.group))).toEqual(new Set([null, 1]));
  await expect(page.getByTestId('plot-depth')).toHaveCount(0);
  await expect(page.locator('[data-testid="left-out"][data-plot="depth"]')).toContainText('every target is at depth 1');
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, 'dashboard-cruxeval.png'), fullPage: true });
});

test('next-state: exact match by action × field, format errors and horizon are the numbers of scores --json', async ({
  page,
}) => {
  await openDashboard(page, 'ns');
  const byAction = scores('ns', 'action');
  const cells = await marks(page, 'action-field');
  expect(cells.length).toBeGreaterThan(20);
  for (const c of cells)
    expect(c.value, `${c.run} ${c.group} ${c.metric}`).toBe(lineOf(byAction, c.run, c.group)![c.metric as 'em_all']);
  // Every applicable (run, action, field) has its cell.
  const applicable = byAction
    .filter((l) => l.group !== null)
    .flatMap((l) => (['em_event', 'em_src', 'em_locals', 'em_arg', 'em_all'] as const).filter((m) => l[m] !== null));
  expect(cells).toHaveLength(applicable.length);
  for (const b of await marks(page, 'format-errors'))
    expect(b.value).toBe(lineOf(byAction, b.run, b.group)!.format_errors);
  await page.screenshot({ path: join(shots, 'dashboard-next-state.png'), fullPage: true });

  await page.getByTestId('dash-set').selectOption('hz');
  await expect(page.getByTestId('plot-horizon').getByTestId('mark').first()).toBeVisible();
  const hz = scores('hz', 'horizon');
  const pts = await marks(page, 'horizon');
  expect(pts).toHaveLength(hz.filter((l) => l.group !== null).length);
  for (const p of pts) expect(p.value).toBe(lineOf(hz, p.run, p.group)!['pass@1']);
  await page.getByTestId('plot-horizon').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'dashboard-horizon.png'), fullPage: true });
});

test('a clicked cell lists its items, and an item opens in the explorer where the model was asked', async ({
  page,
  request,
}) => {
  await openDashboard(page, 'ns');
  const cell = page
    .getByTestId('plot-action-field')
    .locator('[data-testid="mark"][data-run="model-a"][data-group="step_over"][data-metric="em_locals"]');
  await cell.click();
  const line = lineOf(scores('ns', 'action'), 'model-a', 'step_over')!;
  await expect(page.getByTestId('group-title')).toContainText('model-a: step_over');
  await expect(page.getByTestId('group-total')).toHaveText(new RegExp(`^${line.items} items`));
  await expect(page.getByTestId('group-item')).toHaveCount(line.items);
  const ids = (await page
    .getByTestId('group-item')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-item'))))) as number[];
  const { rows } = await truth(request, 'listItems', { set: 'ns', run: 'model-a', limit: 1000 });
  expect(ids.sort()).toEqual(
    rows
      .filter((r) => r.action === 'step_over')
      .map((r) => r.id)
      .sort(),
  );
  await page.screenshot({ path: join(shots, 'dashboard-items.png') });

  const item = rows.find((r) => r.id === ids[0])!;
  await page
    .getByTestId('group-item')
    .filter({ has: page.locator(`text=${item.key}`) })
    .first()
    .click();
  await expect(page.getByTestId('code-view')).toBeVisible();
  // The prompt's actions walked but the last (the one asked about): the current node is where the model was asked.
  await expect(page.getByTestId('history-pos')).toHaveText(`${item.actions.length - 1}/${item.actions.length}`);
  // Opened as its link opens it: the mark's run overlaid, the item's answers against the truth, the address naming it.
  await expect(page.getByTestId('view-explorer')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('prediction-head')).toContainText(`item ${item.key}`);
  await expect
    .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
    .toMatchObject({ set: 'ns', run: 'model-a', item: String(item.id) });
});

test('one view bar: every view by click, by Alt+digit and by link; an unknown view says so', async ({ page }) => {
  await page.goto('./');
  const bar = page.getByTestId('view-bar');
  await expect(bar.getByRole('button')).toHaveText(['Explorer', 'Dashboard', 'Label failures', 'Agreement']);
  const shown = { explorer: 'welcome', dashboard: 'dash-set', label: 'label-run', agreement: 'agreement' };
  for (const [i, [view, testid]] of Object.entries(shown).entries()) {
    await page.getByTestId(`view-${view}`).click();
    await expect(page.getByTestId(testid)).toBeVisible();
    await expect(page.getByTestId(`view-${view}`)).toHaveAttribute('aria-current', 'page');
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe(view === 'explorer' ? null : view);
    // Back to the explorer by keyboard, then here again by Alt+digit.
    await page.keyboard.press('Alt+1');
    await expect(page.getByTestId('welcome')).toBeVisible();
    await page.keyboard.press(`Alt+${i + 1}`);
    await expect(page.getByTestId(testid)).toBeVisible();
    // Reopened from its address.
    await page.goto(`./?view=${view}`);
    await expect(page.getByTestId(testid)).toBeVisible();
    await expect(page.getByTestId('link-problems')).toHaveCount(0);
  }
  // Tab reaches the bar's buttons, Enter opens one.
  await page.goto('./');
  await page.getByTestId('view-explorer').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('view-dashboard')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('dash-set')).toBeVisible();
  for (const w of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w[0], height: w[1] });
    await page.screenshot({ path: join(shots, `view-bar-dashboard-${w[0]}.png`) });
  }
  await page.goto('./?view=plots');
  await expect(page.getByTestId('link-problems')).toContainText(
    '"view" should be one of the views "explorer", "dashboard", "label", "agreement", not "plots"',
  );
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.screenshot({ path: join(shots, 'view-bar-unknown-view.png') });
});

for (const [set, a, b] of [
  ['crux-out', 'codellama-7b', 'gpt-4'],
  ['ns', 'model-a', 'model-b'],
] as const) {
  test(`two runs of ${set} compared: the counts add up and match the per-item verdicts; a differing item opens`, async ({
    page,
    request,
  }) => {
    await openDashboard(page, set);
    await page.getByTestId('compare-a').selectOption(a);
    await page.getByTestId('compare-b').selectOption(b);
    await expect(page.getByTestId('compare-row').first()).toBeVisible();
    // Independent truth: each item's first sample, from the API's item list (null: pending, left out).
    const first = async (run: string) =>
      new Map(
        (await truth(request, 'listItems', { set, run, limit: 1000 })).rows.map((r) => [
          r.id,
          r.verdicts[0]?.correct ?? null,
        ]),
      );
    const [va, vb] = [await first(a), await first(b)];
    const n = (fa: boolean, fb: boolean) =>
      [...va.keys()].filter((id) => va.get(id) === fa && vb.get(id) === fb).length;
    const paired = n(true, true) + n(true, false) + n(false, true) + n(false, false);
    const whole = page.locator('[data-testid="compare-row"][data-action=""]');
    const cell = async (row: typeof whole, k: string) => Number(await row.locator(`[data-k="${k}"]`).innerText());
    expect(await cell(whole, 'both')).toBe(n(true, true));
    expect(await cell(whole, 'onlyA')).toBe(n(true, false));
    expect(await cell(whole, 'onlyB')).toBe(n(false, true));
    expect(await cell(whole, 'neither')).toBe(n(false, false));
    expect(await cell(whole, 'items')).toBe(paired);
    if (paired < va.size)
      await expect(page.getByTestId('compare')).toContainText(`${va.size - paired} items are left out`);
    let sum = 0;
    for (const row of await page.locator('[data-testid="compare-row"]:not([data-action=""])').all()) {
      expect(
        (await cell(row, 'both')) +
          (await cell(row, 'onlyA')) +
          (await cell(row, 'onlyB')) +
          (await cell(row, 'neither')),
      ).toBe(await cell(row, 'items'));
      sum += await cell(row, 'items');
    }
    expect(sum).toBe(paired);
    await expect(page.getByTestId('differing-item')).toHaveCount(Math.min(500, n(true, false) + n(false, true)));
    await page.getByTestId('compare').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, `dashboard-compare-${set}.png`) });
    if (n(true, false) + n(false, true) === 0) return;
    const d = page.getByTestId('differing-item').first();
    const item = await truth(request, 'getItem', { id: Number(await d.getAttribute('data-item')) });
    await d.click();
    await expect(page.getByTestId('code-view')).toContainText(item.name);
    await expect(page.getByTestId('history-pos')).toHaveText(`${item.actions.length - 1}/${item.actions.length}`);
    // Both runs overlaid, as the link the address now carries.
    await expect(page.getByTestId('prediction-head')).toContainText(`item ${item.key}`);
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
      .toMatchObject({ set, run: a, run2: b, item: String(item.id) });
    await expectBothRuns(page, request, item, a, b, `dashboard-compare-item-${set}`);
    // Reloaded, the address opens the same: both runs' ghosts and columns.
    await page.reload();
    await expectBothRuns(page, request, item, a, b, null);
    // The graph shape draws both ghosts too.
    await page.getByTestId(`${item.direction}-shape`).click();
    await expect(page.getByTestId(`${item.direction}-tree`)).toHaveAttribute('data-shape', 'graph');
    await expectBothRuns(page, request, item, a, b, null);
    await page.screenshot({ path: join(shots, `dashboard-compare-item-${set}-graph.png`) });
    await page.getByTestId(`${item.direction}-shape`).click();
  });
}

/**
 * An item open with two runs: a ghost per run beside the true target, each with the verdict
 * of its run's first sample as the API gives it (one right, the other not: the item is one
 * where they differ), linked from the current node by the item's action; the prediction panel
 * shows each run's verdict, and for state answers each run's wrong fields as the API's exact
 * match found them. Screenshots at 1280x720 and 1920x1080 when `shot` names them.
 */
async function expectBothRuns(
  page: Page,
  request: APIRequestContext,
  item: ItemDetail,
  a: string,
  b: string,
  shot: string | null,
) {
  const layer = page.getByTestId(`${item.direction}-ghost-layer`);
  const right: boolean[] = [];
  for (const run of [a, b]) {
    const p = (await truth(request, 'getItem', { id: item.id, run })).predictions.sort(
      (x, y) => x.sample - y.sample,
    )[0];
    const want = verdictOf(p)!;
    right.push(want === 'pass');
    await expect(layer.locator(`[data-testid="ghost"][data-run="${run}"]`)).toHaveAttribute('data-verdict', want);
    await expect(layer.locator(`[data-testid="ghost-edge"][data-run="${run}"]`)).toHaveAttribute(
      'data-action',
      item.actions[item.actions.length - 1],
    );
    const side = page.locator(`[data-testid="pair-side"][data-run="${run}"]`);
    await expect(side.getByTestId('verdict')).toHaveAttribute('data-verdict', want);
    if (!p.parsed && !p.parseError) continue;
    // The run's column of the field diff: a field is marked wrong exactly where exact match failed.
    const cells = (field: string) =>
      page.locator(
        `[data-testid="pair-row"][data-field="${field}"] [data-testid="pair-cell"][data-run="${run}"]:not([data-status="same"])`,
      );
    for (const field of ['event', 'src', 'locals'] as const) {
      if (p.em[field] === null) continue;
      const n = await cells(field === 'locals' ? 'local' : field).count();
      expect(n > 0, `${run}'s ${field} marked wrong`).toBe(p.em[field] === false);
    }
  }
  expect(right[0] !== right[1], 'one run right, the other not').toBe(true);
  await expect(page.getByTestId('ghost')).toHaveCount(2);
  if (!shot) return;
  for (const [w, h] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(shots, `${shot}-${w}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('each plot saves as SVG and PNG', async ({ page }) => {
  await openDashboard(page, 'ns');
  for (const plot of ['action-field', 'format-errors', 'length', 'depth']) {
    const card = page.getByTestId(`plot-${plot}`);
    const [svg] = await Promise.all([page.waitForEvent('download'), card.getByTestId('export-svg').click()]);
    expect(svg.suggestedFilename()).toBe(`${plot}.svg`);
    const text = readFileSync((await svg.path())!, 'utf8');
    expect(text).toMatch(/^<\?xml[^>]*>\n<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(text).toContain('data-testid="mark"');
    const [png] = await Promise.all([page.waitForEvent('download'), card.getByTestId('export-png').click()]);
    expect(png.suggestedFilename()).toBe(`${plot}.png`);
    const bytes = readFileSync((await png.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // Twice the drawn size.
    const box = (await card.locator('.plot svg').boundingBox())!;
    expect(bytes.readUInt32BE(16)).toBe(Math.ceil(box.width * 2));
  }
});

test('a dashboard link opens its set and the two runs it compares; what is stale is said', async ({
  page,
  request,
}) => {
  await page.goto('./?view=dashboard&set=ns&run=model-b&run2=model-a');
  await expect(page.getByTestId('dash-set')).toHaveValue('ns');
  await expect(page.getByTestId('compare-a')).toHaveValue('model-b');
  await expect(page.getByTestId('compare-b')).toHaveValue('model-a');
  const want = (await truth(request, 'compareRuns', { set: 'ns', a: 'model-b', b: 'model-a' })).groups[0];
  const whole = page.locator('[data-testid="compare-row"][data-action=""]');
  await expect(whole.locator('[data-k="onlyA"]')).toHaveText(String(want.onlyA));
  await expect(whole.locator('[data-k="onlyB"]')).toHaveText(String(want.onlyB));
  await expect(page.getByTestId('link-problems')).toHaveCount(0);
  // Choosing other runs is in the address, so a reload keeps them.
  await page.getByTestId('compare-b').selectOption('model-a');
  await page.getByTestId('compare-a').selectOption('model-a');
  await page.getByTestId('compare-b').selectOption('model-b');
  await expect.poll(() => new URL(page.url()).search).toBe('?view=dashboard&set=ns');
  await page.getByTestId('compare-a').selectOption('model-b');
  await page.getByTestId('compare-b').selectOption('model-a');
  await expect
    .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
    .toEqual({ view: 'dashboard', set: 'ns', run: 'model-b', run2: 'model-a' });
  await page.reload();
  await expect(page.getByTestId('compare-a')).toHaveValue('model-b');

  await page.goto('./?view=dashboard&set=ns&run=nope&trace=3');
  const box = page.getByTestId('link-problems');
  await expect(box).toContainText('has no run "nope"');
  await expect(box).toContainText('trace was ignored');
  await expect(page.getByTestId('dash-set')).toHaveValue('ns');
  await page.goto('./?view=dashboard&set=gone');
  await expect(page.getByTestId('link-problems')).toContainText('no evaluation set named "gone"');
  await expect(page.getByTestId('dash-set')).toBeVisible();
});

test('every plot, its axes and their labels stay inside its card, at 1280 and 1920 pixels wide', async ({ page }) => {
  for (const set of ['crux-out', 'ns', 'hz']) {
    for (const [w, h] of [
      [1280, 720],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await openDashboard(page, set);
      await expect(page.locator('[data-testid^="plot-"] svg').first()).toBeVisible();
      // Polled: the previous set's plots may still be on screen while the chosen set's are drawn
      // (a card being replaced measures as empty); a label truly past its card's edge stays there.
      const over = () =>
        page.locator('section[data-testid^="plot-"]').evaluateAll((cards) =>
          cards.flatMap((c) => {
            const right = c.getBoundingClientRect().right;
            return [...c.querySelectorAll('svg text')]
              .map((t) => ({
                plot: c.getAttribute('data-testid'),
                text: t.textContent,
                past: t.getBoundingClientRect().right - right,
              }))
              .filter((x) => x.past > -2);
          }),
        );
      await expect
        .poll(over, { message: `${set} at ${w}px: labels at or past the card's right edge`, timeout: 15_000 })
        .toEqual([]);
      if (set === 'ns') await page.screenshot({ path: join(shots, `dashboard-${set}-${w}.png`) });
    }
  }
});

/** The top of a plot's area (its 100% line, or for bars its highest y tick) and the boxes of its legend's entries. */
async function legendAndFrame(page: Page, plot: string) {
  return page.getByTestId(`plot-${plot}`).evaluate((card) => {
    const ticks = [...card.querySelectorAll('[aria-label="y-axis tick"] path')].map(
      (p) => p.getBoundingClientRect().top,
    );
    const marks = [...card.querySelectorAll('[data-testid="mark"]')].map((m) => m.getBoundingClientRect());
    return {
      top: Math.min(...ticks),
      legend: [...card.querySelectorAll('.legend text')].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      }),
      marks: marks.map((r) => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right })),
    };
  });
}

test('legends sit above the plot area, bins say how many items they hold, plots that would say nothing are left out', async ({
  page,
}) => {
  mkdirSync(shots, { recursive: true });
  for (const [w, h] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await openDashboard(page, 'ns');
    // Format errors and the line plots: every legend entry above the plot area, clear of every mark.
    for (const plot of ['format-errors', 'length', 'depth']) {
      await expect(page.getByTestId(`plot-${plot}`).getByTestId('mark').first()).toBeVisible();
      const { top, legend, marks: ms } = await legendAndFrame(page, plot);
      expect(legend.map((l) => l.text).sort(), plot).toEqual(['● model-a', '● model-b']);
      for (const l of legend) {
        expect(l.bottom, `${plot} at ${w}px: "${l.text}" ends above the plot area`).toBeLessThanOrEqual(top);
        for (const m of ms)
          expect(
            l.bottom <= m.top || l.top >= m.bottom || l.right <= m.left || l.left >= m.right,
            `${plot} at ${w}px: "${l.text}" clear of a mark`,
          ).toBe(true);
      }
    }
    // Every bin's items above it, as scores --by length/depth count them; few items: hollow and orange.
    for (const by of ['length', 'depth'] as const) {
      const ls = scores('ns', by).filter((l) => typeof l.group === 'number');
      const card = page.getByTestId(`plot-${by}`);
      const shown = await card.locator('.bin-items text, .bin-items-few text').allTextContents();
      const want = [...new Set(ls.map((l) => l.group))].map((g) => {
        const counts = ls.filter((l) => l.group === g).map((l) => l.items);
        return counts.every((c) => c === counts[0]) ? String(counts[0]) : counts.join('/');
      });
      expect(shown.sort(), by).toEqual(want.sort());
      const few = await card.locator('.bin-items-few text').allTextContents();
      expect(few.sort(), by).toEqual(want.filter((t) => t.split('/').some((c) => Number(c) < 10)).sort());
      // A bin of one item (depth 3, length 128) is a hollow point, and its tooltip says how many.
      const one = ls.find((l) => l.items === 1)!;
      const dot = card.locator(`[data-testid="mark"][data-run="${one.model}"][data-group="${one.group}"]`);
      await expect(dot.locator('xpath=..')).toHaveAttribute('fill', 'white');
      await expect(dot.locator('title')).toContainText('(1 item: fewer than 10');
    }
    // ns has two draws per item: pass@k would be pass@1 alone.
    await expect(page.getByTestId('plot-pass-at-k')).toHaveCount(0);
    await expect(page.locator('[data-testid="left-out"][data-plot="pass-at-k"]')).toContainText(
      'fewer than 5 draws per item',
    );
    await page.getByTestId('plot-format-errors').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, `dashboard-legends-ns-${w}.png`) });
    await page.getByTestId('plot-depth').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, `dashboard-bins-ns-${w}.png`) });

    // CRUXEval: ten draws per task, so pass@k is drawn; depth is left out (every target at depth 1).
    await openDashboard(page, 'crux-out');
    await expect(page.getByTestId('plot-pass-at-k').getByTestId('mark').first()).toBeVisible();
    const pk = await legendAndFrame(page, 'pass-at-k');
    for (const l of pk.legend) expect(l.bottom, `pass@k at ${w}px: "${l.text}"`).toBeLessThanOrEqual(pk.top);
    await expect(page.locator('[data-testid="left-out"][data-plot="depth"]')).toBeVisible();
    await page.getByTestId('plot-length').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, `dashboard-bins-crux-${w}.png`) });
    await page.getByTestId('left-out').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, `dashboard-left-out-crux-${w}.png`) });
    // A clicked point's items name the model's answers as draws, not as samples beside the task id (sample_0).
    await page.getByTestId('plot-length').getByTestId('mark').first().click();
    const first = page.getByTestId('group-item').first();
    await expect(first.locator('.verdicts .v')).toHaveCount(10);
    await expect(first.locator('.verdicts .v').nth(1)).toHaveAttribute('title', /^draw 2 of 10: /);
  }
});
