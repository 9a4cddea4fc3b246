// The desktop app's smoke test (npm run test:desktop): Playwright drives the Electron app
// itself, not a browser, so there is no web server and no Chromium here. Its spec is named
// *.desktop.ts, which the web-mode config (e2e/playwright.config.ts, *.spec.ts) never runs.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.desktop.ts',
  // The first launch may build better-sqlite3 for Electron (scripts/electron-native.mjs).
  timeout: 600_000,
  expect: { timeout: 30_000 },
  workers: 1,
  reporter: [['list']],
  outputDir: '../test-results/desktop',
});
