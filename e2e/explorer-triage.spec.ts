// Issue 32's explorer part, as a researcher triaging meets it: action labels that never cover a
// row, Back and Forward that stay in the app, the Prediction panel saying what is missing, the
// graph's labels and panels at 1280×720, F8 across the whole set, and the `?` panel of keys.
// Expected values come from the server's API (the same corpus the page shows).
import { expect as base, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { ItemRow } from '../src/contract/index.js';
import { edgesOf, openTrace, press, traceId, truth, verdictOf } from './helpers.js';

const expect = base.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const boxes = async (l: Locator): Promise<Box[]> =>
  (await Promise.all((await l.all()).map((e) => e.boundingBox()))).filter((b): b is Box => b !== null);

/** A trace with no item of the set whose items are `rows`. */
async function traceWithout(request: APIRequestContext, rows: ItemRow[]): Promise<number> {
  const has = new Set(rows.map((r) => r.traceId));
  const { rows: traces } = await truth(request, 'listTraces', { limit: 100 });
  const t = traces.find((r) => !has.has(r.id));
  expect(t, 'a trace without an item of the set').toBeTruthy();
  return t!.id;
}

/** Every action chip of a tree: inside its pane, and over no node's dot or text. */
async function chipsClear(page: Page, which: 'forward' | 'inverse') {
  const tree = page.getByTestId(`${which}-tree`);
  const canvas = (await tree.locator('svg').boundingBox())!;
  const chips = await boxes(tree.getByTestId('edge-chip'));
  const ink = [...(await boxes(tree.locator('.node text'))), ...(await boxes(tree.locator('.node circle')))];
  for (const c of chips) {
    expect(c.x).toBeGreaterThanOrEqual(canvas.x - 0.5);
    expect(c.x + c.width).toBeLessThanOrEqual(canvas.x + canvas.width + 0.5);
    expect(c.y).toBeGreaterThanOrEqual(canvas.y - 0.5);
    expect(c.y + c.height).toBeLessThanOrEqual(canvas.y + canvas.height + 0.5);
    for (const t of ink) expect(overlap(c, t), `chip at ${c.x},${c.y} over a node at ${t.x},${t.y}`).toBe(false);
  }
  return chips.length;
}

test('1: the action chips sit beside the rows, never over a row; off screen they are left out', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  await openTrace(page, 'sample_3');
  const id = await traceId(request, 'sample_3');
  // Chips are read once the edges are the step's (edgesOf: the walk lands after the cursor moves)
  // and counted by their boxes (a chip can be in the page a moment before it is laid out).
  const chipsDrawn = () =>
    expect.poll(async () => (await boxes(page.getByTestId('forward-tree').getByTestId('edge-chip'))).length);
  await edgesOf(page, request, id, []);
  await chipsDrawn().toBeGreaterThanOrEqual(3);
  expect(await chipsClear(page, 'forward')).toBeGreaterThanOrEqual(3);
  for (let k = 1; k <= 4; k++) {
    await press(page, 'F11', k);
    await edgesOf(page, request, id, Array<string>(k).fill('step_into'));
    await chipsDrawn().toBeGreaterThanOrEqual(3);
    expect(await chipsClear(page, 'forward')).toBeGreaterThanOrEqual(3);
  }
  // The long loop with the overview brushed far from the current node: no chip pinned to the border.
  await openTrace(page, 'long_loop.py');
  await press(page, 'F11', 1);
  const ov = (await page.getByTestId('overview').locator('svg').boundingBox())!;
  await page.mouse.move(ov.x + ov.width * 0.5, ov.y + 20);
  await page.mouse.down();
  await page.mouse.move(ov.x + ov.width * 0.6, ov.y + 20, { steps: 3 });
  await page.mouse.up();
  await expect(page.getByTestId('forward-tree').locator('[data-current="true"]')).toHaveCount(0);
  await expect(page.getByTestId('forward-tree').getByTestId('action-edge').first()).toBeAttached();
  // A chip still drawn is one whose target the brushed range shows (which ones depends on where
  // the drag landed on a loaded machine): it lies inside the pane, never on its top border.
  const pane = (await page.getByTestId('forward-tree').locator('svg').first().boundingBox())!;
  for (const chip of await page.getByTestId('forward-tree').getByTestId('edge-chip').all()) {
    const b = (await chip.boundingBox())!;
    expect(b.y, 'a chip pinned to the top border').toBeGreaterThan(pane.y + 1);
    expect(b.y + b.height).toBeLessThanOrEqual(pane.y + pane.height);
  }
});

