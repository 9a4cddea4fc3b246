// The predictions overlay on CRUXEval (e2e/make-corpus.mjs imports CRUXEval's CodeLlama-7B
// output generations as run "codellama-7b" of set crux-out, and a run "mutant" of the
// breakpoint set crux-bp: right, one local changed, or unreadable). Expected values come from
// the server's API (the same corpus), never from the page.
import { expect as base, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemRow } from '../src/contract/index.js';
import { startFakeModelServer } from '../scripts/fake-model-server.mjs';
import { truth, verdictOf as expected } from './helpers.js';

// A loaded machine replays trajectories slowly: wait longer than the default for what follows a click.
const expect = base.configure({ timeout: 20_000 });
const shots = join(import.meta.dirname, 'screenshots');
// Each test opens several traces and replays trajectories through the server on a busy machine.
test.describe.configure({ timeout: 180_000 });

const first = (it: ItemRow, run: string) =>
  it.verdicts.filter((v) => v.run === run).sort((a, b) => a.sample - b.sample)[0];
const node = (page: Page, it: ItemRow) =>
  page.getByTestId(`${it.direction}-tree`).locator(`[data-seq="${it.targetSeq}"][data-event="${it.targetKind}"]`);

async function opened(page: Page, query: string) {
  await page.goto(`./${query}`);
  await expect(page.getByTestId('overlay-bar')).toBeVisible();
}

test("verdict marks equal the API's verdicts, on both runs and both tree shapes", async ({ page, request }) => {
  for (const [set, run] of [
    ['crux-bp', 'mutant'],
    ['crux-out', 'codellama-7b'],
  ] as const) {
    const { rows } = await truth(request, 'listItems', { set, run, limit: 8 });
    expect(rows.length).toBe(8);
    for (const it of rows.slice(0, 3)) {
      await opened(page, `?trace=${it.traceId}&set=${set}&run=${run}`);
      await expect(page.getByTestId('code-view')).toContainText(it.name);
      const want = expected(first(it, run));
      if (want) await expect(node(page, it)).toHaveAttribute('data-verdict', want);
      else await expect(node(page, it)).not.toHaveAttribute('data-verdict', /./);
      // Exactly the items of this trace are marked (one per CRUXEval trace).
      await expect(page.getByTestId(`${it.direction}-tree`).locator('[data-verdict]')).toHaveCount(want ? 1 : 0);
    }
  }
  // The graph shape carries the same marks.
  const { rows } = await truth(request, 'listItems', { set: 'crux-bp', run: 'mutant', limit: 3 });
  const it = rows[1];
  await opened(page, `?trace=${it.traceId}&set=crux-bp&run=mutant`);
  await page.getByTestId('forward-shape').click();
  await expect(page.getByTestId('forward-tree')).toHaveAttribute('data-shape', 'graph');
  await expect(node(page, it)).toHaveAttribute('data-verdict', expected(first(it, 'mutant'))!);
  await page.getByTestId('forward-shape').click();
});

