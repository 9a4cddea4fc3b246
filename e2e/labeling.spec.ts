// The labeling queue in the browser, on CodeLlama-7B's CRUXEval output failures (the corpus is
// made by e2e/annotation-fixture.mjs): 20 failures labeled with the keyboard only and checked
// in the stored annotations and history; a server killed mid-burst losing nothing the page
// showed as saved; two annotators in the agreement view with an adjudicator.
//
// The labels given come from the published verdict and the two values' Python types, not from
// the rules: a failing output prediction returns a wrong value (return.wrong_value), and when
// the predicted literal is of another type than the true one, also data.wrong_type. The
// pre-label precision against these labels is printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { AnnotationInfo, AnnotationItem, HistoryInfo, AgreementInfo } from '../src/contract/index.js';
import { truth } from './helpers.js';

const SET = 'crux-out';
const RUN = 'codellama-7b';

/** A Python literal's type by its first characters (enough for CRUXEval's values). */
function pyType(v: string): string {
  const s = v.trim();
  if (/^[rbuf]?['"]/i.test(s)) return 'str';
  if (s.startsWith('[')) return 'list';
  if (s.startsWith('(')) return 'tuple';
  if (s.startsWith('{')) return s === '{}' || /^\{\s*[^:]*:/.test(s) ? 'dict' : 'set';
  if (s === 'True' || s === 'False') return 'bool';
  if (s === 'None') return 'None';
  if (/^-?\d+$/.test(s)) return 'int';
  if (/^-?[\d.]+(e-?\d+)?$/i.test(s)) return 'float';
  return 'other';
}

function labelsFor(item: AnnotationItem): string[] {
  const p = item.predicted?.arg;
  const t = item.truth.arg;
  const out = ['return.wrong_value'];
  if (typeof p === 'string' && typeof t === 'string' && pyType(p) !== pyType(t)) out.push('data.wrong_type');
  return out;
}

async function openQueue(page: Page, annotator: string): Promise<void> {
  await page.getByTestId('view-label').click();
  await expect(page.getByTestId('label-run')).toHaveValue(RUN);
  await page.getByTestId('annotator').fill(annotator);
  await page.getByTestId('annotator').press('Enter');
  await expect(page.getByTestId('item-key')).toBeVisible();
}

/**
 * Types the keys the page shows beside the label (its group's letter first when that group is
 * not open); waits until it shows as saved.
 */
async function give(page: Page, id: string): Promise<void> {
  const option = page.locator(`[data-testid="label-option"][data-label="${id}"]`);
  const keys = ((await option.getAttribute('data-keys')) ?? '').split(' ').filter(Boolean);
  expect(keys.length, id).toBeGreaterThan(0);
  expect(keys.length, id).toBeLessThanOrEqual(2);
  for (const k of keys) await page.keyboard.press(k);
  await expect(option).toHaveAttribute('data-on', 'true');
  await expect(page.getByTestId('save-state')).toHaveText('saved');
}

test.describe.configure({ mode: 'serial' });

test('20 failures labeled with the keyboard only; the labels and their history are stored', async ({
  page,
  request,
}) => {
  const tax = await truth(request, 'getTaxonomy', {});
  const queue = await truth(request, 'annotationQueue', { set: SET, run: RUN, annotator: 'ada' });
  expect(queue.entries.length).toBeGreaterThanOrEqual(20);
  await page.goto('/');
  await openQueue(page, 'ada');
  const given = new Map<number, string[]>();
  const t0 = Date.now();
  for (let i = 0; i < 20; i++) {
    const e = queue.entries[i];
    await expect(page.getByTestId('item-position')).toHaveText(`${i + 1} / ${queue.entries.length}`);
    await expect(page.getByTestId('item-key')).toHaveText(e.key);
    const item = await truth(request, 'getAnnotationItem', { prediction: e.prediction, annotator: 'ada' });
    const labels = labelsFor(item);
    for (const l of labels) await give(page, l);
    if (i === 3) {
      await page.keyboard.press('n');
      await page.keyboard.type('value off by the loop');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('save-state')).toHaveText('saved');
    }
    given.set(e.prediction, labels);
    await page.keyboard.press('Enter');
  }
  await expect(page.getByTestId('item-position')).toHaveText(`21 / ${queue.entries.length}`);
  const perItem = (Date.now() - t0) / 20;
  await expect(page.getByTestId('progress-text')).toHaveText(`20 / ${queue.entries.length} done`);

  // Ctrl+Z undoes the last change (the 20th item's last label), shown and stored.
  const last = queue.entries[19];
  await page.keyboard.press('Control+z');
  // The position moves back once the undo is stored; the key alone can match at once when the
  // 20th and 21st entries are samples of one task (failed once in CI: the corpus was read
  // before the undo landed).
  await expect(page.getByTestId('item-position')).toHaveText(`20 / ${queue.entries.length}`);
  await expect(page.getByTestId('item-key')).toHaveText(last.key);
  const was = given.get(last.prediction)!;
  await expect(page.getByTestId('given-labels')).not.toContainText(
    tax.labels.find((l) => l.id === was[was.length - 1])!.name,
  );
  given.set(last.prediction, was.length > 1 ? was.slice(0, -1) : []);

  const stored = await truth(request, 'listAnnotations', { set: SET, run: RUN, annotator: 'ada' });
  const byPrediction = new Map(stored.rows.map((a: AnnotationInfo) => [a.prediction, a]));
  for (const [p, labels] of given) {
    if (labels.length) expect(byPrediction.get(p)?.labels, `prediction ${p}`).toEqual(labels);
    else expect(byPrediction.has(p)).toBe(false); // its creation was undone
  }
  expect(byPrediction.get(queue.entries[3].prediction)?.note).toBe('value off by the loop');
  const history = await truth(request, 'annotationHistory', { annotator: 'ada' });
  expect(history.filter((h: HistoryInfo) => h.op === 'create')).toHaveLength(20);
  expect(history[history.length - 1].op).toBe('undo');

  // Pre-label precision against the labels given (the rules' own judged/accepted, from the API).
  const g = await truth(request, 'getAgreement', { set: SET, run: RUN });
  console.log(
    `labeling: ${perItem.toFixed(0)} ms per labeled item (keyboard, 20 items); pre-label precision ${g.rules.precision?.toFixed(3)} (${g.rules.accepted} of ${g.rules.judged} judged suggestions given); per rule: ${g.rules.rules.map((r) => `${r.rule} ${r.accepted}/${r.judged}`).join(', ')}`,
  );
  await page.screenshot({ path: 'test-results/labeling-queue.png' });
  await page.keyboard.press('?');
  await expect(page.getByTestId('cheatsheet')).toBeVisible();
  await page.screenshot({ path: 'test-results/labeling-cheatsheet.png' });
});

test("every group's labels in sight: two keys at most, the suggestions marked with their reason, A gives them", async ({
  page,
  request,
}) => {
  const tax = await truth(request, 'getTaxonomy', {});
  const queue = await truth(request, 'annotationQueue', { set: SET, run: RUN, annotator: 'zed' });
  // An entry the rules made suggestions on, nobody else labeled: zed's first.
  const at = queue.entries.findIndex((e) => e.prelabels.length && !e.annotators.length);
  expect(at).toBeGreaterThanOrEqual(0);
  await page.goto('/');
  await openQueue(page, 'zed');
  for (let i = 0; i < at; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('item-position')).toHaveText(`${at + 1} / ${queue.entries.length}`);
  const active = tax.labels.filter((l) => !l.deprecated);
  await expect(page.getByTestId('label-option')).toHaveCount(active.length);
  const keys = await page.getByTestId('label-option').evaluateAll((els) => els.map((e) => e.getAttribute('data-keys')));
  expect(keys.every((k) => k && k.split(' ').length <= 2)).toBe(true);
  const suggested = [...new Set(queue.entries[at].prelabels)];
  for (const id of suggested) {
    const option = page.locator(`[data-testid="label-option"][data-label="${id}"]`);
    await expect(option).toHaveAttribute('data-suggested', 'true');
    await expect(option.getByTestId('suggestion-reason')).not.toBeEmpty();
  }
  await expect(page.locator('[data-testid="label-option"][data-suggested="true"]')).toHaveCount(suggested.length);
  // ada labeled 20 items before zed opened the queue: her progress is in the header.
  await expect(page.locator('[data-testid="annotator-progress"][data-annotator="ada"]')).toContainText(
    `/ ${queue.entries.length}`,
  );
  for (const [w, h] of [
    [1280, 720],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `test-results/labeling-sight-${w}x${h}.png` });
  }
  await page.keyboard.press('a');
  for (const id of suggested)
    await expect(page.locator(`[data-testid="label-option"][data-label="${id}"]`)).toHaveAttribute('data-on', 'true');
  await expect(page.getByTestId('save-state')).toHaveText('saved');
  await expect(page.getByTestId('item-position')).toHaveText(`${at + 1} / ${queue.entries.length}`);
  // A group opened by its letter does not carry over to the next item.
  await page.keyboard.press('e');
  await expect(page.locator('[data-testid="group"][data-group="data"]')).toHaveClass(/open/);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('item-position')).toHaveText(`${at + 2} / ${queue.entries.length}`);
  await expect(page.locator('[data-testid="group"]').first()).toHaveClass(/open/);
  // Leave no label behind for the agreement test: zed's one change undone.
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('item-position')).toHaveText(`${at + 1} / ${queue.entries.length}`);
  await expect(page.getByTestId('given-labels')).toHaveText('—');
  await expect(page.getByTestId('save-state')).toHaveText('saved');
});

