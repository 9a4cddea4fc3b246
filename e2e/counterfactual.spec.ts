// Counterfactuals in the explorer (docs/explorer.md, "Counterfactuals"): "Edit value…" at a
// state of a demo trace records the program again with the local set, the new run's tree opens
// beside the original's with the first difference ringed where the API says, the inspector
// lists what changed, "Ask the model" is scored against the new run, and a refused edit shows
// the API's message and stores nothing.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModelServer } from '../scripts/fake-model-server.mjs';
import { openTrace, press, truth } from './helpers.js';

const shots = process.env.STEPSCOPE_SHOTS ?? join(tmpdir(), 'stepscope-e2e-shots');
mkdirSync(shots, { recursive: true });

/** The demo trace of fib(5) and the first `line` state of its first call (n = 5). */
async function fib(request: Parameters<typeof truth>[0]) {
  const { rows } = await truth(request, 'listTraces', { name: 'fib', limit: 50 });
  const row = rows.find((r) => r.name.startsWith('fibonacci') && !r.counterfactual_of);
  if (!row) throw new Error(`no fibonacci demo trace: ${rows.map((r) => r.name).join(', ')}`);
  const events = await truth(request, 'getEvents', { traceId: row.id, from: 0, to: row.events });
  const at = events.find((e) => e.event === 'line' && e.locals.n === '5')!;
  return { id: row.id, name: row.name, at, events };
}

async function traceCount(request: Parameters<typeof truth>[0]): Promise<number> {
  return (await truth(request, 'listTraces', { limit: 1 })).total;
}

/** Selects a state in the (counterfactual's own) forward tree. */
async function selectState(page: Page, seq: number) {
  await page.getByTestId('forward-tree').locator(`[data-seq="${seq}"][data-event="line"]`).click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(seq));
}

