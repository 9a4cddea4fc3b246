// An item opened by a link at the smallest supported window (1280x720) brings its true target
// and the run's ghost into view, even when the target lies far below the node where the model
// was asked (CRUXEval output items: the prompt stands at the call, the target at its return).
// Which item is farthest comes from the server's API, never from the page.
import { expect as base, test, type Locator } from '@playwright/test';
import { join } from 'node:path';
import { truth } from './helpers.js';

const expect = base.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1280, height: 720 } });

async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  return !!a && !!b && a.y >= b.y && a.y + a.height <= b.y + b.height && a.x >= b.x && a.x + a.width <= b.x + b.width;
}

test('an opened item scrolls its target and ghost into view in a 1280x720 window', async ({ page, request }) => {
  const { rows } = await truth(request, 'listItems', { set: 'crux-out', run: 'codellama-7b', limit: 1000 });
  const far = rows
    .filter((r) => r.targetNode !== null && r.direction === 'forward')
    .sort((x, y) => y.targetNode! - x.targetNode!)[0];
  expect(far.targetNode!).toBeGreaterThan(30);
  await page.goto(`./?trace=${far.traceId}&set=crux-out&run=codellama-7b&item=${far.id}`);
  const ghost = page.getByTestId('forward-ghost-layer').getByTestId('ghost');
  await expect(ghost).toBeVisible();
  const pane = page.getByTestId('forward-svg');
  const target = page
    .getByTestId('forward-tree')
    .locator(`[data-seq="${far.targetSeq}"][data-event="${far.targetKind}"]`);
  await expect.poll(() => inside(ghost, pane), { message: 'the ghost is on screen' }).toBe(true);
  await expect.poll(() => inside(target, pane), { message: 'the true target is on screen' }).toBe(true);
  await page.screenshot({ path: join(import.meta.dirname, 'screenshots', 'item-in-view-1280.png') });
});
