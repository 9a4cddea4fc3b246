// The graph shape of the trees, the action edges from the current node, the overview strip,
// and natural sort of names: every expected value comes from the API (walk, listTraces).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { currentNode, edgesOf, expectShowsWalk, openTrace, press, skeleton, traceId, truth } from './helpers.js';

const shots = join(import.meta.dirname, 'screenshots');

async function useShape(page: Page, which: 'forward' | 'inverse', shape: 'rows' | 'graph') {
  const pane = page.getByTestId(`${which}-tree`);
  if ((await pane.getAttribute('data-shape')) !== shape) await page.getByTestId(`${which}-shape`).click();
  await expect(pane).toHaveAttribute('data-shape', shape);
}

/** The translate of a node's <g>. */
async function pos(node: Locator): Promise<{ x: number; y: number }> {
  const m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec((await node.getAttribute('transform')) ?? '')!;
  return { x: Number(m[1]), y: Number(m[2]) };
}

/** Each drawn edge says where the API's walk of history + its action leads. */
async function expectEdgesTrue(
  page: Page,
  request: Parameters<typeof truth>[0],
  id: number,
  direction: 'forward' | 'inverse',
  history: string[],
  lines: string[],
) {
  const edges = page.getByTestId(`${direction}-edges`).getByTestId('action-edge');
  const expected =
    direction === 'forward'
      ? ['step_into', 'step_over', 'step_return', 'continue']
      : ['inv_step_into', 'inv_step_over', 'inv_step_call'];
  await expect
    .poll(async () =>
      (await edges.evaluateAll((es) => es.map((e) => e.getAttribute('data-action')))).filter(
        (a) => !a!.startsWith('breakpoint'),
      ),
    )
    .toEqual(expected);
  for (const edge of await edges.all()) {
    const label = (await edge.getAttribute('data-action'))!;
    const bp = /^breakpoint L(\d+)$/.exec(label);
    const action = bp ? `breakpoint ${lines[Number(bp[1]) - 1]}` : label;
    const w = await truth(request, 'walk', { traceId: id, direction, actions: [...history, action] });
    if (w.exit) {
      await expect(edge, label).toHaveAttribute('data-exit', w.exit);
    } else {
      const last = w.states[w.states.length - 1];
      await expect(edge, label).toHaveAttribute('data-target-seq', String(last.seq));
      await expect(edge, label).toHaveAttribute('data-target-event', last.event);
    }
  }
}

test('graph shape: same current node as the API walk at each step, drawn top-down by depth, the choice remembered', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const id = await traceId(request, 'calls.py');
  await page.goto('./');
  await openTrace(page, 'calls.py');
  await useShape(page, 'forward', 'graph');
  const sk = await skeleton(request, id);
  const depth = (s: number): number => (sk.parent[s] < 0 ? 0 : 1 + depth(sk.parent[s]));
  const fwd = page.getByTestId('forward-tree');
  const cur = currentNode(page, 'forward');
  const actions: string[] = [];
  const ys = new Map<number, number>();
  for (const [key, action] of [
    ['F11', 'step_into'],
    ['F11', 'step_into'],
    ['F11', 'step_into'],
    ['F11', 'step_into'],
    ['F11', 'step_into'],
    ['F10', 'step_over'],
    ['F11', 'step_into'],
    ['F11', 'step_into'],
    ['F11', 'step_into'],
  ] as const) {
    actions.push(action);
    await press(page, key, actions.length);
    const { walk } = await expectShowsWalk(page, request, id, 'forward', actions);
    // Top-down: the current node is drawn at the height of its depth in the tree (parents from the skeleton).
    const d = depth(walk.states.at(-1)!.seq);
    const y = (await pos(cur)).y;
    if (ys.has(d)) expect(y, `depth ${d}`).toBe(ys.get(d));
    ys.set(d, y);
  }
  const byDepth = [...ys].sort((a, b) => a[0] - b[0]);
  expect(byDepth.length).toBeGreaterThan(1);
  for (let j = 1; j < byDepth.length; j++) expect(byDepth[j][1]).toBeGreaterThan(byDepth[j - 1][1]);
  // Opening a loop's fold keeps its place: the "fold again" mark lands where the fold was.
  await openTrace(page, 'long_loop.py');
  const fold = fwd.getByTestId('fold');
  await page.getByTestId('forward-fit').click();
  const before = (await fold.boundingBox())!;
  await fold.click();
  await expect(fwd.getByTestId('refold')).toHaveCount(1);
  const after = (await fwd.getByTestId('refold').boundingBox())!;
  expect(Math.abs(after.x + after.width / 2 - (before.x + before.width / 2))).toBeLessThan(2);
  expect(Math.abs(after.y - before.y)).toBeLessThan(2);
  await openTrace(page, 'calls.py');
  // The persisted choice survives a reload.
  await page.reload();
  await openTrace(page, 'calls.py');
  await expect(fwd).toHaveAttribute('data-shape', 'graph');
  await expect(page.getByTestId('inverse-tree')).toHaveAttribute('data-shape', 'rows');
  await useShape(page, 'forward', 'rows');
});

