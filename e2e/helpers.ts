// Page objects and the source of truth for e2e tests: expected values are read from the
// running server's API (the same corpus the page shows), never hard-coded.
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { decodeSkeleton, type Method, type Params, type Results, type VerdictInfo } from '../src/contract/index.js';

export async function truth<M extends Method>(
  request: APIRequestContext,
  method: M,
  params: Params<M>,
): Promise<Results[M]> {
  // Playwright's request context may reuse a kept-alive socket the server has just closed at its
  // idle timeout (microsoft/playwright#42698): the post then fails with ECONNRESET before the
  // server saw it. A browser retries such a request itself; these reads do too, once.
  const post = () => request.post(`api/${method}`, { data: params, headers: { 'Content-Type': 'application/json' } });
  const r = await post().catch((e: Error) => (/ECONNRESET/.test(e.message) ? post() : Promise.reject(e)));
  const body = await r.json();
  if (!body.ok) throw new Error(`${method}: ${body.error.message}`);
  return body.value as Results[M];
}

/** The mark the docs promise for a prediction's verdicts (docs/explorer.md), or null while a check is pending. */
export function verdictOf(v: VerdictInfo | undefined): string | null {
  if (!v) return null;
  if (v.correct === true) return 'pass';
  if (v.alt === 'pass') return 'alternative';
  if (v.formatError === true) return 'format';
  if (v.correct === false) return 'fail';
  return null;
}

/** The trace's skeleton from the API, unpacked into plain arrays. */
export async function skeleton(request: APIRequestContext, traceId: number) {
  const sk = decodeSkeleton(await truth(request, 'getSkeleton', { traceId }));
  return {
    count: sk.count,
    kind: Array.from(sk.kind),
    parent: Array.from(sk.parent),
    frame: Array.from(sk.frame),
    line: Array.from(sk.line),
    func: Array.from(sk.func),
    funcs: sk.funcs,
  };
}

export async function traceId(request: APIRequestContext, name: string): Promise<number> {
  const { rows } = await truth(request, 'listTraces', { name, limit: 50 });
  const row = rows.find((r) => r.name === name);
  if (!row) throw new Error(`no trace named ${name} in the e2e corpus`);
  return row.id;
}

/**
 * Types `name` into the name filter and waits until the list shows only matching rows: the
 * list filters after a short debounce, and a click before then may land on a row the
 * filtered list is about to replace.
 */
export async function filterByName(page: Page, name: string): Promise<void> {
  await page.getByTestId('search-name').fill(name);
  await expect
    .poll(async () =>
      (await page.getByTestId('trace-row').locator('.name').allInnerTexts()).every((t) => t.includes(name)),
    )
    .toBe(true);
}

export async function openTrace(page: Page, name: string): Promise<void> {
  await filterByName(page, name);
  const row = page
    .getByTestId('trace-row')
    .filter({ has: page.locator('.name', { hasText: new RegExp(`^${name.replace('.', '\\.')}$`) }) });
  // The list reloads while the search settles; a click on a row being refilled opens nothing.
  await expect(async () => {
    await row.first().click();
    await expect(page.getByTestId('code-view')).toContainText(name, { timeout: 2000 });
  }).toPass();
  await expect(page.getByTestId('history-pos')).toHaveText('0/0');
  await expect(page.locator('[data-current="true"]')).toHaveCount(1);
}

/** Presses a key and waits until the history shows `pos` actions applied. */
export async function press(page: Page, key: string, pos: number): Promise<void> {
  await page.keyboard.press(key);
  await expect(page.getByTestId('history-pos')).toHaveText(new RegExp(`^${pos}/`));
}

export function currentNode(page: Page, which: 'forward' | 'inverse') {
  return page.getByTestId(`${which}-tree`).locator('[data-current="true"]');
}

/** Reads the inspector's locals table as {name: shown text}. */
export async function inspectorLocals(page: Page): Promise<Record<string, string>> {
  const rows = page.getByTestId('inspector').getByTestId('local');
  const out: Record<string, string> = {};
  for (const row of await rows.all()) {
    out[(await row.getAttribute('data-name'))!] = (await row.getByTestId('value').innerText()).trim();
  }
  return out;
}

/**
 * Checks that the page shows the truth for the current state of `actions` walked from entry
 * 0: the tree's current node, the code line and the inspector's locals and value.
 */
export async function expectShowsWalk(
  page: Page,
  request: APIRequestContext,
  id: number,
  direction: 'forward' | 'inverse',
  actions: string[],
) {
  const w = await truth(request, 'walk', { traceId: id, direction, actions });
  const st = w.states[w.states.length - 1];
  const node = currentNode(page, direction);
  await expect(node).toHaveAttribute('data-seq', String(st.seq));
  await expect(node).toHaveAttribute('data-event', st.event);
  const [ev] = await truth(request, 'getEvents', { traceId: id, from: st.seq, to: st.seq + 1 });
  await expect(page.getByTestId('code-view')).toHaveAttribute('data-current-line', String(ev.line));
  await expect(page.getByTestId('code-view').getByTestId('current-line')).toHaveText(ev.src);
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(st.seq));
  expect(await inspectorLocals(page)).toEqual(ev.locals);
  if (ev.event === 'return' || ev.event === 'exception') {
    await expect(page.getByTestId('inspector-arg')).toContainText(ev.arg ?? 'null');
  }
  await expect(page.getByTestId('trajectory-text')).toHaveText(w.text);
  return { walk: w, event: ev };
}

/** Each forward action edge (no breakpoint) as drawn: `action → seq event` or `action → exit …`. */
async function drawnTargets(edges: Locator): Promise<string[]> {
  const all = await edges.evaluateAll((es) =>
    es.map((e) => {
      const exit = e.getAttribute('data-exit');
      const to = exit ? `exit ${exit}` : `${e.getAttribute('data-target-seq')} ${e.getAttribute('data-target-event')}`;
      return `${e.getAttribute('data-action')} → ${to}`;
    }),
  );
  return all.filter((a) => !a.startsWith('breakpoint')).sort();
}

/**
 * Waits until the forward tree's action edges are those of the state `history` leads to, as the
 * API walks it. `press` waits for the history's cursor only; the walk of that step (the new
 * current node, then its edges) may still be on its way, and the previous state's edges are
 * drawn meanwhile: read the edges or their chips only after this.
 */
export async function edgesOf(page: Page, request: APIRequestContext, id: number, history: string[]): Promise<void> {
  const want: string[] = [];
  for (const action of ['step_into', 'step_over', 'step_return', 'continue']) {
    const w = await truth(request, 'walk', { traceId: id, direction: 'forward', actions: [...history, action] });
    const last = w.states[w.states.length - 1];
    want.push(`${action} → ${w.exit ? `exit ${w.exit}` : `${last.seq} ${last.event}`}`);
  }
  const edges = page.getByTestId('forward-tree').getByTestId('forward-edges').getByTestId('action-edge');
  await expect.poll(() => drawnTargets(edges)).toEqual(want.sort());
}