test('1: in the graph the chips sit between the levels, over no node nor its label', async ({ page, request }) => {
  await page.goto('./');
  await page.evaluate(() => localStorage.setItem('stepscope.shape', 'graph'));
  await openTrace(page, 'calls.py');
  for (let k = 1; k <= 8; k++) await press(page, 'F11', k);
  await edgesOf(page, request, await traceId(request, 'calls.py'), Array<string>(8).fill('step_into'));
  await expect
    .poll(async () => (await boxes(page.getByTestId('forward-tree').getByTestId('edge-chip'))).length)
    .toBeGreaterThanOrEqual(2);
  expect(await chipsClear(page, 'forward')).toBeGreaterThanOrEqual(2);
});

test('2: Back and Forward restore the trace, the trajectory, the view and the item; Alt+←/→ too', async ({
  page,
  request,
}) => {
  await page.goto('./');
  const start = await page.evaluate(() => history.length);
  const length = () => page.evaluate(() => history.length);
  await openTrace(page, 'calls.py');
  await expect.poll(length).toBe(start + 1);
  await press(page, 'F11', 1);
  await press(page, 'F11', 2);
  // Steps rewrite the entry: the address follows, the history does not grow.
  await expect.poll(() => new URL(page.url()).searchParams.get('actions')).toBe('step_into,step_into');
  expect(await length()).toBe(start + 1);
  await openTrace(page, 'sample_3');
  await expect.poll(length).toBe(start + 2);
  await page.getByTestId('view-dashboard').click();
  await expect.poll(length).toBe(start + 3);
  const calls = await traceId(request, 'calls.py');
  const sample = await traceId(request, 'sample_3');

  await page.goBack();
  await expect(page.getByTestId('controls')).toBeVisible();
  await expect(page.getByTestId('code-view')).toContainText('sample_3');
  expect(new URL(page.url()).searchParams.get('trace')).toBe(String(sample));
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(page.getByTestId('code-view')).toContainText('calls.py');
  await expect(page.getByTestId('history-pos')).toHaveText('2/2');
  expect(new URL(page.url()).searchParams.get('trace')).toBe(String(calls));
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page.getByTestId('code-view')).toContainText('sample_3');
  await page.goForward();
  await expect(page.getByTestId('view-dashboard')).toHaveAttribute('aria-current', 'page');
  // Back to the first entry: nothing open, and still the app.
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await expect(page.getByTestId('welcome')).toBeVisible();
  expect(page.url()).toMatch(/\/$/);

  // An item opened from the trace is an entry of its own; Back closes it, Forward reopens it.
  const { rows } = await truth(request, 'listItems', { set: 'crux-bp', run: 'mutant', limit: 5 });
  const it = rows[0];
  await page.goto(`./?trace=${it.traceId}&set=crux-bp&run=mutant`);
  await expect(page.getByTestId('verdict-counts')).toHaveAttribute('data-trace', String(it.traceId));
  const before = await length();
  const marked = page
    .getByTestId(`${it.direction}-tree`)
    .locator(`[data-seq="${it.targetSeq}"][data-event="${it.targetKind}"]`);
  await marked.scrollIntoViewIfNeeded();
  await marked.dispatchEvent('click');
  await expect(page.getByTestId('prediction-head')).toContainText(`item ${it.key}`);
  await expect.poll(length).toBe(before + 1);
  await page.goBack();
  await expect(page.getByTestId('prediction-head')).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('item')).toBeNull();
  await page.goForward();
  await expect(page.getByTestId('prediction-head')).toContainText(`item ${it.key}`);
});

