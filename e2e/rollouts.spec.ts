// Rollouts in the explorer and the dashboard (docs/explorer.md and docs/dashboard.md, "Rollouts"): the e2e corpus's
// rollout set `ro` was rolled out by the fake model server with a wrong state at step 2 (right again after it), and
// its prefixes answered teacher-forced (e2e/make-corpus.mjs). Every number is read from getRollouts.
import { expect as base, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RolloutItem, RolloutRun } from '../src/contract/index.js';
import { truth } from './helpers.js';

const expect = base.configure({ timeout: 20_000 });
const shots = join(import.meta.dirname, 'screenshots');
test.describe.configure({ timeout: 180_000 });

async function theRun(request: Parameters<typeof truth>[0]): Promise<RolloutRun> {
  const runs = await truth(request, 'getRollouts', { set: 'ro', run: 'fake' });
  expect(runs).toHaveLength(1);
  return runs[0];
}

const stepAt = (page: Page) => page.getByTestId('rollout-step-head');

test('a rollout is a ghost path beside the true path: one ghost per step predicted, the divergence marked', async ({
  page,
  request,
}) => {
  const run = await theRun(request);
  // The longest rollout that heals: the path goes wrong at step 2 and right again.
  const it = [...run.items].sort((a, b) => b.steps.length - a.steps.length)[0] as RolloutItem;
  expect(it.first_divergence).not.toBeNull();
  await page.goto(`./?trace=${it.trace_id}&set=ro&run=fake`);
  const panel = page.getByTestId('rollout-panel');
  await expect(panel.getByTestId('rollout-pick').locator('option')).toHaveCount(
    1 + run.items.filter((i) => i.trace_id === it.trace_id).length,
  );
  await panel.getByTestId('rollout-pick').selectOption(String(it.id));

  const tree = page.getByTestId(`${it.direction}-tree`);
  const ghosts = tree.getByTestId('rollout-ghost');
  await expect(ghosts).toHaveCount(it.steps_predicted);
  // The other tree draws none: the rollout is in its direction's tree.
  const other = it.direction === 'forward' ? 'inverse' : 'forward';
  await expect(page.getByTestId(`${other}-tree`).getByTestId('rollout-ghost')).toHaveCount(0);
  for (const s of it.steps.filter((x) => x.predicted !== null)) {
    const verdict = s.format_error ? 'format' : s.right ? 'pass' : 'fail';
    await expect(tree.locator(`[data-testid="rollout-ghost"][data-step="${s.step}"]`)).toHaveAttribute(
      'data-verdict',
      verdict,
    );
    // The true node it stands beside is drawn.
    if (s.target_seq !== null)
      await expect(tree.locator(`[data-seq="${s.target_seq}"][data-event="${s.target_kind}"]`)).toHaveCount(1);
  }
  await expect(tree.getByTestId('rollout-divergence')).toHaveCount(1);
  await expect(tree.getByTestId('rollout-divergence')).toHaveAttribute('data-step', String(it.first_divergence));

  // Opened at the first divergence: the explorer stands there, the panel shows the wrong fields.
  const first = it.first_divergence!;
  await expect(page.getByTestId('history-pos')).toHaveText(new RegExp(`^${first}/${it.actions.length}`));
  await expect(stepAt(page)).toHaveAttribute('data-step', String(first));
  await expect(stepAt(page)).toHaveAttribute('data-right', 'false');
  await expect(tree.locator('[data-testid="rollout-ghost"][data-current]')).toHaveAttribute('data-step', String(first));
  const diff = panel.getByTestId('field-diff');
  await expect(diff).toBeVisible();
  await expect(diff.locator('[data-testid="diff-row"]:not([data-status="same"])')).not.toHaveCount(0);

  // The usual keys step through the rollout: Alt+] to the next step, right again here (the error heals).
  await page.keyboard.press('Alt+]');
  await expect(page.getByTestId('history-pos')).toHaveText(new RegExp(`^${first + 1}/`));
  const next = it.steps[first];
  await expect(stepAt(page)).toHaveAttribute('data-step', String(first + 1));
  await expect(stepAt(page)).toHaveAttribute('data-right', String(next.right));
  if (next.right) await expect(diff.locator('[data-testid="diff-row"]:not([data-status="same"])')).toHaveCount(0);
  await page.keyboard.press('Alt+[');
  await page.keyboard.press('Alt+[');
  await expect(stepAt(page)).toHaveAttribute('data-step', String(first - 1));

  // A step of the strip goes there.
  await panel.locator(`[data-testid="rollout-step"][data-step="${it.steps.length}"]`).click();
  await expect(page.getByTestId('history-pos')).toHaveText(new RegExp(`^${it.steps.length}/`));
  mkdirSync(shots, { recursive: true });
  await page.locator(`[data-testid="rollout-step"][data-step="${first}"]`).click();
  await expect(stepAt(page)).toHaveAttribute('data-step', String(first));
  await page.setViewportSize({ width: 1280, height: 720 });
  // The panels below the trees given room for the diff (the splitter dragged up).
  const split = page.getByRole('separator', { name: 'Resize the trees and the panels below' });
  const box = (await split.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y - 130, { steps: 5 });
  await page.mouse.up();
  await page.screenshot({ path: join(shots, 'rollout-explorer.png') });

  // F8 goes through the set's rollouts that go wrong somewhere (those with a first divergence), as through failures.
  await page.keyboard.press('F8');
  const pos = page.getByTestId('failure-position');
  await expect(pos).toHaveAttribute('data-of', String(run.items.filter((i) => i.first_divergence !== null).length));
  await expect(page.getByTestId('rollout-head')).toBeVisible();
});

