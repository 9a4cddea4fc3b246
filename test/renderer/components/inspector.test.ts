// The inspector with a fake data source: it shows the selected state's locals exactly as
// recorded, marks the ones that changed, and the model's view as Python's json.dumps writes it.
import { render, screen, within } from '@testing-library/svelte';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import Inspector from '../../../renderer/src/views/Inspector.svelte';
import { harness, opened, traces } from './setup.js';

/** json.dumps of a dict by Python itself: the independent truth for "as the model sees it". */
function pyDumps(o: Record<string, string>): string {
  return execFileSync('python3', ['-c', 'import json,sys; print(json.dumps(json.loads(sys.stdin.read())), end="")'], {
    input: JSON.stringify(o),
  }).toString();
}

describe('Inspector', () => {
  beforeAll(() => void traces());

  it('shows the locals of the state reached, the changed ones marked, and the delta as json.dumps writes it', async () => {
    const h = harness();
    await opened(h, 1);
    const ev = traces()[0].events;
    // Step into until the state where `word` (a non-ASCII string) is first set.
    const target = ev.findIndex((e) => 'word' in e.locals);
    expect(target).toBeGreaterThan(0);
    render(Inspector, { context: h.context });
    for (let k = 0; k < target; k++) await h.app.explorer.act('step_into');
    const panel = screen.getByTestId('inspector');
    await expect.poll(() => panel.getAttribute('data-seq')).toBe(String(target));

    const rows = within(panel).getAllByTestId('local');
    expect(rows.map((r) => r.getAttribute('data-name'))).toEqual(Object.keys(ev[target].locals));
    for (const r of rows)
      expect(within(r).getByTestId('value').textContent).toContain(ev[target].locals[r.getAttribute('data-name')!]);
    // Only `word` is new since this frame's previous state.
    const changed = rows
      .filter((r) => r.getAttribute('data-changed') === 'true')
      .map((r) => r.getAttribute('data-name'));
    expect(changed).toEqual(['word']);
    // The model sees the forward delta (§6): the new name after the ".." marker for the names
    // left out, escaped as Python escapes it.
    expect(screen.getByTestId('inspector-delta').textContent).toBe(
      pyDumps({ '..': '..', word: ev[target].locals.word }),
    );
    expect(screen.getByTestId('inspector-delta').textContent).toContain('\\u00e9');
  });

  it('shows the return value of a return state', async () => {
    const h = harness();
    await opened(h, 1);
    const ev = traces()[0].events;
    const ret = ev.findIndex((e) => e.event === 'return');
    render(Inspector, { context: h.context });
    await h.app.explorer.select({ seq: ret, event: 'return' });
    await expect.poll(() => screen.queryByTestId('inspector-arg')?.textContent ?? '').toContain(ev[ret].arg!);
  });
});
