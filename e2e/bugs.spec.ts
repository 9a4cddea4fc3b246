// Regression tests of the explorer's second pass (issue 10, "Bugs"), each checked against the
// API's truth. Numbers refer to the list.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { currentNode, openTrace, press, skeleton, traceId, truth } from './helpers.js';

const last = <T>(a: T[]) => a[a.length - 1];
/**
 * Not run again in the `graph` project (its grepInvert, e2e/playwright.config.ts): a test about
 * the indented rows only, or one that never looks at a tree (the code view, its gutter, the
 * messages), whose keys and clicks the graph project's stepping specs and 1 and 7 here cover.
 */
const ROWS_ONLY = { tag: '@rows-only' };
const lineNumber = (page: Page, n: number) =>
  page.getByTestId('code-view').locator('.cm-lineNumbers .cm-gutterElement', { hasText: new RegExp(`^${n}$`) });
/** The breakpoint gutter's element on line n (the gutters' elements line up row by row). */
async function bpGutter(page: Page, n: number): Promise<Locator> {
  const nums = page.getByTestId('code-view').locator('.cm-lineNumbers .cm-gutterElement');
  const texts = await nums.allInnerTexts();
  return page
    .getByTestId('code-view')
    .locator('.cm-bp-gutter .cm-gutterElement')
    .nth(texts.indexOf(String(n)));
}

test('1: stepping into a collapsed call expands the path to the current node', async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  const skel = await skeleton(request, id);
  const caller = skel.parent.find((p) => p > 0)!;
  await page.goto('./');
  await openTrace(page, 'calls.py');
  // step_into visits the forward tree in pre-order, which is time order: k presses reach seq k.
  for (let k = 1; k <= caller; k++) await press(page, 'F11', k);
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(caller));
  const fwd = page.getByTestId('forward-tree');
  await fwd.locator(`[data-seq="${caller}"]`).click();
  await page.getByTestId('forward-toggle').click();
  await expect(fwd.locator(`[data-seq="${caller + 1}"]`)).toHaveCount(0);
  await press(page, 'F11', caller + 1);
  const w = await truth(request, 'walk', {
    traceId: id,
    direction: 'forward',
    actions: Array(caller + 1).fill('step_into'),
  });
  expect(skel.parent[last(w.states).seq]).toBe(caller);
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(last(w.states).seq));
  await expect(currentNode(page, 'forward')).toBeInViewport();
});

// Its set-up scrolls rows vertically; the graph shape has its own check (graph.spec.ts).
test('2: opening a loop fold keeps the opened rows where the fold was', ROWS_ONLY, async ({ page, request }) => {
  await traceId(request, 'long_loop.py');
  await page.goto('./');
  await openTrace(page, 'long_loop.py');
  const fwd = page.getByTestId('forward-tree');
  const fold = fwd.getByTestId('fold');
  // Scroll (the wheel scrolls) until the fold is near the top and the root, the current node, is out of view.
  await page.getByTestId('forward-svg').hover();
  const svgBox = (await page.getByTestId('forward-svg').boundingBox())!;
  for (let i = 0; i < 30 && (await fold.boundingBox())!.y > svgBox.y + 60; i++) await page.mouse.wheel(0, 60);
  await expect(currentNode(page, 'forward')).not.toBeInViewport();
  const before = (await fold.boundingBox())!;
  await fold.click();
  const refold = fwd.getByTestId('refold');
  await expect(refold).toHaveCount(1);
  const after = (await refold.boundingBox())!;
  expect(Math.abs(after.y - before.y)).toBeLessThan(2);
  await expect(currentNode(page, 'forward')).not.toBeInViewport();
});

