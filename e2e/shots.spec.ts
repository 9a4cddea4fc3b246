// Screenshots of the explorer and its views at the sizes it must work at (1280×720 up), for
// looking at: `npm run screenshots` writes them to e2e/screenshots/. They assert nothing (the
// sizes are checked in bugs.spec.ts and dashboard.spec.ts), so `npm test` leaves them out
// (playwright.config.ts).
import { test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openTrace, press } from './helpers.js';

const shots = join(import.meta.dirname, 'screenshots');

for (const [w, h] of [
  [1280, 720],
  [1920, 1080],
] as const) {
  test(`screenshots at ${w}×${h}`, async ({ page }) => {
    mkdirSync(shots, { recursive: true });
    await page.setViewportSize({ width: w, height: h });
    await page.goto('./');
    await openTrace(page, 'calls.py');
    for (let k = 1; k <= 9; k++) await press(page, 'F11', k);
    await page.screenshot({ path: join(shots, `explorer-${w}.png`) });
    await page.getByTestId('tab-history').click();
    await page.getByTestId('forward-tree').locator('[data-seq="3"]').click();
    await page.screenshot({ path: join(shots, `explorer-history-${w}.png`) });
    await openTrace(page, 'long_loop.py');
    await page.getByTestId('forward-tree').getByTestId('fold').hover();
    await page.screenshot({ path: join(shots, `long-loop-${w}.png`) });
    // The graph shape with its action edges on a demo program, then on the long loop, fitted.
    await page.getByTestId('forward-shape').click();
    await page.getByTestId('inverse-shape').click();
    await openTrace(page, 'fibonacci');
    for (let k = 1; k <= 8; k++) await press(page, 'F11', k);
    await page.screenshot({ path: join(shots, `graph-edges-${w}.png`) });
    await openTrace(page, 'long_loop.py');
    await page.getByTestId('forward-fit').click();
    await page.getByTestId('inverse-fit').click();
    await page.screenshot({ path: join(shots, `graph-long-loop-${w}.png`) });
    // Zoomed out past the level of detail: the depth profile, and the overview brushed.
    await page.getByTestId('forward-tree').getByTestId('fold').first().click();
    await page.getByTestId('forward-fit').click();
    const ov = (await page.getByTestId('overview').locator('svg').boundingBox())!;
    await page.mouse.move(ov.x + ov.width * 0.2, ov.y + 20);
    await page.mouse.down();
    await page.mouse.move(ov.x + ov.width * 0.3, ov.y + 20, { steps: 3 });
    await page.mouse.up();
    await page.screenshot({ path: join(shots, `graph-overview-brushed-${w}.png`) });
    await page.getByTestId('forward-shape').click();
    await page.getByTestId('inverse-shape').click();
  });
}

test('screenshots of every main view', async ({ page }) => {
  mkdirSync(shots, { recursive: true });
  await page.goto('./');
  await page.screenshot({ path: join(shots, 'welcome.png') });
  await openTrace(page, 'calls.py');
  for (let k = 1; k <= 6; k++) await press(page, 'F11', k);
  await page.screenshot({ path: join(shots, 'explorer.png') });
  for (const v of [
    'corpus-browser',
    'code-view',
    'forward-tree',
    'inverse-tree',
    'inspector',
    'controls',
    'trajectory-panel',
  ]) {
    await page.getByTestId(v).screenshot({ path: join(shots, `${v}.png`) });
  }
  await page.getByTestId('tab-saved').click();
  await page.getByTestId('trajectory-panel').screenshot({ path: join(shots, 'trajectories.png') });
});
