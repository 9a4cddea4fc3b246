// The corpus browser, the trees' interactions and the renderer's isolation.
import { expect, test } from '@playwright/test';
import { filterByName, openTrace, press, skeleton, traceId, truth } from './helpers.js';

test('corpus browser: totals, search by name, code and value, exit filter, sort', async ({ page, request }) => {
  await page.goto('./');
  const all = await truth(request, 'listTraces', {});
  await expect(page.getByTestId('corpus-total')).toHaveText(`${all.total} traces`);

  await page.getByTestId('search-name').fill('sample_1');
  const byName = await truth(request, 'listTraces', { name: 'sample_1' });
  await expect(page.getByTestId('corpus-total')).toHaveText(`${byName.total} traces`);
  for (const n of await page.getByTestId('trace-row').locator('.name').allInnerTexts()) expect(n).toContain('sample_1');
  await page.getByTestId('search-name').fill('');

  await page.getByTestId('search-code').fill('raise ValueError');
  const byCode = await truth(request, 'listTraces', { code: 'raise ValueError' });
  expect(byCode.rows.map((r) => r.name)).toContain('calls.py');
  await expect(page.getByTestId('trace-row').locator('.name')).toHaveText(byCode.rows.map((r) => r.name));
  await page.getByTestId('search-code').fill('');

  // A value that only the html fixture's locals hold.
  await page.getByTestId('search-value').fill('onerror');
  await expect(page.getByTestId('trace-row').locator('.name')).toHaveText(['html_value.py']);
  await page.getByTestId('search-value').fill('');

  await page.getByTestId('filter-exit').selectOption('never');
  const never = await truth(request, 'listTraces', { exit: 'never' });
  await expect(page.getByTestId('corpus-total')).toHaveText(`${never.total} traces`);
  await page.getByTestId('filter-exit').selectOption('');

  await page.getByTestId('sort').selectOption('events');
  await page.getByRole('button', { name: 'Reverse the order' }).click();
  const longest = await truth(request, 'listTraces', { sort: 'events', desc: true, limit: 1 });
  await expect(page.getByTestId('trace-row').first().locator('.name')).toHaveText(longest.rows[0].name);
});

test('trees: selecting a state shows it and highlights its twins; collapse and expand a call', async ({
  page,
  request,
}) => {
  const id = await traceId(request, 'calls.py');
  const skel = await skeleton(request, id);
  await page.goto('./');
  await openTrace(page, 'calls.py');
  const fwd = page.getByTestId('forward-tree');
  const inv = page.getByTestId('inverse-tree');
  // Every event is a node of the forward tree; the inverse tree doubles those with children.
  await page.getByTestId('forward-fit').click();
  await page.getByTestId('inverse-fit').click();
  await expect(fwd.locator('[data-seq]')).toHaveCount(skel.count);
  const withKids = new Set(skel.parent.filter((p) => p >= 0)).size;
  await expect(inv.locator('[data-seq]')).toHaveCount(skel.count + withKids);

  // A calling line: its forward node, and in the inverse tree its plain copy and its inv_line_call.
  const caller = skel.parent.find((p) => p > 0)!;
  await fwd.locator(`[data-seq="${caller}"]`).click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(caller));
  await expect(inv.locator(`.twin[data-seq="${caller}"]`)).toHaveCount(2);
  await expect(inv.locator(`.twin[data-seq="${caller}"][data-event="inv_line_call"]`)).toHaveCount(1);

  const descendants = skel.parent.filter((p) => p === caller).length;
  const before = await fwd.locator('[data-seq]').count();
  await page.getByTestId('forward-toggle').click();
  await expect(fwd.locator('[data-seq]')).toHaveCount(before - descendants_deep(skel, caller));
  await page.getByTestId('forward-toggle').click();
  await expect(fwd.locator('[data-seq]')).toHaveCount(before);
  expect(descendants).toBeGreaterThan(0);

  // Hover shows a tooltip naming the state.
  await fwd.locator(`[data-seq="${caller}"]`).hover();
  await expect(fwd.locator('.tip')).toContainText(`#${caller}`);
});

function descendants_deep(skel: { parent: number[] }, root: number): number {
  let n = 0;
  const inside = new Set([root]);
  for (let s = root + 1; s < skel.parent.length; s++)
    if (inside.has(skel.parent[s])) {
      inside.add(s);
      n++;
    }
  return n;
}

test('two traces opened quickly: the one clicked last is shown, however the answers arrive', async ({
  page,
  request,
}) => {
  const slow = await traceId(request, 'calls.py');
  const fast = await traceId(request, 'sample_0');
  // Hold the first trace's skeleton back until the second trace has been opened.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/getSkeleton', async (route) => {
    if (route.request().postDataJSON().traceId === slow) await held;
    await route.continue();
  });
  await page.goto('./');
  await page.locator(`[data-testid="trace-row"][data-trace-id="${slow}"]`).click();
  await filterByName(page, 'sample_0');
  await page.locator(`[data-testid="trace-row"][data-trace-id="${fast}"]`).click();
  await expect(page.getByTestId('code-view')).toContainText('sample_0');
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/getSkeleton'));
  release();
  await answered;
  await expect(
    page.getByTestId('trace-row').filter({ has: page.locator('.name', { hasText: /^sample_0$/ }) }),
  ).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('code-view')).toContainText('sample_0');
  await expect(page.getByTestId('code-view')).not.toContainText('calls.py');
});

test('the renderer cannot reach Node, and a value holding HTML shows as text', async ({ page, request }) => {
  await page.goto('./');
  const reach = await page.evaluate(() => ({
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
    module: typeof (window as unknown as { module?: unknown }).module,
  }));
  expect(reach).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined' });

  const id = await traceId(request, 'html_value.py');
  const info = await truth(request, 'getTrace', { id });
  await openTrace(page, 'html_value.py');
  const ret = info.header.context_forward.split('\n').find((l) => l.includes('return name'))!;
  await page
    .getByTestId('bp-line')
    .selectOption({ label: `${info.header.context_forward.split('\n').indexOf(ret) + 1}: ${ret.trim().slice(0, 40)}` });
  await page.getByTestId('act-breakpoint').click();
  await expect(page.getByTestId('history-pos')).toHaveText('1/1');
  const html = page.getByTestId('inspector').locator('[data-testid="local"][data-name="html"]');
  await expect(html.getByTestId('value')).toHaveText(`'<img src=x onerror="window.__pwned = 1">'`);
  await expect(page.getByTestId('inspector').locator('img, script')).toHaveCount(0);
  await press(page, 'F10', 2);
  await expect(page.getByTestId('inspector-arg')).toContainText('<script>');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('body img, body script:not([src])')).toHaveCount(0);
});

test('API: bad params are refused with a message naming the field', async ({ request }) => {
  const r = await request.post('api/getEvents', {
    data: { traceId: 'x', from: 0, to: 1 },
    headers: { 'Content-Type': 'application/json' },
  });
  const body = await r.json();
  expect(body.ok).toBe(false);
  expect(body.error.message).toContain('getEvents.traceId');
  const unknown = await (
    await request.post('api/dropTables', { data: {}, headers: { 'Content-Type': 'application/json' } })
  ).json();
  expect(unknown.error.message).toContain('unknown API method');
  const page = await request.get('./');
  expect(page.headers()['content-security-policy']).toContain("script-src 'self'");
});
