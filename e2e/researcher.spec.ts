// What researchers expect of the explorer (issue 10): rows that say what each state is, the
// call stack, expandable values, VS Code breakpoints, jumps to any node, scrolling, the
// serialized text, history, search, keyboard, resizing. Truths come from the API.
import { expect, test, type Page } from '@playwright/test';
import { currentNode, openTrace, press, traceId, truth } from './helpers.js';

const last = <T>(a: T[]) => a[a.length - 1];
async function allEvents(request: Parameters<typeof truth>[0], id: number) {
  const info = await truth(request, 'getTrace', { id });
  const out = [];
  for (let from = 0; from < info.end.events; from += 5000)
    out.push(...(await truth(request, 'getEvents', { traceId: id, from, to: Math.min(info.end.events, from + 5000) })));
  return out;
}
/** Clicks a tree node's dot, scrolling the tree with the wheel until the dot is inside the pane (which clips it). */
async function clickNode(page: Page, which: string, seq: number) {
  const dot = page.getByTestId(`${which}-tree`).locator(`[data-seq="${seq}"] > circle`).first();
  const svg = page.getByTestId(`${which}-svg`);
  await svg.hover();
  for (let n = 0; n < 50; n++) {
    const [b, p] = [await dot.boundingBox({ timeout: 2000 }).catch(() => null), await svg.boundingBox()];
    if (b && p && b.y >= p.y && b.y + b.height <= p.y + p.height && b.x >= p.x && b.x + b.width <= p.x + p.width) break;
    await page.mouse.wheel(0, b && p && b.y < p.y ? -100 : 100);
  }
  await dot.click();
  // The inspector's buttons act on the state it shows: wait until that is the one clicked.
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(seq));
}
const transformOf = (page: Page, which: string) =>
  page
    .getByTestId(`${which}-svg`)
    .locator(':scope > g')
    .evaluate((g) => {
      const m = (g as SVGGElement).transform.baseVal.consolidate()!.matrix;
      return { x: m.e, y: m.f, k: m.a };
    });

test('tree rows name the state: calls with arguments, <module>, return values; a legend; the call stack', async ({
  page,
  request,
}) => {
  const id = await traceId(request, 'calls.py');
  const ev = await allEvents(request, id);
  await page.goto('./');
  await openTrace(page, 'calls.py');
  const fwd = page.getByTestId('forward-tree');
  await expect(fwd.locator('[data-seq="0"] text')).toHaveText('call <module>');
  const call = ev.find((e) => e.event === 'call' && e.func === 'square')!;
  const args = Object.entries(call.locals)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  await expect(fwd.locator(`[data-seq="${call.seq}"] text`)).toHaveText(`call square(${args})`);
  const ret = ev.find((e) => e.event === 'return' && e.func === 'square')!;
  await expect(fwd.locator(`[data-seq="${ret.seq}"] text`)).toHaveText(`return ${ret.arg}`);
  await expect(fwd.getByTestId('legend')).toContainText('call');
  await expect(fwd.getByTestId('legend')).toContainText('exception');

  // The call stack of a state inside square: square, then each calling line up to the module.
  await fwd.locator(`[data-seq="${ret.seq}"]`).click();
  const chain: number[] = [];
  for (let s: number | null = ret.seq; s !== null; s = ev[s].parent) chain.push(s);
  const frames = page.getByTestId('call-stack').getByTestId('frame');
  await expect(frames).toHaveText(chain.map((s) => `${ev[s].func}:${ev[s].line}`));
  await frames.nth(1).click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(chain[1]));
  // "As the model sees it" for a return state: its value, as json.dumps writes the repr.
  await fwd.locator(`[data-seq="${ret.seq}"]`).click();
  await expect(page.getByTestId('inspector-delta')).toHaveText(JSON.stringify(ret.arg));
  // A list opens into its items.
  const withList = ev.find((e) => e.event === 'call' && e.func === 'total')!;
  await fwd.locator(`[data-seq="${withList.seq}"]`).click();
  const xs = page.getByTestId('inspector').locator('[data-testid="local"][data-name="xs"]');
  await xs.getByTestId('expand-value').click();
  await expect(xs.getByTestId('field')).toHaveCount((JSON.parse(withList.locals.xs) as unknown[]).length);
});