test('action edges: each leads where the API walk of history + that action leads, in both shapes and directions; clicking one performs it', async ({
  page,
  request,
}) => {
  const id = await traceId(request, 'calls.py');
  const info = await truth(request, 'getTrace', { id });
  const lines = info.header.context_forward.split('\n');
  await page.goto('./');
  await openTrace(page, 'calls.py');
  // A chosen line to run to: the breakpoint edge goes where `breakpoint <its text>` stops.
  const sq = lines.indexOf('    y = x * x') + 1;
  await page.getByTestId('bp-line').selectOption(String(sq));
  const history = ['step_into', 'step_into', 'step_into', 'step_into', 'step_into'];
  for (let k = 1; k <= history.length; k++) await press(page, 'F11', k);
  for (const shape of ['rows', 'graph'] as const) {
    await useShape(page, 'forward', shape);
    await expectEdgesTrue(page, request, id, 'forward', history, lines);
    await expect(page.getByTestId('forward-edges').locator(`[data-action="breakpoint L${sq}"]`)).toHaveCount(1);
    // continue always leaves the scope: its edge ends on an exit marker.
    await expect(page.getByTestId('forward-edges').locator('[data-action="continue"]')).toHaveAttribute(
      'data-exit',
      'exit_normal',
    );
  }
  mkdirSync(shots, { recursive: true });
  await page.getByTestId('forward-tree').screenshot({ path: join(shots, 'edges-forward-graph.png') });

  // Click an edge where its label is not under a node (edges are drawn under the nodes), and
  // the trajectory takes that action.
  let clicked: { label: string; seq: string | null; event: string | null; exit: string | null } | null = null;
  for (const edge of await page.getByTestId('forward-edges').getByTestId('action-edge').all()) {
    const label = (await edge.getAttribute('data-action'))!;
    if (label.startsWith('breakpoint')) continue;
    // A point of the edge (its label or along its line) that no node covers, on screen.
    const at = await edge.evaluate((g) => {
      const mine = (x: number, y: number) =>
        document.elementFromPoint(x, y)?.closest('[data-testid="action-edge"]') === g;
      const chip = g.querySelector('.chip')!.getBoundingClientRect();
      if (mine(chip.x + chip.width / 2, chip.y + chip.height / 2))
        return [chip.x + chip.width / 2, chip.y + chip.height / 2];
      const path = g.querySelector('path.hit') as SVGPathElement;
      const m = path.getScreenCTM()!;
      const len = path.getTotalLength();
      for (let t = 0.1; t < 0.95; t += 0.05) {
        const p = path.getPointAtLength(t * len);
        const x = m.a * p.x + m.c * p.y + m.e;
        const y = m.b * p.x + m.d * p.y + m.f;
        if (mine(x, y)) return [x, y];
      }
      return null;
    });
    if (!at) continue;
    clicked = {
      label,
      seq: await edge.getAttribute('data-target-seq'),
      event: await edge.getAttribute('data-target-event'),
      exit: await edge.getAttribute('data-exit'),
    };
    await page.mouse.click(at[0], at[1]);
    break;
  }
  expect(clicked).not.toBeNull();
  await expect(page.getByTestId('history-pos')).toHaveText(`${history.length + 1}/${history.length + 1}`);
  if (clicked!.exit) await expect(page.getByTestId('exit')).toHaveText(clicked!.exit);
  else {
    await expect(currentNode(page, 'forward')).toHaveAttribute('data-seq', clicked!.seq!);
    await expect(currentNode(page, 'forward')).toHaveAttribute('data-event', clicked!.event!);
    await expectShowsWalk(page, request, id, 'forward', [...history, clicked!.label]);
  }

  // Inverse: the three inverse edges, in the inverse tree.
  await page.getByTestId('restart-inverse').click();
  await press(page, 'Alt+F11', 1);
  await press(page, 'Alt+F11', 2);
  await expect(page.getByTestId('forward-edges').getByTestId('action-edge')).toHaveCount(0);
  for (const shape of ['rows', 'graph'] as const) {
    await useShape(page, 'inverse', shape);
    await expectEdgesTrue(page, request, id, 'inverse', ['inv_step_into', 'inv_step_into'], lines);
  }
  await page.getByTestId('inverse-tree').screenshot({ path: join(shots, 'edges-inverse-graph.png') });
  await useShape(page, 'forward', 'rows');
  await useShape(page, 'inverse', 'rows');
});

