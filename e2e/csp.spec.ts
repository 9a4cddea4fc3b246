// The explorer's one content security policy: the page's <meta> (written at build time) and
// the server's header both come from src/contract/transport.ts.
import { expect, test } from '@playwright/test';
import { CSP, CSP_META } from '../src/contract/transport.js';

test('the page carries the policy in its meta tag and its header', async ({ page }) => {
  const res = await page.goto('./');
  expect(res!.headers()['content-security-policy']).toBe(CSP);
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', CSP_META);
});
