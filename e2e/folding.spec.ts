// Long loops folded in both trees: a fold row stands for the middle iterations, stepping into
// them shows the current node, and the fold expands and folds again.
import { expect, test, type Locator } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { currentNode, openTrace, press, skeleton, traceId, truth } from './helpers.js';

const shots = join(import.meta.dirname, 'screenshots');

/** Nodes drawn plus the nodes each fold stands for: every node of the tree, once. */
async function drawnPlusFolded(tree: Locator): Promise<number> {
  const drawn = await tree.locator('[data-seq]').count();
  const folded = await tree
    .getByTestId('fold')
    .evaluateAll((fs) => fs.reduce((a, f) => a + Number(f.getAttribute('data-count')), 0));
  return drawn + folded;
}

test('long loops are folded in both trees; stepping into a fold shows the current node; expand and fold again', async ({
  page,
  request,
}) => {
  const id = await traceId(request, 'long_loop.py');
  const skel = await skeleton(request, id);
  expect(skel.count).toBeGreaterThan(6000);
  const withKids = new Set(skel.parent.filter((p) => p >= 0)).size;
  await page.goto('./');
  await openTrace(page, 'long_loop.py');
  const fwd = page.getByTestId('forward-tree');
  const inv = page.getByTestId('inverse-tree');

  // One fold row per tree, for the middle iterations; the rest is drawn in full.
  await expect(fwd.getByTestId('fold')).toHaveCount(1);
  await expect(inv.getByTestId('fold')).toHaveCount(1);
  const fold = fwd.getByTestId('fold');
  await expect(fold).toContainText(/⋯ [\d,]+ iterations folded \(#[\d,]+–#[\d,]+\) — click to expand/);
  const from = Number(await fold.getAttribute('data-from'));
  const to = Number(await fold.getAttribute('data-to'));
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(skel.count - 40);
  expect(Number(await fold.getAttribute('data-count'))).toBe(to - from + 1);
  await page.getByTestId('forward-fit').click();
  await page.getByTestId('inverse-fit').click();
  expect(await drawnPlusFolded(fwd)).toBe(skel.count);
  expect(await drawnPlusFolded(inv)).toBe(skel.count + withKids);
  expect(Number(await fwd.getAttribute('data-rows'))).toBeLessThan(60);
  mkdirSync(shots, { recursive: true });
  await fwd.screenshot({ path: join(shots, 'folded-forward-tree.png') });
  await inv.screenshot({ path: join(shots, 'folded-inverse-tree.png') });

  // Step over (F10) along the loop into the folded region: the current node is drawn.
  const steps = from + 8;
  for (let k = 1; k <= steps; k++) await press(page, 'F10', k);
  const w = await truth(request, 'walk', {
    traceId: id,
    direction: 'forward',
    actions: Array(steps).fill('step_over'),
  });
  const cur = w.states[w.states.length - 1];
  expect(cur.seq).toBeGreaterThan(from);
  expect(cur.seq).toBeLessThan(to);
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(cur.seq));
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-event', cur.event);
  // The fold split around it; both pieces stay folded, and nothing is drawn twice or lost.
  const pieces = fwd.getByTestId('fold');
  await expect(pieces).toHaveCount(2);
  expect(Number(await pieces.nth(0).getAttribute('data-to'))).toBeLessThan(cur.seq);
  expect(Number(await pieces.nth(1).getAttribute('data-from'))).toBeGreaterThan(cur.seq);
  await page.getByTestId('forward-fit').click();
  expect(await drawnPlusFolded(fwd)).toBe(skel.count);
  // The selected state's twin in the inverse tree is drawn too.
  await expect(inv.locator(`.twin[data-seq="${cur.seq}"]`)).toHaveCount(1);
  await fwd.screenshot({ path: join(shots, 'folded-forward-tree-stepped.png') });

  // Click the fold: every state gets its row (plus one "fold again" row); the view does not
  // draw them all at once, so count rows, and the drawn nodes are consecutive states.
  await pieces.nth(1).click();
  await expect(fwd.getByTestId('fold')).toHaveCount(0);
  await expect(fwd).toHaveAttribute('data-folds', '0');
  await expect(fwd).toHaveAttribute('data-rows', String(skel.count + 1));
  await expect(fwd.getByTestId('refold')).toHaveCount(1);
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(cur.seq));
  const seqs = (
    await fwd.locator('[data-seq]').evaluateAll((ns) => ns.map((n) => Number(n.getAttribute('data-seq'))))
  ).sort((a, b) => a - b);
  expect(seqs.length).toBeGreaterThan(10);
  expect(seqs[seqs.length - 1] - seqs[0]).toBe(seqs.length - 1);

  // Stepping keeps the fold open.
  await press(page, 'F10', steps + 1);
  await expect(fwd).toHaveAttribute('data-rows', String(skel.count + 1));
  await expect(fwd.getByTestId('fold')).toHaveCount(0);

  // Fold it again: it splits around the current node again, which stays drawn.
  await fwd.getByTestId('refold').click();
  await expect(fwd.getByTestId('fold')).toHaveCount(2);
  const w2 = await truth(request, 'walk', {
    traceId: id,
    direction: 'forward',
    actions: Array(steps + 1).fill('step_over'),
  });
  await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', String(w2.states[w2.states.length - 1].seq));
  await page.getByTestId('forward-fit').click();
  expect(await drawnPlusFolded(fwd)).toBe(skel.count);
});