test('a marked node opens its item: the prompt replayed, a ghost beside the truth, the wrong fields shown', async ({
  page,
  request,
}) => {
  const { rows } = await truth(request, 'listItems', { set: 'crux-bp', run: 'mutant', limit: 30 });
  const wrong = rows.find((r) => first(r, 'mutant').em.locals === false && first(r, 'mutant').formatError === false)!;
  expect(wrong, 'an item with a changed local').toBeTruthy();
  const detail = await truth(request, 'getItem', { id: wrong.id, run: 'mutant' });
  const p = detail.predictions[0];
  await opened(page, `?trace=${wrong.traceId}&set=crux-bp&run=mutant`);
  // Clicked once its mark is drawn: before the run's verdicts arrive a click only selects the node.
  await expect(node(page, wrong)).toHaveAttribute('data-verdict', 'fail');
  await node(page, wrong).click();
  await expect(page.getByTestId('prediction-head')).toContainText(`item ${wrong.key}`);
  // The model was asked after all but the last action: that one is left to redo.
  await expect(page.getByTestId('history-pos')).toHaveText(`${wrong.actions.length - 1}/${wrong.actions.length}`);
  await expect(page.getByTestId('ghost')).toHaveAttribute('data-verdict', 'fail');
  await expect(page.getByTestId('ghost-edge')).toHaveAttribute('data-action', wrong.actions[wrong.actions.length - 1]);
  // The changed locals are exactly those whose predicted repr differs from the true one.
  const changed = Object.keys(detail.truth.locals!).filter((k) => p.parsed!.locals![k] !== detail.truth.locals![k]);
  expect(changed.length).toBeGreaterThan(0);
  const diff = page.getByTestId('field-diff');
  await expect(diff.locator('[data-status="changed"]')).toHaveCount(changed.length);
  for (const k of changed)
    await expect(diff.locator(`[data-field="local"][data-name="${k}"]`)).toHaveAttribute('data-status', 'changed');
  await expect(diff.locator('[data-field="event"]')).toHaveAttribute('data-status', 'same');
  // The code view: the true line marked (it is also the predicted one: only a local is wrong).
  const sk = await truth(request, 'getEvents', {
    traceId: wrong.traceId,
    from: wrong.targetSeq!,
    to: wrong.targetSeq! + 1,
  });
  await expect(page.getByTestId('code-view')).toHaveAttribute('data-truth-line', String(sk[0].line));
  await expect(page.getByTestId('code-view')).toHaveAttribute('data-predicted-line', String(sk[0].line));
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, 'overlay-item.png') });

  // The address says what is open; the same link in a new page opens the same view.
  const url = page.url();
  expect(new URL(url).searchParams.get('item')).toBe(String(wrong.id));
  const again = await page.context().newPage();
  await again.goto(url);
  await expect(again.getByTestId('prediction-head')).toContainText(`item ${wrong.key}`);
  await expect(again.getByTestId('history-pos')).toHaveText(`${wrong.actions.length - 1}/${wrong.actions.length}`);
  await expect(again.getByTestId('ghost')).toHaveAttribute('data-verdict', 'fail');
  await again.close();
});

test('a format error shows where reading stopped; F8 jumps to the failing node; failures only hides passes', async ({
  page,
  request,
}) => {
  const { rows } = await truth(request, 'listItems', { set: 'crux-bp', run: 'mutant', limit: 30 });
  const bad = rows.find((r) => first(r, 'mutant').formatError === true)!;
  const good = rows.find((r) => first(r, 'mutant').correct === true)!;
  const detail = await truth(request, 'getItem', { id: bad.id, run: 'mutant' });
  await opened(page, `?trace=${bad.traceId}&set=crux-bp&run=mutant`);
  await expect(node(page, bad)).toHaveAttribute('data-verdict', 'format');
  await page.keyboard.press('F8');
  await expect(page.getByTestId('prediction-head')).toContainText(`item ${bad.key}`);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'format');
  const pe = detail.predictions[0].parseError!;
  await expect(page.getByTestId('format-error')).toContainText(`line ${pe.line}, column ${pe.column}`);
  await expect(page.getByTestId('format-error-caret')).toHaveCount(1);
  await page.screenshot({ path: join(shots, 'overlay-format-error.png') });

  await opened(page, `?trace=${good.traceId}&set=crux-bp&run=mutant`);
  await expect(node(page, good)).toHaveAttribute('data-verdict', 'pass');
  await page.getByTestId('failures-only').check();
  await expect(node(page, good)).not.toHaveAttribute('data-verdict', /./);
  // The address follows the view once it has redrawn.
  await expect.poll(() => new URL(page.url()).searchParams.get('failures')).toBe('1');
});