test('edit a local: the new run beside the original, the first difference marked, asked against the new truth', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const origin = await fib(request);
  await page.goto('./');
  await openTrace(page, origin.name);
  await selectState(page, origin.at.seq);
  // The form: the state's local, its current value prefilled.
  await page.getByTestId('edit-value').click();
  await expect(page.getByTestId('cf-name')).toHaveValue('n');
  await expect(page.getByTestId('cf-value')).toHaveValue('5');
  await expect(page.getByTestId('cf-value')).toBeFocused();
  await page.getByTestId('cf-value').fill('3');
  await page.screenshot({ path: join(shots, 'counterfactual-form.png') });
  await page.getByTestId('cf-run').click();

  const bar = page.getByTestId('cf-bar');
  // A whole recording: slow on a loaded machine.
  await expect(bar).toBeVisible({ timeout: 30_000 });
  await expect(bar).toHaveAttribute('data-origin', String(origin.id));
  const cfId = Number(await bar.getAttribute('data-trace'));
  expect(cfId).not.toBe(origin.id);
  const link = (await truth(request, 'getCounterfactual', { traceId: cfId }))!;
  expect(link).toMatchObject({ origin: origin.id, seq: origin.at.seq, set: { n: '3' } });
  expect(link.first_difference).toBe(origin.at.seq);
  await expect(page.getByTestId('cf-edit')).toHaveText('n = 3');
  // It opens at the edited state, not at #0: the trajectory walked there (the current node), the
  // inspector on it, and the first difference (here the edited state itself) on screen.
  const edited = String(origin.at.seq);
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', edited);
  const current = page.getByTestId('forward-tree').locator('[data-current="true"]');
  await expect(current).toHaveAttribute('data-seq', edited);
  await expect(page.getByTestId('forward-tree').locator('[data-cf~="first"]')).toBeInViewport();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, 'counterfactual-opened.png') });

  // The new tree is the counterfactual's (fib(3) has fewer states), the original's beside it.
  const cfEvents = await truth(request, 'getEvents', { traceId: cfId, from: 0, to: 5000 });
  expect(cfEvents.length).toBeLessThan(origin.events.length);
  const fwd = page.getByTestId('forward-tree');
  const orig = page.getByTestId('origin-tree');
  await expect(fwd.locator('header')).toContainText(`Edited #${cfId}`);
  await expect(orig.locator('header')).toContainText(`Original #${origin.id}`);
  await expect(fwd.locator('[data-seq]').last()).toBeVisible();
  // Same rows up to the edit: the states before it are drawn in both trees at the same place.
  for (let s = 0; s < link.first_difference!; s++) {
    const a = await fwd.locator(`[data-seq="${s}"][data-event="${cfEvents[s].event}"]`).getAttribute('transform');
    const b = await orig.locator(`[data-seq="${s}"][data-event="${origin.events[s].event}"]`).getAttribute('transform');
    expect(a).toBe(b);
  }
  // The first difference ringed in both trees, at the state the API says.
  for (const tree of [fwd, orig]) {
    await expect(tree.locator('[data-cf~="first"]')).toHaveCount(1);
    await expect(tree.locator('[data-cf~="first"]')).toHaveAttribute('data-seq', String(link.first_difference));
  }
  // The inspector at the edited state: n was 5 in the original, is 3 here.
  await selectState(page, link.first_difference!);
  const change = page.getByTestId('cf-change').filter({ has: page.locator('.what', { hasText: /^n$/ }) });
  await expect(change).toHaveAttribute('data-name', 'n');
  await expect(change.locator('.was')).toHaveText('5');
  await expect(change.locator('.now')).toHaveText('3');
  // The origin's tree follows the selection.
  await expect(orig.locator('.selected')).toHaveAttribute('data-seq', String(link.first_difference));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, 'counterfactual-side-by-side.png') });
  // The new run's last state (main returns fib(3)) against the original's state at that seq.
  const last = cfEvents[cfEvents.length - 1];
  // It is the tree's last row (rows are in time order): ↓ from the selected state gets there.
  const inspector = page.getByTestId('inspector');
  await page.getByTestId('forward-svg').focus();
  for (let k = 0; k < 60 && (await inspector.getAttribute('data-seq')) !== String(last.seq); k++)
    await page.keyboard.press('ArrowDown');
  await expect(inspector).toHaveAttribute('data-seq', String(last.seq));
  await expect(page.getByTestId('cf-change').filter({ hasText: 'line' }).first()).toBeVisible();
  await expect(page.getByTestId('cf-change').filter({ has: page.locator('.now', { hasText: /^2$/ }) })).toHaveAttribute(
    'data-what',
    'return',
  );
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, 'counterfactual-changes.png') });

  // Stepping keys work in the counterfactual as in any trace; it opened three steps into, at the edit.
  await expect(page.getByTestId('history-pos')).toHaveText(/^3\//);
  await press(page, 'F11', 4);
  await press(page, 'F10', 5);
  await expect(page.getByTestId('forward-tree').locator('[data-current="true"]')).toHaveCount(1);

  // Ask the model here: the prompt is the counterfactual's trajectory, the verdict its truth.
  // main() calls fib(5): three steps into reach the edited state, a step over its return line,
  // and the question is the next step over: fib's return value (fib(3) = 2 here, fib(5) = 5 before).
  const actions = ['step_into', 'step_into', 'step_into', 'step_over', 'step_over'];
  const at = { direction: 'forward' as const, entry: 0, actions };
  const cfCut = await truth(request, 'checkCompletions', { ...at, traceId: cfId, completions: [] });
  const oldCut = await truth(request, 'checkCompletions', { ...at, traceId: origin.id, completions: [] });
  expect(cfCut.prompt).not.toBe(oldCut.prompt);
  expect(cfCut.target).not.toBe(oldCut.target);
  // Draw 1 answers what the original run did next (a model that memorised it), draw 2 the new truth.
  const fake = await startFakeModelServer({
    answers: { [cfCut.prompt]: [oldCut.target, cfCut.target] },
    port: Number(process.env.STEPSCOPE_E2E_MODEL_PORT),
  });
  try {
    // From the start again (the walk the explorer opened with may have other actions than these).
    for (let pos = 4; pos >= 0; pos--) await press(page, 'Alt+BracketLeft', pos);
    for (let pos = 1; pos <= 3; pos++) await press(page, 'F11', pos);
    await expect(page.getByTestId('forward-tree').locator('[data-current="true"]')).toHaveAttribute(
      'data-seq',
      String(origin.at.seq),
    );
    await press(page, 'F10', 4);
    await page.getByTestId('check-model-open').click();
    await page.getByTestId('check-action').selectOption('step_over');
    await page.getByTestId('model-settings-open').click();
    await page.getByTestId('set-endpoint').fill(fake.url);
    await page.getByTestId('set-model').fill('debugger');
    await page.getByTestId('set-samples').fill('2');
    await page.getByTestId('save-settings').click();
    await page.getByTestId('ask-model').click();
    await expect(page.getByTestId('sample')).toHaveCount(2);
    await expect(page.getByTestId('sample').nth(0)).toHaveAttribute('data-verdict', 'fail');
    await expect(page.getByTestId('sample').nth(1)).toHaveAttribute('data-verdict', 'pass');
    expect(fake.requests.map((q) => q.body.prompt)).toContain(cfCut.prompt);
    expect(fake.requests.map((q) => q.body.prompt)).not.toContain(oldCut.prompt);
  } finally {
    await fake.close();
  }

  // Back to the original: no counterfactual bar, its own tree.
  await page.getByTestId('cf-back').click();
  await expect(bar).toHaveCount(0);
  await expect(page.getByTestId('origin-tree')).toHaveCount(0);
  await expect(page.getByTestId('inverse-tree')).toBeVisible();

  // Opened from the corpus list, the counterfactual shows its link again.
  const cfRow = page.getByTestId('trace-row').filter({ has: page.getByTestId('cf-of') });
  await expect(cfRow.getByTestId('cf-of')).toHaveText(`cf of #${origin.id}`);
  await cfRow.click();
  await expect(bar).toHaveAttribute('data-trace', String(cfId));
  await expect(page.getByTestId('forward-tree').locator('[data-cf~="first"]')).toHaveAttribute(
    'data-seq',
    String(link.first_difference),
  );
});

test('a bad literal shows the API message in the form, and nothing is stored', async ({ page, request }) => {
  const origin = await fib(request);
  const before = await traceCount(request);
  // The API's own words for this refusal (a refused request stores nothing).
  const r = await request.post('api/recordCounterfactual', {
    data: { traceId: origin.id, seq: origin.at.seq, set: { n: 'list()' } },
  });
  const body = await r.json();
  expect(body.ok).toBe(false);
  const message: string = body.error.message;

  await page.goto('./');
  await openTrace(page, origin.name);
  await selectState(page, origin.at.seq);
  await page.keyboard.press('F2');
  await expect(page.getByTestId('cf-form')).toBeVisible();
  await page.getByTestId('cf-value').fill('list()');
  await page.getByTestId('cf-value').press('Enter');
  await expect(page.getByTestId('cf-error')).toHaveText(message);
  expect(message).toContain('not a Python literal');
  // Nothing else changed: the same trace, no counterfactual, the form still there to fix.
  await expect(page.getByTestId('cf-bar')).toHaveCount(0);
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(origin.at.seq));
  await expect(page.getByTestId('cf-value')).toHaveValue('list()');
  expect(await traceCount(request)).toBe(before);
  // Esc closes the form.
  await page.getByTestId('cf-value').press('Escape');
  await expect(page.getByTestId('cf-form')).toHaveCount(0);
});