test('3: with a set and run chosen the Prediction panel says what is missing, not "Choose a set"', async ({
  page,
  request,
}) => {
  const { rows } = await truth(request, 'listItems', { set: 'ns', run: 'model-a', limit: 1000 });
  const bare = await traceWithout(request, rows);
  await page.goto(`./?trace=${bare}&set=ns&run=model-a`);
  await page.getByTestId('check-model-open').click();
  const intro = page.getByTestId('prediction-intro');
  await expect(intro).toContainText('The set "ns" has no item on this trace');
  await expect(intro).not.toContainText('Choose a set');
  const on = rows[0];
  await page.goto(`./?trace=${on.traceId}&set=ns&run=model-a`);
  await expect(page.getByTestId('prediction-intro')).toContainText('Click a marked node to see model-a');
  await page.goto(`./?trace=${on.traceId}`);
  await page.getByTestId('check-model-open').click();
  await expect(page.getByTestId('prediction-intro')).toContainText('Choose a set and a run');
});

test('5: graph labels are horizontal and cut with a title; at 1280×720 the panels fit', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  await page.evaluate(() => localStorage.setItem('stepscope.shape', 'graph'));
  // A 22-state inverse tree.
  const id = await traceId(request, 'sample_0');
  await page.goto(`./?trace=${id}&set=crux-bp&run=mutant`);
  await expect(page.locator('[data-current="true"]')).toHaveCount(1);
  await page.getByTestId('restart-inverse').click();
  const inv = page.getByTestId('inverse-tree');
  await expect(inv.locator('[data-current="true"]')).toHaveCount(1);
  await expect(inv.locator('.node text.under').first()).toBeVisible();
  await expect(page.locator('svg text[transform*="rotate"]')).toHaveCount(0);
  for (const t of await inv.locator('.node text.under').all()) {
    // Read at once: a label grows when its state's values arrive.
    const [shown, full] = await t.evaluate((e) => [
      e.firstChild?.textContent ?? '',
      e.querySelector('title')?.textContent,
    ]);
    expect(shown.length).toBeLessThanOrEqual(12);
    if (shown !== full) expect(full!.startsWith(shown.slice(0, -1)) && shown.endsWith('…')).toBe(true);
  }
  const inverseFrom = page.getByRole('button', { name: 'Inverse from here' });
  const panel = (await page.getByTestId('inspector').boundingBox())!;
  const b = (await inverseFrom.boundingBox())!;
  expect(b.x + b.width).toBeLessThanOrEqual(panel.x + panel.width);
  expect(b.y + b.height).toBeLessThanOrEqual(720);

  // A failing item: its ghost's label inside the pane, the predicted-vs-true table with room.
  const { rows } = await truth(request, 'listItems', { set: 'ns', run: 'model-a', limit: 1000 });
  const wrong = rows.find((r) => verdictOf(r.verdicts.find((v) => v.run === 'model-a')) === 'fail')!;
  await page.goto(`./?set=ns&run=model-a&item=${wrong.id}`);
  const ghost = page.getByTestId(`${wrong.direction}-tree`).getByTestId('ghost');
  await expect(ghost).toHaveCount(1);
  const pane = (await page.getByTestId(`${wrong.direction}-tree`).locator('svg').boundingBox())!;
  const label = (await ghost.locator('text').boundingBox())!;
  expect(label.x).toBeGreaterThanOrEqual(pane.x);
  expect(label.x + label.width).toBeLessThanOrEqual(pane.x + pane.width);
  await expect(ghost.locator('title')).toContainText('predicted:');
  const body = (await page.getByTestId('prediction').boundingBox())!;
  expect(body.height).toBeGreaterThanOrEqual(230);
  expect(body.width).toBeGreaterThanOrEqual(280);
});