test('F8 and Shift+F8 visit every failing item of the trace, several on one node each in turn', async ({
  page,
  request,
}) => {
  // The horizon set has several items whose target is the same node (an inverse call's inputs).
  const { rows } = await truth(request, 'listItems', { set: 'hz', run: 'model-a', limit: 1000 });
  const failingOf = new Map<number, ItemRow[]>();
  for (const r of rows)
    if (['fail', 'format'].includes(expected(first(r, 'model-a')) ?? ''))
      failingOf.set(r.traceId, [...(failingOf.get(r.traceId) ?? []), r]);
  const [traceId, failing] = [...failingOf].find(
    ([, f]) => new Set(f.map((r) => `${r.direction}/${r.targetSeq}`)).size < f.length,
  )!;
  expect(failing, 'a trace with two failing items on one node').toBeTruthy();
  await opened(page, `?trace=${traceId}&set=hz&run=model-a`);
  await expect(page.getByTestId('verdict-counts')).toHaveAttribute('data-trace', String(traceId));
  const item = () => new URL(page.url()).searchParams.get('item');
  const seen: number[] = [];
  for (let j = 0; j < failing.length; j++) {
    const before = item();
    await page.keyboard.press('F8');
    // While the item's trajectory is replayed the address names no item yet.
    await expect.poll(() => item() !== null && item() !== before).toBe(true);
    seen.push(Number(item()));
  }
  expect([...seen].sort((a, b) => a - b)).toEqual(failing.map((r) => r.id).sort((a, b) => a - b));
  // Past the trace's last failure F8 goes on through the set (explorer-triage.spec.ts), and back.
  await page.keyboard.press('F8');
  await expect.poll(item).not.toBe(String(seen[seen.length - 1]));
  await page.keyboard.press('Shift+F8');
  await expect.poll(item).toBe(String(seen[seen.length - 1]));
  await page.keyboard.press('Shift+F8');
  await expect.poll(item).toBe(String(seen[seen.length - 2]));
});

test('a stale or unknown link says so and still shows the app', async ({ page }) => {
  await page.goto('./?trace=99999&set=no-such-set&colour=red&dir=sideways');
  const box = page.getByTestId('link-problems');
  await expect(box).toContainText('unknown parameter "colour"');
  await expect(box).toContainText('"dir" should be "forward" or "inverse"');
  await expect(box).toContainText('no evaluation set "no-such-set"');
  await expect(box).toContainText('trace 99999 could not be opened');
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.screenshot({ path: join(shots, 'overlay-stale-link.png') });
});

test('paste a completion and ask the model at any state, against a local OpenAI-compatible server', async ({
  page,
  request,
}) => {
  const { rows } = await truth(request, 'listTraces', { name: 'sample_1', limit: 5 });
  const id = rows.find((r) => r.name === 'sample_1')!.id;
  const at = { traceId: id, direction: 'forward' as const, entry: 0, actions: ['step_into', 'step_into', 'step_over'] };
  const cut = await truth(request, 'checkCompletions', { ...at, completions: [] });
  // Sample 0 answers the truth, sample 1 something else.
  // On the port `serve` was told it may ask (e2e/server.mjs: --model-server e2e-model=…).
  const fake = await startFakeModelServer({
    answers: { [cut.prompt]: [cut.target, '<|return_sep|><|src_sep|>nope<|arg_sep|>"0"'] },
    port: Number(process.env.STEPSCOPE_E2E_MODEL_PORT),
  });
  try {
    await opened(page, `?trace=${id}&actions=step_into,step_into`);
    await expect(page.getByTestId('history-pos')).toHaveText('2/2');
    await page.getByTestId('check-model-open').click();
    await page.getByTestId('check-action').selectOption('step_over');
    // Paste: the truth itself, then text that cannot be read.
    await page.getByTestId('paste-open').click();
    await page.getByTestId('paste-text').fill(cut.target);
    await page.getByTestId('paste-check').click();
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'pass');
    await expect(page.getByTestId('ghost')).toHaveAttribute('data-verdict', 'pass');
    await page.getByTestId('paste-text').fill('<|line_sep|>{oops');
    await page.getByTestId('paste-check').click();
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'format');

    // Ask: settings first (kept by the page), then two samples.
    await page.getByTestId('model-settings-open').click();
    await page.getByTestId('set-endpoint').fill(fake.url);
    await page.getByTestId('set-model').fill('debugger');
    await page.getByTestId('set-samples').fill('2');
    await page.getByTestId('save-settings').click();
    await page.getByTestId('ask-model').click();
    await expect(page.getByTestId('sample')).toHaveCount(2);
    await expect(page.getByTestId('sample').nth(0)).toHaveAttribute('data-verdict', 'pass');
    await expect(page.getByTestId('sample').nth(1)).toHaveAttribute('data-verdict', 'fail');
    await expect(page.getByTestId('agreement')).toContainText('1 of 2 draws agree with draw 1');
    expect(fake.requests.some((q) => q.body.prompt === cut.prompt)).toBe(true);
    await page.screenshot({ path: join(shots, 'overlay-ask.png') });

    // The server gone: one line saying so.
    await fake.close();
    await page.getByTestId('ask-model').click();
    await expect(page.getByTestId('overlay-error')).toContainText(
      `Ask the model: cannot reach ${fake.url.replace(/\/$/, '')}`,
    );
    expect(await page.getByTestId('overlay-error').innerText()).not.toContain('\n');
  } finally {
    await fake.close().catch(() => undefined);
  }
});

