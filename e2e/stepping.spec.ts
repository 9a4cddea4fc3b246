// Stepping with the keyboard through every action kind, checked against the API's truth.
import { expect, test } from '@playwright/test';
import { expectShowsWalk, openTrace, press, skeleton, traceId, truth } from './helpers.js';

test('forward: F11, F10, a gutter breakpoint, Shift+F11 and F5 on a script with calls', async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  await page.goto('./');
  await openTrace(page, 'calls.py');
  const actions: string[] = [];
  await expectShowsWalk(page, request, id, 'forward', actions);

  for (const [key, action] of [
    ['F11', 'step_into'],
    ['F11', 'step_into'],
    ['F10', 'step_over'],
    ['F10', 'step_over'],
  ] as const) {
    actions.push(action);
    await press(page, key, actions.length);
    await expectShowsWalk(page, request, id, 'forward', actions);
  }

  // Clicking a line number runs to that line: `    y = x * x` inside square().
  const info = await truth(request, 'getTrace', { id });
  const lines = info.header.context_forward.split('\n');
  const lineNo = lines.indexOf('    y = x * x') + 1;
  expect(lineNo).toBeGreaterThan(0);
  await page
    .getByTestId('code-view')
    .locator('.cm-lineNumbers .cm-gutterElement', { hasText: new RegExp(`^${lineNo}$`) })
    .click();
  actions.push(`breakpoint ${lines[lineNo - 1]}`);
  await expect(page.getByTestId('history-pos')).toHaveText(`${actions.length}/${actions.length}`);
  const { event } = await expectShowsWalk(page, request, id, 'forward', actions);
  expect(event.func).toBe('square');

  actions.push('step_return');
  await press(page, 'Shift+F11', actions.length);
  const after = await expectShowsWalk(page, request, id, 'forward', actions);
  expect(after.event.event).toBe('return');

  actions.push('continue');
  await press(page, 'F5', actions.length);
  const done = await truth(request, 'walk', { traceId: id, direction: 'forward', actions });
  expect(done.exit).toBe('exit_normal');
  await expect(page.getByTestId('exit')).toHaveText('exit_normal');
  await expect(page.getByTestId('trajectory-text')).toHaveText(done.text);

  // History: back twice, forward once.
  await page.keyboard.press('Alt+BracketLeft');
  await expect(page.getByTestId('history-pos')).toHaveText(`${actions.length - 1}/${actions.length}`);
  await page.keyboard.press('Alt+BracketLeft');
  await expectShowsWalk(page, request, id, 'forward', actions.slice(0, -2));
  await page.keyboard.press('Alt+BracketRight');
  await expectShowsWalk(page, request, id, 'forward', actions.slice(0, -1));
});

test('inverse: Alt+F11, Alt+F10 and Alt+Shift+F11', async ({ page, request }) => {
  const id = await traceId(request, 'calls.py');
  await page.goto('./');
  await openTrace(page, 'calls.py');
  await page.getByTestId('restart-inverse').click();
  const actions: string[] = [];
  await expectShowsWalk(page, request, id, 'inverse', actions);
  for (const [key, action] of [
    ['Alt+F11', 'inv_step_into'],
    ['Alt+F11', 'inv_step_into'],
    ['Alt+F10', 'inv_step_over'],
    ['Alt+F11', 'inv_step_into'],
    ['Alt+F11', 'inv_step_into'],
    ['Alt+Shift+F11', 'inv_step_call'],
  ] as const) {
    actions.push(action);
    await press(page, key, actions.length);
    await expectShowsWalk(page, request, id, 'inverse', actions);
  }
  // A forward key on an inverse trajectory is refused with a message, not applied.
  await page.keyboard.press('F11');
  await expect(page.getByTestId('message')).toContainText('inverse');
  await expect(page.getByTestId('history-pos')).toHaveText(`${actions.length}/${actions.length}`);
});

test('CRUXEval: stepping into f to its end shows the benchmark output as the return value', async ({
  page,
  request,
}) => {
  const id = await traceId(request, 'sample_3');
  const info = await truth(request, 'getTrace', { id });
  await page.goto('./');
  await openTrace(page, 'sample_3');
  // step_into visits every event once, so the trace's event count of presses reaches the exit;
  // one more is refused (the trajectory has exited), however fast the keys come.
  const actions = Array.from({ length: info.end.events }, () => 'step_into');
  for (let k = 0; k <= actions.length; k++) await page.keyboard.press('F11');
  await expect(page.getByTestId('exit')).toHaveText('exit_normal');
  await expect(page.getByTestId('history-pos')).toHaveText(`${actions.length}/${actions.length}`);
  await expect(page.getByTestId('message')).toContainText('exited');
  await page.keyboard.press('Alt+BracketLeft');
  const { event } = await expectShowsWalk(page, request, id, 'forward', actions.slice(0, -1));
  expect(event.event).toBe('return');
  expect(event.func).toBe('main');
  await expect(page.getByTestId('inspector-arg')).toContainText(String(info.header.meta.output));
});

test("CRUXEval input prediction: inverse from f, inv_step_call lands on f's inv_call with its arguments", async ({
  page,
  request,
}) => {
  const id = await traceId(request, 'sample_0');
  await page.goto('./');
  await openTrace(page, 'sample_0');
  // Pick f's call in the forward tree, make it the entry, go inverse.
  const skel = await skeleton(request, id);
  const fCall = skel.kind.findIndex((k, s) => k === 0 && skel.funcs[skel.func[s]] === 'f');
  await page.getByTestId('forward-tree').locator(`[data-seq="${fCall}"]`).click();
  // "Entry here" acts on the state the inspector shows: wait until that is the one clicked.
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-seq', String(fCall));
  await page.getByTestId('set-entry').click();
  await expect(page.getByTestId('entry')).toHaveText(`entry #${fCall}`);
  await page.getByTestId('restart-inverse').click();
  await page.keyboard.press('Alt+Shift+F11');
  await expect(page.getByTestId('history-pos')).toHaveText('1/1');
  const w = await truth(request, 'walk', {
    traceId: id,
    direction: 'inverse',
    entry: fCall,
    actions: ['inv_step_call'],
  });
  const last = w.states[w.states.length - 1];
  expect(last).toEqual({ seq: fCall, event: 'inv_call' });
  await expect(page.getByTestId('inverse-tree').locator('[data-current="true"]')).toHaveAttribute(
    'data-seq',
    String(fCall),
  );
  const [ev] = await truth(request, 'getEvents', { traceId: id, from: fCall, to: fCall + 1 });
  await expect(page.getByTestId('inspector-delta')).toHaveText(
    '{' +
      Object.entries(ev.locals)
        .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
        .join(', ') +
      '}',
  );
});
