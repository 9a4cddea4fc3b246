// Smoke test of the desktop app: Electron launched on a fresh demo corpus (`stepscope demo`)
// opens its window on that corpus, and a trace opens in the explorer. Where there is no
// Electron binary (this package's download failed or was never made) it skips, saying why,
// unless STEPSCOPE_REQUIRE_ELECTRON=1.
// Needs the builds: `npm run build:core` (the demo command) and `npm run build` (out/).
import { _electron as electron, expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureElectronSqlite } from '../../scripts/electron-native.mjs';
import { openTrace } from '../helpers.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * The Electron binary as `require('electron')` gives it (which first tries to download a
 * missing one), asked in a child process so its download messages stay out of the report.
 */
function electronBinary(): { path: string } | { reason: string } {
  const ask = "process.stdout.write(require('electron'))";
  const r = spawnSync(process.execPath, ['-e', ask], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  const path = r.status === 0 ? r.stdout.trim() : '';
  if (path && existsSync(path)) return { path };
  if (path) return { reason: `no Electron binary: require('electron') gives ${path}, which does not exist` };
  const errors = r.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^\w*Error\b/.test(l));
  const cause = errors.find((l) => !l.includes('failed to install')) ?? errors[0] ?? `exit ${r.status ?? r.signal}`;
  return { reason: `no Electron binary: require('electron') found none and could not download it (${cause})` };
}

const binary = electronBinary();

test('the desktop app opens the demo corpus and a trace in it', async () => {
  // CI sets STEPSCOPE_REQUIRE_ELECTRON=1: there a missing binary is a failure, not a skip.
  if ('reason' in binary && process.env.STEPSCOPE_REQUIRE_ELECTRON === '1') throw new Error(binary.reason);
  if ('reason' in binary) console.log(`skipped: ${binary.reason}`);
  test.skip('reason' in binary, 'reason' in binary ? binary.reason : '');
  if (!('path' in binary)) return;
  for (const built of ['dist/cli/main.js', 'out/main/index.js', 'out/renderer/index.html']) {
    expect(existsSync(join(root, built)), `${built} is missing: npm run build:core, npm run build`).toBe(true);
  }
  const sqlite = ensureElectronSqlite({ root });
  if (sqlite.error !== undefined) {
    throw new Error(`better-sqlite3 for Electron ${sqlite.electronVersion}: ${sqlite.error}`);
  }

  const db = join(mkdtempSync(join(tmpdir(), 'stepscope-desktop-')), 'demo.db');
  const cli = join(root, 'bin/stepscope.js');
  const demo = spawnSync(process.execPath, [cli, 'demo', '--db', db], { cwd: root, encoding: 'utf8' });
  expect(demo.status, demo.stderr).toBe(0);

  // --no-sandbox: CI runners forbid the unprivileged user namespaces Chromium's sandbox needs.
  const app = await electron.launch({
    executablePath: binary.path,
    args: ['--no-sandbox', root, '--db', db, '--sqlite-binding', sqlite.path],
    cwd: root,
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('trace-row').first()).toBeVisible();
    const name = (await page.getByTestId('trace-row').first().locator('.name').innerText()).trim();
    await openTrace(page, name);
  } finally {
    await app.close();
  }
});