test('k samples: a chip per sample with its verdict (CodeLlama-7B, 10 samples per task)', async ({ page, request }) => {
  const { rows } = await truth(request, 'listItems', { set: 'crux-out', run: 'codellama-7b', limit: 1 });
  const detail = await truth(request, 'getItem', { id: rows[0].id, run: 'codellama-7b' });
  expect(detail.predictions.length).toBe(10);
  await opened(page, `?trace=${rows[0].traceId}&set=crux-out&run=codellama-7b&item=${rows[0].id}`);
  await expect(page.getByTestId('sample')).toHaveCount(10);
  const chips = page.getByTestId('sample');
  for (const [j, p] of detail.predictions.entries())
    await expect(chips.nth(j)).toHaveAttribute('data-verdict', expected(p) ?? 'pending');
  // The first sample's text, as the run stored it.
  await expect(page.getByTestId('raw-completion')).toHaveText(detail.predictions[0].completion);
  await page.screenshot({ path: join(shots, 'overlay-samples.png') });
});

test("an item linked without its set: its own set is overlaid, and only the chosen run's samples are listed", async ({
  page,
  request,
}) => {
  const { rows } = await truth(request, 'listItems', { set: 'crux-out', run: 'gpt-4', limit: 1 });
  const runs = await truth(request, 'listRuns', { set: 'crux-out' });
  const all = await truth(request, 'getItem', { id: rows[0].id });
  expect(all.set).toBe('crux-out');
  for (const run of [undefined, 'gpt-4']) {
    const shown = run ?? runs[0].label;
    const detail = await truth(request, 'getItem', { id: rows[0].id, run: shown });
    // Every run's answers together would be more than the one run's.
    expect(all.predictions.length).toBeGreaterThan(detail.predictions.length);
    await opened(page, `?item=${rows[0].id}${run ? `&run=${run}` : ''}`);
    await expect(page.getByTestId('pick-set')).toHaveValue('crux-out');
    await expect(page.getByTestId('pick-run')).toHaveValue(shown);
    await expect(page.getByTestId('sample')).toHaveCount(detail.predictions.length);
    await expect(page.getByTestId('raw-completion')).toHaveText(detail.predictions[0].completion);
    // The address now names the set, so a reload shows the same.
    await expect(page).toHaveURL(/[?&]set=crux-out/);
  }
});

test("a second run: its verdict on the same node, and its ghost beside the first run's, in the graph shape too", async ({
  page,
  request,
}) => {
  const { rows } = await truth(request, 'listItems', { set: 'crux-bp', limit: 3 });
  const it = rows.find((r) => first(r, 'mutant').correct === false)!;
  await opened(page, `?trace=${it.traceId}&set=crux-bp&run=mutant&run2=oracle`);
  await expect(page.getByTestId('pick-run2')).toHaveValue('oracle');
  await expect(node(page, it)).toHaveAttribute('data-verdict', expected(first(it, 'mutant'))!);
  await expect(node(page, it)).toHaveAttribute('data-verdict2', expected(first(it, 'oracle'))!);
  await page.getByTestId('forward-shape').click();
  await page.getByTestId('forward-fit').click();
  // The graph is wider than its pane: the node may sit under the other pane, so the click is sent to it.
  await node(page, it).dispatchEvent('click');
  await expect(page.getByTestId('prediction-head')).toContainText(`item ${it.key}`);
  // Both runs' ghosts, each with its run's verdict.
  const layer = page.getByTestId('forward-ghost-layer');
  for (const run of ['mutant', 'oracle'])
    await expect(layer.locator(`[data-testid="ghost"][data-run="${run}"]`)).toHaveAttribute(
      'data-verdict',
      expected(first(it, run))!,
    );
  await page.screenshot({ path: join(shots, 'overlay-graph.png') });
  await page.getByTestId('forward-shape').click();
});