test('gutter breakpoints: red dots set and cleared, F5 runs to the next one, then to the exit', async ({
  page,
  request,
}) => {
  const id = await traceId(request, 'calls.py');
  const lines = (await truth(request, 'getTrace', { id })).header.context_forward.split('\n');
  const a = lines.indexOf('    y = x * x') + 1;
  const b = lines.indexOf('        acc += 1') + 1;
  await page.goto('./');
  await openTrace(page, 'calls.py');
  const nums = await page.getByTestId('code-view').locator('.cm-lineNumbers .cm-gutterElement').allInnerTexts();
  const gutter = (n: number) =>
    page
      .getByTestId('code-view')
      .locator('.cm-bp-gutter .cm-gutterElement')
      .nth(nums.indexOf(String(n)));
  await gutter(b).click();
  await gutter(a).click();
  await expect(page.getByTestId('code-view').getByTestId('bp-dot')).toHaveCount(2);
  // F5 stops wherever the earlier of the two is reached, as the walk says.
  const actions: string[] = [];
  for (let k = 1; ; k++) {
    const cands = await Promise.all(
      [a, b].map((n) =>
        truth(request, 'walk', {
          traceId: id,
          direction: 'forward',
          actions: [...actions, `breakpoint ${lines[n - 1]}`],
        }),
      ),
    );
    const hits = cands
      .map((w, j) => ({ w, n: [a, b][j] }))
      .filter((c) => c.w.exit === null)
      .sort((x, y) => last(x.w.states).seq - last(y.w.states).seq);
    await page.keyboard.press('F5');
    if (!hits.length) {
      await expect(page.getByTestId('exit')).toHaveText('exit_normal');
      await expect(page.getByTestId('message')).toContainText('No breakpoint is reached');
      break;
    }
    actions.push(`breakpoint ${lines[hits[0].n - 1]}`);
    await expect(page.getByTestId('history-pos')).toHaveText(`${k}/${k}`);
    await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(last(hits[0].w.states).seq));
  }
  expect(actions.length).toBeGreaterThan(3);
  await gutter(a).click();
  await expect(page.getByTestId('code-view').getByTestId('bp-dot')).toHaveCount(1);
});

test('run to here, entry here and an inverse trajectory from any state', async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  const ev = await allEvents(request, id);
  await page.goto('./');
  await openTrace(page, 'calls.py');
  const target = ev.filter((e) => e.event === 'return' && e.func === 'square')[1];
  await clickNode(page, 'forward', target.seq);
  await page.getByTestId('run-here').click();
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(target.seq));
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-event', 'return');

  // Inverse from a line inside total: the entry is total's call, the current state that line.
  const line = ev.find((e) => e.event === 'line' && e.func === 'total' && e.src.includes('try:'))!;
  const call = [...ev].reverse().find((e) => e.seq <= line.seq && e.frame === line.frame && e.event === 'call')!;
  // (found with the search box: rows off screen are not drawn)
  await page.getByTestId('trace-search').fill(line.src);
  await page.getByTestId('trace-search').press('Enter');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(line.seq));
  await page.getByTestId('inverse-here').click();
  await expect(page.getByTestId('restart-inverse')).toHaveClass(/active/);
  await expect(page.getByTestId('entry')).toHaveText(`entry #${call.seq}`);
  await expect(currentNode(page, 'inverse')).toHaveAttribute('data-seq', String(line.seq));
  await expect(currentNode(page, 'inverse')).toHaveAttribute('data-event', 'inv_line');
  // The walk of those actions, asked of the API, ends there too.
  await page.getByTestId('tab-history').click();
  const acts = (await page.getByTestId('history-item').allInnerTexts())
    .slice(1)
    .map((t) => t.replace(/^\s*\d+\s+/, '').trim());
  const w = await truth(request, 'walk', { traceId: id, direction: 'inverse', entry: call.seq, actions: acts });
  expect(last(w.states)).toEqual({ seq: line.seq, event: 'inv_line' });
  // Entry here on any state: its segment's call.
  await clickNode(page, 'forward', target.seq);
  await page.getByTestId('set-entry').click();
  const sq = [...ev].reverse().find((e) => e.seq <= target.seq && e.frame === target.frame && e.event === 'call')!;
  await expect(page.getByTestId('entry')).toHaveText(`entry #${sq.seq}`);
});

test('the wheel scrolls a tree, Ctrl+wheel zooms; selecting a node brings its twin into view', async ({
  page,
  request,
}) => {
  await traceId(request, 'long_loop.py');
  await page.goto('./');
  await openTrace(page, 'long_loop.py');
  await page.getByTestId('forward-svg').hover();
  const t0 = await transformOf(page, 'forward');
  await page.mouse.wheel(0, 300);
  await expect.poll(() => transformOf(page, 'forward')).toEqual({ x: t0.x, y: t0.y - 300, k: t0.k });
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await expect.poll(async () => (await transformOf(page, 'forward')).k).toBeGreaterThan(t0.k);
  // A state far down (inside the folded loop), selected by a search: it is drawn and scrolled
  // into view in the forward tree, and its twin in the inverse tree.
  const id = await traceId(request, 'long_loop.py');
  const ev = await allEvents(request, id);
  const far = ev.find((e) => e.event === 'line' && e.src.includes('total += note(i)'))!;
  expect(far.seq).toBeGreaterThan(1000);
  await page.getByTestId('trace-search').fill('total += note(i)');
  await page.getByTestId('trace-search').press('Enter');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(far.seq));
  await expect(page.getByTestId('forward-tree').locator(`.selected[data-seq="${far.seq}"]`)).toBeInViewport();
  await expect(
    page.getByTestId('inverse-tree').locator(`.twin[data-seq="${far.seq}"][data-event="inv_line"]`),
  ).toBeInViewport();
});