test(
  '3: a breakpoint that stops on another line with the same text says so and marks both',
  ROWS_ONLY,
  async ({ page, request }) => {
    const id = await traceId(request, 'repeated_lines.py');
    const lines = (await truth(request, 'getTrace', { id })).header.context_forward.split('\n');
    const a = lines.indexOf('    y = x + 1') + 1;
    const b = lines.lastIndexOf('    y = x + 1') + 1;
    expect(b).toBeGreaterThan(a);
    await page.goto('./');
    await openTrace(page, 'repeated_lines.py');
    const bp = `breakpoint ${lines[a - 1]}`;
    await lineNumber(page, a).click();
    await expect(page.getByTestId('history-pos')).toHaveText('1/1');
    await expect(page.getByTestId('code-view')).toHaveAttribute('data-current-line', String(a));
    await expect(page.getByTestId('message')).toHaveCount(0);
    // Again: the next state with that text is on line b.
    await lineNumber(page, a).click();
    await expect(page.getByTestId('history-pos')).toHaveText('2/2');
    const w = await truth(request, 'walk', { traceId: id, direction: 'forward', actions: [bp, bp] });
    const [ev] = await truth(request, 'getEvents', {
      traceId: id,
      from: last(w.states).seq,
      to: last(w.states).seq + 1,
    });
    expect(ev.line).toBe(b);
    await expect(page.getByTestId('code-view')).toHaveAttribute('data-current-line', String(b));
    await expect(page.getByTestId('message')).toContainText(`Stopped at line ${b}, not ${a}`);
    await expect(page.getByTestId('message')).toContainText('same text');
    await expect(page.getByTestId('code-view').locator('.cm-line.cm-sametext')).toHaveCount(2);

    // Gutter breakpoints: a red dot where set, a hollow one on every other line with its text.
    await (await bpGutter(page, a)).click();
    await expect(page.getByTestId('code-view').getByTestId('bp-dot')).toHaveCount(1);
    await expect(page.getByTestId('code-view').getByTestId('bp-same')).toHaveCount(1);
  },
);

test(
  '4: lines that can never stop a breakpoint are not offered; one never reached says so',
  ROWS_ONLY,
  async ({ page, request }) => {
    // Call mode (CRUXEval): the def line never runs as a line event.
    const id = await traceId(request, 'sample_0');
    const info = await truth(request, 'getTrace', { id });
    const lines = info.header.context_forward.split('\n');
    const events = await truth(request, 'getEvents', { traceId: id, from: 0, to: info.end.events });
    const srcs = new Set(events.filter((e) => e.event === 'line').map((e) => e.src));
    const offered = lines.map((t, i) => ({ n: i + 1, t })).filter((l) => l.t.trim() && srcs.has(l.t));
    await page.goto('./');
    await openTrace(page, 'sample_0');
    const options = await page.getByTestId('bp-line').locator('option').allInnerTexts();
    expect(options).toEqual(offered.map((l) => `${l.n}: ${l.t.trim().slice(0, 40)}`));
    const def = lines.findIndex((t) => t.startsWith('def f(')) + 1;
    expect(def).toBeGreaterThan(0);
    expect(options.some((o) => o.includes('def '))).toBe(false);
    // Clicking the def line's number does nothing: the next key press is the first action.
    await lineNumber(page, def).click();
    await press(page, 'F11', 1);
    await expect(page.getByTestId('history-pos')).toHaveText('1/1');

    // A script: a blank line is not offered either; a line already passed is never reached.
    const cid = await traceId(request, 'calls.py');
    const clines = (await truth(request, 'getTrace', { id: cid })).header.context_forward.split('\n');
    await openTrace(page, 'calls.py');
    const blank = clines.findIndex((t, i) => i > 0 && t.trim() === '') + 1;
    await lineNumber(page, blank).click();
    await expect(
      page
        .getByTestId('code-view')
        .locator('.cm-lineNumbers .cm-gutterElement.cm-nohit', { hasText: new RegExp(`^${blank}$`) }),
    ).toHaveCount(1);
    const inside = clines.indexOf('    y = x * x') + 1;
    await lineNumber(page, inside).click();
    await expect(page.getByTestId('history-pos')).toHaveText('1/1');
    const print = clines.findIndex((t) => t.startsWith('print(')) + 1;
    const w = await truth(request, 'walk', {
      traceId: cid,
      direction: 'forward',
      actions: [`breakpoint ${clines[inside - 1]}`, `breakpoint ${clines[print - 1]}`],
    });
    expect(w.exit).not.toBeNull();
    await lineNumber(page, print).click();
    await expect(page.getByTestId('history-pos')).toHaveText('2/2');
    await expect(page.getByTestId('message')).toContainText(
      `Line ${print} (${clines[print - 1].trim()}) is not reached from here`,
    );
    await expect(page.getByTestId('exit')).toHaveText(w.exit!);
  },
);

