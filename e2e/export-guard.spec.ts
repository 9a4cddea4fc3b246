// The Export dialog's leakage guard and destination (docs/export.md, "In the app"): before
// Export is pressed it shows where the files go and, for rows whose training split the guard
// would empty (the CRUXEval tasks, recorded from the benchmark), a warning with the choice
// to allow the overlap; allowed, the export goes to a typed absolute path, the manifest
// records the overlap, and Export stays off once done. Screenshots at 1280×720 and 1920×1080.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { truth } from './helpers.js';

const corpusDir = () => dirname(process.env.STEPSCOPE_E2E_DB!);

async function shoot(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}x${height}.png`) });
  }
}

test('warns before Export when the guard would empty the training split, allows the overlap, and exports to a chosen folder', async ({
  page,
  request,
}, info) => {
  test.skip(info.project.name === 'graph', 'the tree shape plays no part');
  const select = ['name=sample_*'];
  const plan = await truth(request, 'previewExport', {
    kind: 'traces',
    select,
    split: 'train=0.9,validation=0.1',
    seed: 0,
    allowOverlap: false,
  });
  // The truth: every CRUXEval task is a benchmark program (recorded from it), so train is empty.
  expect(plan.guard.refusal).toContain('would leave training split train empty');
  const taken = plan.excluded.programs;
  expect(taken).toBe(plan.guard.trainingPrograms);

  await page.goto('./');
  await page.getByTestId('export-open').click();
  const dialog = page.getByTestId('export-dialog');
  // Where the files go, before anything is chosen: the default folder beside the corpus.
  await dialog.getByTestId('export-kind').selectOption('traces');
  await expect(dialog.getByTestId('export-destination-path')).toHaveText(
    join(corpusDir(), 'stepscope-exports', 'traces-jsonl'),
  );
  await dialog.getByTestId('export-select').fill(select.join('\n'));
  const warning = dialog.getByTestId('export-guard-warning');
  await expect(warning).toContainText('Training split train would be empty');
  await expect(dialog.getByTestId('export-excluded')).toContainText(
    `${taken} programs (${plan.excluded.rows} rows) of ${plan.excluded.sets.join(', ')} left out of training split train`,
  );
  await expect(dialog.getByTestId('export-benchmarks')).toContainText('(recorded from it)');
  await expect(dialog.getByTestId('export-start')).toBeDisabled();
  await expect(dialog.getByTestId('export-preview-row').first()).toHaveText(/^train\s*0\s*0$/);
  await shoot(page, 'export-guard-warning');

  // Allowed: the warning goes, the overlap is said, Export comes on.
  await dialog.getByTestId('export-guard-allow').check();
  await expect(warning).toBeHidden();
  await expect(dialog.getByTestId('export-overlap-note')).toContainText(`${taken} benchmark programs`);
  await expect(dialog.getByTestId('export-overlap')).toBeChecked(); // the same choice as the grid's switch
  await expect(dialog.getByTestId('export-start')).toBeEnabled();

  // A folder of one's own, by absolute path: said before Export; a missing parent is refused there.
  const missing = join(corpusDir(), 'no-such-parent', 'ds');
  await dialog.getByTestId('export-folder').fill(missing);
  await expect(dialog.getByTestId('export-destination-problem')).toHaveText(
    `the folder ${dirname(missing)} does not exist`,
  );
  await expect(dialog.getByTestId('export-start')).toBeDisabled();
  const out = join(corpusDir(), `guard-e2e-${Date.now()}`);
  await dialog.getByTestId('export-folder').fill(out);
  await expect(dialog.getByTestId('export-destination-path')).toHaveText(out);
  await expect(dialog.getByTestId('export-destination-problem')).toHaveCount(0);
  await shoot(page, 'export-guard-allowed');
  await dialog.getByTestId('export-start').click();
  await expect(dialog.getByTestId('export-done')).toContainText(out);
  // Done: the same export is not offered again until something changes.
  await expect(dialog.getByTestId('export-start')).toBeDisabled();
  await expect(dialog.getByTestId('export-start')).toHaveText('Exported');
  const manifest = JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8'));
  expect(manifest).toMatchObject({ allow_overlap: true, overlap_programs: taken, excluded_programs: 0 });
  expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('The leakage guard was turned off');
  await shoot(page, 'export-guard-done');
  // Now that folder holds an export: said before Export again.
  await dialog.getByTestId('export-seed').fill('3');
  await expect(dialog.getByTestId('export-destination-problem')).toContainText('is not empty');
  await expect(dialog.getByTestId('export-start')).toBeDisabled();
  expect(existsSync(missing)).toBe(false);
});