test('serialized text: special tokens marked, lengths, prompt/target at the selected state, copy', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const id = await traceId(request, 'calls.py');
  await page.goto('./');
  await openTrace(page, 'calls.py');
  for (let k = 1; k <= 4; k++) await press(page, 'F11', k);
  const w = await truth(request, 'walk', { traceId: id, direction: 'forward', actions: Array(4).fill('step_into') });
  const tokens = w.text.match(/<\|[a-z_]+\|>/g)!;
  const panel = page.getByTestId('trajectory-panel');
  await expect(panel.locator('.tok')).toHaveCount(tokens.length);
  await expect(panel.getByTestId('text-length')).toContainText(
    `${w.text.length.toLocaleString('en-US')} chars · ${tokens.length} special tokens`,
  );
  await expect(panel.getByTestId('text-length')).toContainText(
    `${(w.text.length - tokens.join('').length + tokens.length).toLocaleString('en-US')} counting each as 1`,
  );
  // The current state is the target; the prompt ends with the frame token before it (§6).
  const target = panel.locator('.target');
  const targetText = (await target.allTextContents()).join('');
  const promptText = (await panel.locator('.prompt').allTextContents()).join('');
  expect(w.text.startsWith(promptText + targetText)).toBe(true);
  expect(promptText.endsWith('<|frame_sep|>')).toBe(true);
  await panel.getByTestId('copy-text').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(w.text);
  await panel.getByTestId('copy-target').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(targetText);
  // The history is a list: clicking an action moves there.
  await panel.getByTestId('tab-history').click();
  await panel.locator('[data-testid="history-item"][data-k="2"]').click();
  await expect(page.getByTestId('history-pos')).toHaveText('2/4');
});

test('search within a trace jumps to each matching state in turn', async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  const ev = await allEvents(request, id);
  const hits = ev.filter(
    (e) =>
      e.src.includes('negative') ||
      (e.arg ?? '').includes('negative') ||
      Object.values(e.locals).some((v) => v.includes('negative')),
  );
  expect(hits.length).toBeGreaterThan(1);
  await page.goto('./');
  await openTrace(page, 'calls.py');
  await page.getByTestId('trace-search').fill('negative');
  for (const [j, h] of hits.entries()) {
    await page.getByTestId('trace-search').press('Enter');
    await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(h.seq));
    await expect(page.getByTestId('trace-search-count')).toHaveText(`${j + 1}/${hits.length}`);
  }
});

test('keyboard: the corpus list and the trees; panes resize; a message moves nothing', async ({ page, request }) => {
  const { rows } = await truth(request, 'listTraces', { limit: 3 });
  await page.goto('./');
  // As a user would: the keys go to the list once its rows are shown.
  await expect(page.getByTestId('trace-row').first()).toBeVisible();
  await page.getByTestId('trace-list').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('code-view')).toContainText(rows[0].name);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('code-view')).toContainText(rows[1].name);
  await openTrace(page, 'calls.py');
  // Trees: Down selects the next row after the current (root) state. The trees are drawn before
  // the trace's first walk lands, and when it lands it selects the current state, undoing a
  // selection made before it. So, as a user would, wait until the trace is open (the inspector
  // shows the current state) and the tree is drawn, and focused.
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', '0');
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', '0');
  await page.getByTestId('forward-svg').focus();
  await expect(page.getByTestId('forward-svg')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', '1');
  await page.keyboard.press('Enter');
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', '1');

  // Drag the splitter right of the corpus list by 80 px.
  const side = page.locator('aside.side');
  const w0 = (await side.boundingBox())!.width;
  const split = page.getByTestId('splitter').first();
  const s = (await split.boundingBox())!;
  await page.mouse.move(s.x + 3, s.y + 100);
  await page.mouse.down();
  await page.mouse.move(s.x + 83, s.y + 100, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await side.boundingBox())!.width - w0)).toBe(80);

  // A message appears: the panes below do not move.
  const code0 = await page.getByTestId('code-view').boundingBox();
  await page.getByTestId('restart-inverse').click();
  await press(page, 'Alt+F11', 1);
  await page.keyboard.press('F11');
  await expect(page.getByTestId('message')).toBeVisible();
  expect(await page.getByTestId('code-view').boundingBox()).toEqual(code0);
});
