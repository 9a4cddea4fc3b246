// Screenshots of the explorer at the sizes it must work at (1280×720 up), for looking at.
import { test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openTrace, press } from './helpers.js';

const shots = join(import.meta.dirname, 'screenshots');

for (const [w, h] of [[1280, 720], [1920, 1080]] as const) {
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
  });
}