test('6: messages do not outlive what they were about', ROWS_ONLY, async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  await page.goto('./');
  await openTrace(page, 'calls.py');
  await press(page, 'F5', 1);
  await expect(page.getByTestId('exit')).toBeVisible();
  await page.keyboard.press('F11');
  await expect(page.getByTestId('message')).toContainText('exited');
  await page.keyboard.press('Alt+BracketLeft');
  await expect(page.getByTestId('history-pos')).toHaveText('0/1');
  await expect(page.getByTestId('message')).toHaveCount(0);

  // An opened sampled trajectory is named while the history follows it, not after diverging.
  const list = await truth(request, 'listTrajectories', { traceId: id });
  const t = list.rows.find((r) => r.actions.length >= 3)!;
  await page.getByTestId('tab-saved').click();
  await page.locator(`[data-testid="trajectory-row"][data-trajectory-id="${t.id}"]`).click();
  await expect(page.getByTestId('trajectory-id')).toHaveText(`trajectory #${t.id}`);
  await page.getByTestId('forward').click();
  await expect(page.getByTestId('history-pos')).toHaveText(`1/${t.actions.length}`);
  const other =
    t.direction === 'forward'
      ? t.actions[1] === 'step_over'
        ? 'step_into'
        : 'step_over'
      : t.actions[1] === 'inv_step_over'
        ? 'inv_step_into'
        : 'inv_step_over';
  await page.getByTestId(`act-${other}`).click();
  await expect(page.getByTestId('history-pos')).toHaveText('2/2');
  await expect(page.getByTestId('trajectory-id')).toHaveCount(0);
});

test('7: debugger keys work after using a dropdown', async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  await page.goto('./');
  await openTrace(page, 'calls.py');
  const layout = page.getByTestId('tree-layout');
  await layout.focus();
  await layout.selectOption('forward');
  await layout.selectOption('both');
  await expect(layout).toBeFocused();
  await press(page, 'F11', 1);
  await page.getByTestId('bp-line').focus();
  await press(page, 'F10', 2);
  const w = await truth(request, 'walk', { traceId: id, direction: 'forward', actions: ['step_into', 'step_over'] });
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(last(w.states).seq));
  // Not in a text field: typing there stays typing.
  await page.getByTestId('trace-search').focus();
  await page.keyboard.press('F11');
  await expect(page.getByTestId('history-pos')).toHaveText('2/2');
});

/** Fully inside the viewport and its panel, and on top (not covered) at its centre. */
async function expectUsable(el: Locator, what: string) {
  await expect(el, what).toBeVisible();
  const ok = await el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const panel = node.closest('.panel')?.getBoundingClientRect() ?? r;
    const inside = (o: DOMRect) =>
      r.left >= o.left - 0.5 && r.right <= o.right + 0.5 && r.top >= o.top - 0.5 && r.bottom <= o.bottom + 0.5;
    const view = new DOMRect(0, 0, window.innerWidth, window.innerHeight);
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { view: inside(view), panel: inside(panel), top: !!top && (node === top || node.contains(top)) };
  });
  expect(ok, what).toEqual({ view: true, panel: true, top: true });
}

for (const [w, h] of [
  [1280, 720],
  [1920, 1080],
] as const) {
  // Row widths and the fold label's end are the indented layout's (the graph is wider than its pane).
  test(
    `8: at ${w}×${h} every button, the tree tooltip and the fold label fit`,
    ROWS_ONLY,
    async ({ page, request }) => {
      await traceId(request, 'long_loop.py');
      await page.setViewportSize({ width: w, height: h });
      await page.goto('./');
      await openTrace(page, 'calls.py');
      await press(page, 'F11', 1);
      for (const panel of ['controls', 'forward-tree', 'inverse-tree', 'inspector', 'trajectory-panel']) {
        const buttons = page.getByTestId(panel).locator('button:visible, select:visible, input:visible');
        const n = await buttons.count();
        expect(n, panel).toBeGreaterThan(0);
        for (let i = 0; i < n; i++)
          await expectUsable(buttons.nth(i), `${panel} control ${i}: ${await buttons.nth(i).textContent()}`);
      }
      // The tooltip of the widest row stays inside the tree.
      const tree = page.getByTestId('forward-tree');
      const canvas = (await tree.locator('.canvas').boundingBox())!;
      const rows = tree.locator('[data-seq]');
      for (let i = 0; i < Math.min(await rows.count(), 8); i++) {
        await rows.nth(i).locator('circle').hover();
        const tip = (await tree.locator('.tip').boundingBox())!;
        expect(tip.x + tip.width).toBeLessThanOrEqual(canvas.x + canvas.width + 0.5);
        expect(tip.y + tip.height).toBeLessThanOrEqual(canvas.y + canvas.height + 0.5);
      }
      await openTrace(page, 'long_loop.py');
      const label = page.getByTestId('forward-tree').getByTestId('fold').locator('text').last();
      const box = (await label.boundingBox())!;
      const c2 = (await page.getByTestId('forward-tree').locator('.canvas').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(c2.x + c2.width);
    },
  );
}