test("the dashboard plots accuracy by rollout step as getRollouts' by_step, and lists rollouts by first divergence", async ({
  page,
  request,
}) => {
  const run = await theRun(request);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?view=dashboard&set=ro');
  await expect(page.getByTestId('dashboard')).toHaveAttribute('data-set', 'ro');
  const plot = page.getByTestId('plot-rollout-steps');
  const marks = plot.locator('[data-testid="mark"]');
  const want = run.by_step.flatMap((s) => [
    ...(s.accuracy === null ? [] : [`fake rollout ${s.step} ${s.accuracy}`]),
    ...(s.teacher_forced === null ? [] : [`fake teacher_forced ${s.step} ${s.teacher_forced}`]),
  ]);
  expect(run.by_step.some((s) => s.teacher_forced !== null)).toBe(true);
  await expect(marks).toHaveCount(want.length);
  const got = await marks.evaluateAll((els) =>
    els.map((e) => {
      const d = (e as HTMLElement).dataset;
      return `${d.run} ${d.metric} ${d.group} ${d.value}`;
    }),
  );
  expect(got.sort()).toEqual(want.sort());
  // The rollouts reaching each step, above the plot.
  const counts = await plot.locator('.bin-items-few text, .bin-items text').allTextContents();
  expect(counts.sort()).toEqual(run.by_step.map((s) => String(s.rollouts)).sort());

  // Listed by first divergence, never last; a click on a point keeps those diverging at its step.
  const rows = page.getByTestId('rollout-row');
  const order = [...run.items].sort(
    (a, b) => (a.first_divergence ?? Infinity) - (b.first_divergence ?? Infinity) || a.id - b.id,
  );
  await expect(rows).toHaveCount(order.length);
  expect(await rows.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.item)))).toEqual(
    order.map((i) => i.id),
  );
  const at = run.first_divergence.find((f) => f.step !== null)!;
  await plot.locator(`[data-testid="mark"][data-metric="rollout"][data-group="${at.step}"]`).click();
  await expect(rows).toHaveCount(at.rollouts);
  mkdirSync(shots, { recursive: true });
  await page.getByTestId('rollout-list-filter').locator('button').click();
  await expect(rows).toHaveCount(order.length);
  await page.screenshot({ path: join(shots, 'rollout-dashboard.png'), fullPage: true });

  // A rollout opens in the explorer at its first divergence.
  const it = order[0];
  await rows.first().click();
  await expect(page.getByTestId('rollout-step-head')).toHaveAttribute('data-step', String(it.first_divergence));
  await expect(page.getByTestId('history-pos')).toHaveText(new RegExp(`^${it.first_divergence}/${it.actions.length}`));
  await expect(page.getByTestId(`${it.direction}-tree`).getByTestId('rollout-ghost')).toHaveCount(it.steps_predicted);
});

test("the labeling queue labels a rollout's first divergence: the label lands on that step, shown given there", async ({
  page,
  request,
}) => {
  const run = await theRun(request);
  const who = 'rosa';
  const queue = await truth(request, 'annotationQueue', { set: 'ro', run: 'fake', annotator: who });
  const e = queue.entries[0];
  const it = run.items.find((i) => i.prediction === e.prediction)!;
  expect(it.first_divergence).not.toBeNull();
  expect(e.step).toBe(it.first_divergence);

  await page.goto('/');
  await page.getByTestId('view-label').click();
  await page.getByTestId('label-set').selectOption('ro');
  await page.getByTestId('label-run').selectOption('fake');
  await page.getByTestId('annotator').fill(who);
  await page.getByTestId('annotator').press('Enter');
  await expect(page.getByTestId('item-head')).toHaveAttribute('data-prediction', String(e.prediction));
  await expect(page.getByTestId('item-step')).toHaveText(`step ${it.first_divergence} of ${it.actions.length}`);

  const option = page.locator('[data-testid="label-option"]').first();
  const id = (await option.getAttribute('data-label'))!;
  for (const k of ((await option.getAttribute('data-keys')) ?? '').split(' ').filter(Boolean))
    await page.keyboard.press(k);
  await expect(option).toHaveAttribute('data-on', 'true');
  await expect(page.getByTestId('save-state')).toHaveText('saved');

  // Stored on the step, not on the whole rollout.
  const { rows } = await truth(request, 'listAnnotations', { set: 'ro', run: 'fake', annotator: who });
  expect(rows.map((a) => [a.target, a.labels])).toEqual([
    [`prediction:${e.prediction}/step:${it.first_divergence}`, [id]],
  ]);

  // Opened again, the step shows the label given (the whole rollout has none).
  await page.reload();
  await page.getByTestId('view-label').click();
  await page.getByTestId('label-set').selectOption('ro');
  await page.getByTestId('label-run').selectOption('fake');
  await page.getByTestId('annotator').fill(who);
  await page.getByTestId('annotator').press('Enter');
  await expect(page.getByTestId('item-position')).toHaveText(`2 / ${queue.entries.length}`);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('item-head')).toHaveAttribute('data-prediction', String(e.prediction));
  await expect(page.locator(`[data-testid="label-option"][data-label="${id}"]`)).toHaveAttribute('data-on', 'true');
});
