// Sampled trajectories: listed per trace, opened, and stepped through on the tree.
import { expect, test } from '@playwright/test';
import { openTrace, traceId, truth } from './helpers.js';

test('open a sampled trajectory and step through it to its stored end', async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  const list = await truth(request, 'listTrajectories', { traceId: id });
  expect(list.total).toBeGreaterThan(0);
  await page.goto('./');
  await openTrace(page, 'calls.py');
  await page.getByTestId('tab-saved').click();
  await expect(page.getByTestId('trajectory-row')).toHaveCount(list.total);

  for (const t of [
    list.rows.find((r) => r.direction === 'forward')!,
    list.rows.find((r) => r.direction === 'inverse')!,
  ]) {
    await page.getByTestId('tab-saved').click();
    await page.locator(`[data-testid="trajectory-row"][data-trajectory-id="${t.id}"]`).click();
    await expect(page.getByTestId('history-pos')).toHaveText(`0/${t.actions.length}`);
    for (let k = 1; k <= t.actions.length; k++) {
      await page.getByTestId('forward').click();
      await expect(page.getByTestId('history-pos')).toHaveText(`${k}/${t.actions.length}`);
      // The tree's current node follows the stored trajectory, state by state.
      const w = await truth(request, 'walk', {
        traceId: id,
        direction: t.direction,
        entry: t.entry,
        actions: t.actions.slice(0, k),
      });
      if (w.exit === null) {
        const last = w.states[w.states.length - 1];
        await expect(page.getByTestId(`${t.direction}-tree`).locator('[data-current="true"]')).toHaveAttribute(
          'data-seq',
          String(last.seq),
        );
      }
    }
    const full = await truth(request, 'walk', {
      traceId: id,
      direction: t.direction,
      entry: t.entry,
      actions: t.actions,
    });
    expect(full.states.length).toBe(t.states);
    expect(full.exit).toBe(t.exit);
    if (t.exit) await expect(page.getByTestId('exit')).toHaveText(t.exit);
  }
});