test('a server killed mid-burst loses nothing the page showed as saved', async ({ page }) => {
  const root = resolve(import.meta.dirname, '..');
  const start = async (): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> => {
    const child = spawn(
      process.execPath,
      [resolve(root, 'bin/stepscope.js'), 'serve', '--db', process.env.STEPSCOPE_E2E_DB!, '--port', '0'],
      { cwd: root },
    );
    const exited = new Promise((ok) => child.once('exit', ok));
    const url = await new Promise<string>((ok, fail) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /(http:\/\/\S+)/.exec(out);
        if (m) ok(m[1]);
      });
      child.on('exit', (c) => fail(new Error(`serve exited ${c}`)));
    });
    return { child, url, exited };
  };
  const first = await start();
  // Every annotate answer that reached the page is a label shown as saved.
  const shown: AnnotationInfo[] = [];
  page.on('response', async (r) => {
    if (!r.url().endsWith('/api/annotate')) return;
    const body = await r.json().catch(() => null);
    if (body?.ok) shown.push(body.value);
  });
  await page.goto(first.url);
  await openQueue(page, 'kim');
  // A burst: keys as fast as they come, no waiting for the saves.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    await page.keyboard.press(String((i % 3) + 1));
    if (i % 2) await page.keyboard.press('Enter');
    if (i === 8) {
      // Killed with saves in flight, once at least one has reached the page (a loaded machine
      // may not have answered any of the first eight yet).
      await expect.poll(() => shown.length).toBeGreaterThan(0);
      first.child.kill('SIGKILL');
    }
  }
  await first.exited;
  expect(shown.length).toBeGreaterThan(0);

  const again = await start();
  try {
    const call = async <T>(method: string, params: unknown): Promise<T> => {
      const r = await fetch(`${again.url}api/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(params),
      });
      const b = await r.json();
      if (!b.ok) throw new Error(b.error.message);
      return b.value as T;
    };
    const history = await call<HistoryInfo[]>('annotationHistory', { annotator: 'kim' });
    const stored = new Map(
      (await call<{ rows: AnnotationInfo[] }>('listAnnotations', { annotator: 'kim' })).rows.map((a) => [
        a.target,
        a.labels,
      ]),
    );
    for (const s of shown) {
      // Each saved state is in the history, and what is stored now is that state or a later one.
      const states = history.filter((h) => h.target === s.target).map((h) => JSON.stringify(h.after.labels));
      expect(states, s.target).toContain(JSON.stringify(s.labels));
      expect(states.slice(states.indexOf(JSON.stringify(s.labels)))).toContain(JSON.stringify(stored.get(s.target)));
    }
    const lastShown = new Map(shown.map((s) => [s.target, s.labels]));
    console.log(
      `kill mid-burst: ${shown.length} saves shown, ${lastShown.size} items, ${history.length} changes stored`,
    );
  } finally {
    again.child.kill('SIGTERM');
  }
});

test('two annotators: the agreement view shows kappa and alpha, and an adjudicator settles a disagreement', async ({
  page,
  request,
}) => {
  const q = await truth(request, 'annotationQueue', { set: SET, run: RUN, annotator: 'bob' });
  const ada = await truth(request, 'listAnnotations', { set: SET, run: RUN, annotator: 'ada' });
  const mine = new Map(ada.rows.map((a) => [a.prediction, a.labels]));
  const both = q.entries.filter((e) => mine.get(e.prediction)?.length).slice(0, 8);
  // bob agrees with ada on the first six and labels the last two differently.
  for (const [i, e] of both.entries()) {
    const labels = i < 6 ? mine.get(e.prediction)! : ['control.loop_iteration'];
    await truth(request, 'annotate', { target: { prediction: e.prediction }, labels, annotator: 'bob' });
  }
  const g: AgreementInfo = await truth(request, 'getAgreement', { set: SET, run: RUN });
  const pair = g.pairs.find((p) => p.a === 'ada' && p.b === 'bob')!;
  expect(pair.items).toBe(8);
  expect(pair.observed).toBeCloseTo(6 / 8, 10);

  await page.goto('/');
  await page.getByTestId('view-agreement').click();
  const row = page.getByTestId('pair').filter({ hasText: 'bob' }).filter({ hasText: 'ada' });
  await expect(row.getByTestId('kappa')).toHaveText(pair.kappa === null ? 'n/a' : pair.kappa.toFixed(3));
  await expect(page.getByTestId('alpha')).toHaveText(g.alpha === null ? 'n/a' : g.alpha.toFixed(3));
  const target = `prediction:${both[7].prediction}`;
  const dis = page.locator(`[data-testid="disagreement"][data-target="${target}"]`);
  await expect(dis).toBeVisible();
  await page.getByTestId('adjudicator').fill('dora');
  await dis.getByTestId('take').filter({ hasText: 'ada:' }).click();
  await expect(dis.getByTestId('final')).toHaveText(`final (dora): ${mine.get(both[7].prediction)!.join(' + ')}`);
  const after = await truth(request, 'getAgreement', { set: SET, run: RUN });
  expect(after.disagreements.find((d) => d.target === target)!.final).toEqual({
    annotator: 'dora',
    labels: mine.get(both[7].prediction),
  });
  await page.screenshot({ path: 'test-results/agreement.png', fullPage: true });
});

test("the queue's filter narrows it to exactly the items the API lists, in order, and labeling one moves on to the next of them", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const all = await truth(request, 'annotationQueue', { set: SET, run: RUN, annotator: 'flo' });
  expect(all.facets.annotators).toEqual(expect.arrayContaining(['ada', 'bob']));
  expect(all.facets.prelabels.length).toBeGreaterThan(0);
  await page.goto('/');
  await openQueue(page, 'flo');
  const count = page.getByTestId('filter-count');
  await expect(count).toHaveText(`${all.entries.length} items`);

  // Labeled by ada: the items she labeled in the first test.
  await page.getByTestId('filter-by').selectOption('ada');
  const byAda = await truth(request, 'annotationQueue', { set: SET, run: RUN, annotator: 'flo', by: 'ada' });
  expect(byAda.entries.length).toBeLessThan(all.entries.length);
  await expect(count).toHaveText(`${byAda.entries.length} items`);
  await expect(page.getByTestId('item-key')).toHaveText(byAda.entries[0].key);

  // A pre-label, not labeled by anybody, wrong on the return value: walk it with → against the API's list.
  await page.getByTestId('filter-by').selectOption('');
  const prelabel = all.facets.prelabels[0];
  await page.getByTestId('filter-prelabel').selectOption(prelabel);
  await page.getByTestId('filter-labeled').selectOption('no');
  await page.locator('[data-testid="filter-wrong"][data-field="arg"]').click();
  const want = await truth(request, 'annotationQueue', {
    set: SET,
    run: RUN,
    annotator: 'flo',
    prelabel,
    labeled: 'no',
    wrong: ['arg'],
  });
  expect(want.entries.length).toBeGreaterThan(2);
  expect(want.entries.length).toBeLessThan(all.entries.length);
  await expect(count).toHaveText(`${want.entries.length} items`);
  // Every item when there are few; the first 15 and the count otherwise (the test's time stays bounded).
  const walk = Math.min(want.entries.length, 15);
  const shown: string[] = [];
  for (let i = 0; i < walk; i++) {
    await expect(page.getByTestId('item-position')).toHaveText(`${i + 1} / ${want.entries.length}`);
    shown.push(await page.getByTestId('item-key').innerText());
    await expect(page.locator(`[data-testid="prelabel"][data-label="${prelabel}"]`)).toBeVisible();
    await page.keyboard.press('ArrowRight');
  }
  expect(shown).toEqual(want.entries.slice(0, walk).map((e) => e.key));

  // Labeling the first item takes it out of "labeled by nobody", yet Enter opens the second the API listed.
  for (let i = walk; i > 0; i--) await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('item-position')).toHaveText(`1 / ${want.entries.length}`);
  // The position moves at once, the item when it has arrived: Enter acts on the item shown.
  await expect(page.getByTestId('item-key')).toHaveText(want.entries[0].key);
  await page.keyboard.press('Enter'); // accepts the pre-labels
  await expect(page.getByTestId('item-position')).toHaveText(`2 / ${want.entries.length}`);
  await expect(page.getByTestId('item-key')).toHaveText(want.entries[1].key);
  await expect(page.getByTestId('progress-text')).toHaveText(`1 / ${want.entries.length} done`);
  const after = await truth(request, 'annotationQueue', {
    set: SET,
    run: RUN,
    annotator: 'flo',
    prelabel,
    labeled: 'no',
    wrong: ['arg'],
  });
  expect(after.entries.map((e) => e.prediction)).toEqual(want.entries.slice(1).map((e) => e.prediction));
  await page.screenshot({ path: 'test-results/labeling-filter.png' });

  // The filter is remembered: a reload reopens the same queue, where flo stopped in it.
  await page.reload();
  await openQueue(page, 'flo');
  await expect(page.getByTestId('filter-prelabel')).toHaveValue(prelabel);
  await expect(count).toHaveText(`${after.entries.length} items`);
  await expect(page.getByTestId('item-key')).toHaveText(after.entries[0].key);
});

test('the taxonomy editor adds, edits and retires a label as new versions; a key clash is refused and nothing is stored', async ({
  page,
  request,
}) => {
  const before = await truth(request, 'getTaxonomy', {});
  const taken = before.labels.find((l) => l.id === 'data.wrong_type')!;
  await page.goto('/');
  await page.getByTestId('view-label').click();
  await page.getByTestId('annotator').fill('tess');
  await page.getByTestId('taxonomy-open').click();
  await expect(page.getByTestId('taxonomy-version')).toHaveText(`version ${before.version}`);

  // A new label of Data on the key "Wrong type" holds: refused, naming the holder.
  await page.locator('[data-testid="taxonomy-group"][data-group="data"]').getByTestId('add-label').click();
  await page.getByTestId('form-key').selectOption(String(taken.key));
  await page.getByTestId('form-name').fill('Off by one');
  await page.getByTestId('form-description').fill('A count or index one too high or too low.');
  await page.getByTestId('form-predicted').fill('{"n": "3"}');
  await page.getByTestId('form-truth').fill('{"n": "2"}');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('taxonomy-error')).toContainText(
    `key ${taken.key} is taken in Data by "${taken.name}" (data.wrong_type): free keys:`,
  );
  expect((await truth(request, 'getTaxonomy', {})).version).toBe(before.version);
  await page.screenshot({ path: 'test-results/taxonomy-clash.png' });

  // On a free key it is stored as the next version.
  const free = [1, 2, 3, 4, 5, 6, 7, 8, 9].find(
    (k) => !before.labels.some((l) => l.group === 'data' && !l.deprecated && l.key === k),
  )!;
  await page.getByTestId('form-key').selectOption(String(free));
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('taxonomy-saved')).toHaveText(
    `Off by one added: saved as version ${before.version + 1}.`,
  );
  let now = await truth(request, 'getTaxonomy', {});
  expect(now.labels.find((l) => l.id === 'data.off_by_one')).toMatchObject({
    group: 'data',
    key: free,
    name: 'Off by one',
    example: { predicted: '{"n": "3"}', truth: '{"n": "2"}' },
  });

  // Edited: the id stays, the description changes.
  const row = page.locator('[data-testid="taxonomy-label"][data-label="data.off_by_one"]');
  await row.getByTestId('edit-label').click();
  await page.getByTestId('form-description').fill('A loop counter or index one off.');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('taxonomy-version')).toHaveText(`version ${before.version + 2}`);
  expect((await truth(request, 'getTaxonomy', {})).labels.find((l) => l.id === 'data.off_by_one')?.description).toBe(
    'A loop counter or index one off.',
  );

  // In use, then retired: the label and its annotation stay; the queue no longer offers it.
  const q = await truth(request, 'annotationQueue', { set: SET, run: RUN, annotator: 'tess' });
  await truth(request, 'annotate', {
    target: { prediction: q.entries[0].prediction },
    labels: ['data.off_by_one'],
    annotator: 'tess',
  });
  await row.getByTestId('retire-label').click();
  await expect(row).toHaveAttribute('data-retired', 'true');
  now = await truth(request, 'getTaxonomy', {});
  expect(now.version).toBe(before.version + 3);
  expect(now.labels.find((l) => l.id === 'data.off_by_one')?.deprecated).toBe(true);
  const tess = await truth(request, 'listAnnotations', { set: SET, run: RUN, annotator: 'tess' });
  expect(tess.rows.map((a) => a.labels)).toEqual([['data.off_by_one']]);
  await page.screenshot({ path: 'test-results/taxonomy-editor.png' });

  await page.getByTestId('taxonomy-open').click();
  await page.getByTestId('label-start').click();
  await expect(page.getByTestId('item-key')).toBeVisible();
  // Every group's labels are on screen at once, the retired one no more.
  await expect(page.locator('[data-testid="label-option"][data-label="data.wrong_value"]')).toBeVisible();
  await expect(page.locator('[data-testid="label-option"][data-label="data.off_by_one"]')).toHaveCount(0);
});