test('6: F8 goes through every failing item of the set and run, trace after trace, and says so at the ends', async ({
  page,
  request,
}) => {
  const { rows } = await truth(request, 'listItems', { set: 'ns', run: 'model-a', limit: 1000 });
  const failing = rows.filter((r: ItemRow) =>
    ['fail', 'format'].includes(
      verdictOf(r.verdicts.filter((v) => v.run === 'model-a').sort((a, b) => a.sample - b.sample)[0]) ?? '',
    ),
  );
  const traces = new Set(failing.map((r) => r.traceId));
  expect(traces.size, 'failing items on several traces').toBeGreaterThan(1);
  const bare = await traceWithout(request, rows);
  await page.goto(`./?trace=${bare}&set=ns&run=model-a`);
  await expect(page.getByTestId('verdict-counts')).toHaveAttribute('data-trace', String(bare));
  const item = () => new URL(page.url()).searchParams.get('item');
  const pos = page.getByTestId('failure-position');
  const seen: string[] = [];
  const traceOf: number[] = [];
  for (let k = 1; k <= failing.length; k++) {
    await page.keyboard.press('F8');
    await expect(pos).toHaveAttribute('data-at', String(k));
    await expect(pos).toHaveAttribute('data-of', String(failing.length));
    await expect(pos).toContainText(`failing ${k} of ${failing.length}`);
    seen.push(item()!);
    traceOf.push(Number(new URL(page.url()).searchParams.get('trace')));
  }
  expect([...seen].sort()).toEqual(failing.map((r) => String(r.id)).sort());
  // Trace after trace: each trace's failures in one run, and the trace opened with them.
  expect(new Set(traceOf).size).toBe(traces.size);
  for (let k = 1; k < traceOf.length; k++)
    if (traceOf[k] !== traceOf[k - 1]) expect(traceOf.slice(k + 1)).not.toContain(traceOf[k - 1]);
  await expect(page.getByTestId('failure-note')).toContainText('last failing item; F8 again wraps to the first');
  await page.keyboard.press('F8');
  await expect(pos).toHaveAttribute('data-at', '1');
  await expect(page.getByTestId('failure-note')).toContainText('wrapped round to the first');
  expect(item()).toBe(seen[0]);
  await page.keyboard.press('Shift+F8');
  await expect(pos).toHaveAttribute('data-at', String(failing.length));
  expect(item()).toBe(seen[seen.length - 1]);
});

test('7: ? lists every key of the view, from the table the handlers use; Esc or ? closes it', async ({ page }) => {
  await page.goto('./');
  await openTrace(page, 'calls.py');
  await page.keyboard.press('?');
  const panel = page.getByTestId('keys-panel');
  await expect(panel).toHaveAttribute('data-view', 'explorer');
  for (const [key, does] of [
    ['F11', 'Step into'],
    ['Alt+[', "Back one action in the trajectory's history"],
    ['Alt+←', 'Back: what was open before'],
    ['F8', 'Next failing item'],
    ['Enter', 'Run the trajectory to the selected node'],
  ])
    await expect(panel.getByTestId('key-row').filter({ hasText: key }).filter({ hasText: does })).not.toHaveCount(0);
  // What the panel says is what the keys do: Alt+[ steps back in the trajectory.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await press(page, 'F11', 1);
  await page.keyboard.press('Alt+BracketLeft');
  await expect(page.getByTestId('history-pos')).toHaveText('0/1');
  await page.keyboard.press('?');
  await expect(panel).toBeVisible();
  await page.keyboard.press('?');
  await expect(panel).toHaveCount(0);
  // Typed into a text field, ? is text.
  await page.getByTestId('search-name').fill('');
  await page.getByTestId('search-name').press('?');
  await expect(panel).toHaveCount(0);
  // The dashboard's panel has no debugger keys.
  await page.getByTestId('view-dashboard').click();
  await page.locator('body').press('?');
  await expect(panel).toHaveAttribute('data-view', 'dashboard');
  await expect(panel.getByTestId('key-row').filter({ hasText: 'F11' })).toHaveCount(0);
  await expect(panel.getByTestId('key-row').filter({ hasText: 'Alt+→' })).toHaveCount(1);
});
