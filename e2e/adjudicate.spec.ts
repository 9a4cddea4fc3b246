// Adjudication with context (docs/annotation.md, "Several annotators"): two annotators label a
// failing next-state prediction differently, each with a note; the agreement view, opened from
// the labeling queue of that set and run, shows the disagreement with the program (the true
// and the predicted line marked), the prediction against the truth, both annotators' labels
// and notes; a reload keeps the set and run; the link opens the item in the explorer.
import { expect, test } from '@playwright/test';
import type { AnnotationItem } from '../src/contract/index.js';
import { truth } from './helpers.js';

// Not the queue's first set and run: the agreement view shows them because the queue did.
const SET = 'ns';
const RUN = 'model-b';
const NOTES = { ivy: 'the value doubled: a wrong value', jon: 'one loop turn ahead' };

test('a disagreement opened from the queue shows the program, the diff, both annotations; reload and link keep it', async ({
  page,
  request,
}) => {
  const q = await truth(request, 'annotationQueue', { set: SET, run: RUN, annotator: 'ivy' });
  // A readable prediction with a wrong local, on a source line: what the context is for. Rather
  // one whose wrong local is a variable, not the `..` of a delta (the screenshots show it).
  let chosen: { prediction: number; item: AnnotationItem } | null = null;
  for (const e of q.entries) {
    const item = await truth(request, 'getAnnotationItem', { prediction: e.prediction, annotator: 'ivy' });
    if (item.predicted?.src === undefined || item.truth.src === undefined || !item.wrong.includes('locals')) continue;
    const named = Object.entries(item.predicted.locals ?? {}).some(
      ([k, v]) => k !== '..' && JSON.stringify(v) !== JSON.stringify(item.truth.locals?.[k]),
    );
    if (!chosen || named) chosen = { prediction: e.prediction, item };
    if (named) break;
  }
  expect(chosen, `a failing prediction of ${SET}/${RUN} with wrong locals`).not.toBeNull();
  const { prediction, item } = chosen!;
  const target = { prediction };
  await truth(request, 'annotate', { target, labels: ['data.wrong_value'], note: NOTES.ivy, annotator: 'ivy' });
  await truth(request, 'annotate', {
    target,
    labels: ['control.loop_iteration'],
    note: NOTES.jon,
    annotator: 'jon',
  });

  // The queue of that set and run, then Agreement.
  await page.goto('/');
  await page.getByTestId('view-label').click();
  await page.getByTestId('label-set').selectOption(SET);
  await page.getByTestId('label-run').selectOption(RUN);
  await page.getByTestId('annotator').fill('ivy');
  await page.getByTestId('annotator').press('Enter');
  await expect(page.getByTestId('item-key')).toBeVisible();
  await page.getByTestId('view-agreement').click();
  await expect(page.getByTestId('agreement-set')).toHaveValue(SET);
  await expect(page.getByTestId('agreement-run')).toHaveValue(RUN);
  await expect(page).toHaveURL(new RegExp(`\\?view=agreement&set=${SET}&run=${RUN}(#.*)?$`));

  const dis = page.locator(`[data-testid="disagreement"][data-target="prediction:${prediction}"]`);
  const check = async () => {
    await expect(dis).toBeVisible();
    await expect(dis.getByTestId('disagreement-key')).toHaveText(item.item.key);
    // The program, the true line marked (and the predicted one, or both on one line).
    const code = dis.getByTestId('label-code');
    await expect(code).toContainText(item.code.split('\n')[0]);
    const same = item.predicted!.src === item.truth.src;
    const trueLine = code.locator(same ? '[data-mark="both"]' : '[data-mark="true"]');
    await expect(trueLine).toContainText(item.truth.src!.trim());
    if (!same) await expect(code.locator('[data-mark="predicted"]')).toContainText(item.predicted!.src!.trim());
    // The diff: a local the prediction got wrong is marked changed, missing or invented.
    const wrongLocal = dis.locator('[data-testid="diff-row"][data-field="local"]:not([data-status="same"])');
    await expect(wrongLocal.first()).toBeVisible();
    // Both annotators, their labels and their notes.
    for (const [who, labels] of [
      ['ivy', 'data.wrong_value'],
      ['jon', 'control.loop_iteration'],
    ] as const) {
      const a = dis.locator(`[data-testid="annotator"][data-annotator="${who}"]`);
      await expect(a.getByTestId('take')).toHaveText(`${who}: ${labels}`);
      await expect(a.getByTestId('annotator-note')).toHaveText(NOTES[who]);
    }
  };
  await check();

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await dis.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/adjudicate-${width}x${height}.png` });
  }

  // A reload (or a shared link) shows the same set and run.
  await page.reload();
  await expect(page.getByTestId('agreement-set')).toHaveValue(SET);
  await expect(page.getByTestId('agreement-run')).toHaveValue(RUN);
  await check();

  // The link opens the item in the explorer, the set and run overlaid.
  await dis.getByTestId('disagreement-open').click();
  await expect(page.getByTestId('view-explorer')).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(new RegExp(`[?&]item=${item.item.id}(&|#|$)`));
  await expect(page.getByTestId('prediction-head')).toContainText(`item ${item.item.key}`);
  await page.screenshot({ path: 'test-results/adjudicate-item.png' });
});
