// "Export…" from the corpus browser: the preview's counts, the progress bar, and the files
// read back (hyparquet) and checked against the API's truth for the same corpus.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parquetReadObjects } from 'hyparquet';
import { truth } from './helpers.js';

test("exports the traces the browser filters to as Parquet, previewed per split, and the files hold those traces' events", async ({
  page,
  request,
}, info) => {
  test.skip(info.project.name === 'graph', 'the tree shape plays no part');
  const errors = (await truth(request, 'listTraces', { exit: 'error', limit: 1000 })).rows;
  expect(errors.length).toBeGreaterThan(0);
  const events = errors.reduce((a, t) => a + t.events, 0);
  await page.goto('./');
  await page.getByTestId('filter-exit').selectOption('error');
  await page.getByTestId('export-open').click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog.getByTestId('export-select')).toHaveValue('exit=error');
  await dialog.getByTestId('export-kind').selectOption('traces');
  await dialog.getByTestId('export-format').selectOption('parquet');
  await dialog.getByTestId('export-split').fill('train=1');
  await dialog.getByTestId('export-overlap').check();
  const folder = `e2e-${Date.now()}`;
  await dialog.getByTestId('export-folder').fill(folder);
  await expect(dialog.getByTestId('export-preview-row')).toHaveText([new RegExp(`^train\\s*${events}\\s*\\d+$`)]);
  await page.screenshot({ path: test.info().outputPath('export-preview.png') });
  await dialog.getByTestId('export-start').click();
  await expect(dialog.getByTestId('export-done')).toBeVisible();
  await expect(dialog.getByTestId('export-progress').locator('progress')).toHaveAttribute('value', '1');
  const out = join(dirname(process.env.STEPSCOPE_E2E_DB!), 'stepscope-exports', folder);
  await expect(dialog.getByTestId('export-done')).toContainText(out);
  const rows = [];
  for (const f of readdirSync(join(out, 'data')).sort()) {
    const buf = readFileSync(join(out, 'data', f));
    rows.push(
      ...(await parquetReadObjects({
        file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer,
      })),
    );
  }
  expect(rows.length).toBe(events);
  expect(new Set(rows.map((r) => r.trace))).toEqual(new Set(errors.map((t) => t.id)));
  const first = [...errors].sort((a, b) => a.events - b.events)[0];
  const got = rows.filter((r) => r.trace === first.id).map((r) => [r.seq, r.event, r.line]);
  const want = (await truth(request, 'getEvents', { traceId: first.id, from: 0, to: first.events })).map((e) => [
    e.seq,
    e.event,
    e.line,
  ]);
  expect(got).toEqual(want);
  const manifest = JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8'));
  expect(manifest.filter).toEqual(['exit=error']);
  await page.screenshot({ path: test.info().outputPath('export-dialog.png') });

  // The same export again would be refused (its folder is no longer empty): Export is off
  // until something changes, and "Export again" offers a new folder, which then exports.
  await expect(dialog.getByTestId('export-start')).toBeDisabled();
  await dialog.getByTestId('export-again').click();
  await expect(dialog.getByTestId('export-folder')).toHaveValue(`${folder}-2`);
  await expect(dialog.getByTestId('export-start')).toBeEnabled();
  await dialog.getByTestId('export-start').click();
  await expect(dialog.getByTestId('export-done')).toContainText(`${out}-2`);
  expect(readdirSync(join(`${out}-2`, 'data')).length).toBeGreaterThan(0);
  await expect(dialog.getByTestId('export-start')).toBeDisabled();
  await dialog.getByTestId('export-again').click();
  await expect(dialog.getByTestId('export-folder')).toHaveValue(`${folder}-3`);
  // Another option (here the seed) is another export: offered at once.
  await dialog.getByTestId('export-seed').fill('1');
  await expect(dialog.getByTestId('export-start')).toBeEnabled();
});