test("action edges: their labels are on screen, never cover one another, and in the graph leave the current node's dot and label uncovered", async ({
  page,
  request,
}) => {
  await page.goto('./');
  await openTrace(page, 'calls.py');
  const id = await traceId(request, 'calls.py');
  type Box = { x: number; y: number; width: number; height: number };
  const overlap = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  for (const shape of ['graph', 'rows'] as const) {
    await page.getByTestId('restart-forward').click();
    await expect(page.getByTestId('history-pos')).toHaveText(/^0\//);
    await useShape(page, 'forward', shape);
    // At the first state (the tree's first row, where the edges used to be cut by the pane's
    // top), after five steps in (two edges to the next node, whose labels sat on the current
    // node's in the graph) and after nine, at `call square` (step into and step over lead to the
    // next row, and their labels sat on each other in the rows).
    let k = 0;
    for (const at of [0, 5, 9]) {
      for (; k < at;) await press(page, 'F11', ++k);
      const edges = page.getByTestId('forward-edges').getByTestId('action-edge');
      // `press` waits for the history's cursor only: the walk of step k (the new current node and
      // its edges) may still be on its way. Read the chips once the edges are those of step k.
      await edgesOf(page, request, id, Array<string>(k).fill('step_into'));
      // Chips laid out (a box each) before they are read: attached but not laid out once on a loaded machine.
      await expect
        .poll(async () =>
          (await Promise.all((await edges.locator('.chip').all()).map((c) => c.boundingBox()))).every(Boolean),
        )
        .toBe(true);
      const svg = (await page.getByTestId('forward-tree').locator('svg').first().boundingBox())!;
      const cur = currentNode(page, 'forward');
      // The current node may still be drawing after the step: its box once it is shown.
      await expect(cur.locator('circle').first()).toBeVisible();
      await expect(cur.locator('text').last()).toBeVisible();
      const dot = (await cur.locator('circle').first().boundingBox())!;
      const label = (await cur.locator('text').last().boundingBox())!;
      const chips: Box[] = [];
      for (const chip of await edges.locator('.chip').all()) {
        const b = (await chip.boundingBox())!;
        // an edge to a node out of view: its label is there
        if (b.x > svg.x + svg.width || b.y > svg.y + svg.height) continue;
        for (const c of chips)
          expect(overlap(b, c), `two labels on each other in the ${shape} after ${k} steps`).toBe(false);
        chips.push(b);
        expect(b.y, `${shape}, after ${k} steps`).toBeGreaterThanOrEqual(svg.y);
        expect(b.x, `${shape}, after ${k} steps`).toBeGreaterThanOrEqual(svg.x);
        if (shape !== 'graph') continue;
        expect(overlap(b, dot), `a label on the current node's dot after ${k} steps`).toBe(false);
        expect(overlap(b, label), `a label on the current node's label after ${k} steps`).toBe(false);
      }
      expect(chips.length, `${shape}, after ${k} steps`).toBeGreaterThanOrEqual(2);
    }
  }
});

test('overview strip: current state marked, folds marked as in the tree, a brush zooms the trees to that range', async ({
  page,
  request,
}) => {
  await page.goto('./');
  await openTrace(page, 'long_loop.py');
  const ov = page.getByTestId('overview');
  const id = await traceId(request, 'long_loop.py');
  const info = await truth(request, 'getTrace', { id });
  await expect(ov).toHaveAttribute('data-count', String(info.end.events));
  await expect(page.getByTestId('overview-current')).toHaveAttribute('data-seq', '0');
  for (let k = 1; k <= 3; k++) await press(page, 'F10', k);
  const w = await truth(request, 'walk', {
    traceId: id,
    direction: 'forward',
    actions: ['step_over', 'step_over', 'step_over'],
  });
  await expect(page.getByTestId('overview-current')).toHaveAttribute('data-seq', String(w.states.at(-1)!.seq));
  // The folded loop of the forward tree is marked over the same states.
  const fold = page.getByTestId('forward-tree').getByTestId('fold');
  await expect(page.getByTestId('overview-fold')).toHaveCount(await fold.count());
  await expect(page.getByTestId('overview-fold').first()).toHaveAttribute(
    'data-from',
    (await fold.first().getAttribute('data-from'))!,
  );
  await expect(page.getByTestId('overview-fold').first()).toHaveAttribute(
    'data-to',
    (await fold.first().getAttribute('data-to'))!,
  );
  mkdirSync(shots, { recursive: true });
  await ov.screenshot({ path: join(shots, 'overview-long-loop.png') });

  // On a small trace, brush the middle of the run: both trees show just those states.
  await openTrace(page, 'calls.py');
  const box = (await ov.locator('svg').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(ov).toHaveAttribute('data-from', /\d+/);
  const from = Number(await ov.getAttribute('data-from'));
  const to = Number(await ov.getAttribute('data-to'));
  const count = Number(await ov.getAttribute('data-count'));
  expect(from).toBeGreaterThan(count * 0.25);
  expect(to).toBeLessThan(count * 0.7);
  expect(to).toBeGreaterThan(from);
  await expect
    .poll(async () =>
      (
        await page
          .getByTestId('forward-tree')
          .locator('[data-seq]')
          .evaluateAll((ns) => ns.map((n) => Number(n.getAttribute('data-seq'))))
      ).includes(to),
    )
    .toBe(true);
  const seqs = await page
    .getByTestId('forward-tree')
    .locator('[data-seq]')
    .evaluateAll((ns) => ns.map((n) => Number(n.getAttribute('data-seq'))));
  // Forward node = seq: the range is drawn whole, from its first state at the top of the view.
  for (let s = from; s <= to; s++) expect(seqs).toContain(s);
  expect(Math.min(...seqs)).toBeGreaterThanOrEqual(from - 4);
  const inv = await page
    .getByTestId('inverse-tree')
    .locator('[data-seq]')
    .evaluateAll((ns) => ns.map((n) => Number(n.getAttribute('data-seq'))));
  expect(inv.filter((s) => s >= from && s <= to).length).toBeGreaterThan(inv.length / 2);
  await page.screenshot({ path: join(shots, 'overview-brushed.png') });
});

test('a big tree zoomed out to fit shows its depth profile, not a stripe of dots', async ({ page }) => {
  await page.goto('./');
  await openTrace(page, 'long_loop.py');
  const fwd = page.getByTestId('forward-tree');
  await fwd.getByTestId('fold').first().click();
  await expect(fwd.getByTestId('fold')).toHaveCount(0);
  await page.getByTestId('forward-fit').click();
  await expect(page.getByTestId('forward-profile')).toHaveCount(1);
  await expect(page.getByTestId('forward-lod')).toBeVisible();
  // The current node is still drawn over it.
  await expect(currentNode(page, 'forward')).toHaveCount(1);
  mkdirSync(shots, { recursive: true });
  await fwd.screenshot({ path: join(shots, 'profile-forward-fit.png') });
});

test('natural sort of names in the corpus browser: sample_2 before sample_10', async ({ page, request }) => {
  const { rows } = await truth(request, 'listTraces', { name: 'sample_' });
  // Truth from the names: by the number after sample_.
  const expected = rows.map((r) => r.name).sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
  expect(expected.indexOf('sample_2')).toBeLessThan(expected.indexOf('sample_10'));
  await page.goto('./');
  await page.getByTestId('search-name').fill('sample_');
  await page.getByTestId('sort').selectOption('name');
  await expect(page.getByTestId('trace-row').locator('.name')).toHaveText(
    expected.slice(0, await page.getByTestId('trace-row').count()),
  );
  await page.getByRole('button', { name: 'Reverse the order' }).click();
  await expect(page.getByTestId('trace-row').first().locator('.name')).toHaveText(expected[expected.length - 1]);
});
