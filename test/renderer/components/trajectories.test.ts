// The trajectory panel with a fake data source: sampled trajectories page by page (bug 5: the
// tab said 490 and listed 200), the history as a list that moves the cursor, and the
// serialized text split into prompt and target at the selected state as the semantics cut it.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrajectoryRow } from '../../../src/contract/index.js';
import { Scope, buildTraceIndex, parseAction, promptTarget, textParts, walk } from '../../../src/semantics/index.js';
import Trajectories from '../../../renderer/src/views/Trajectories.svelte';
import { harness, opened, traces } from './setup.js';

const rows = (n: number): TrajectoryRow[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    traceId: 1,
    direction: 'forward',
    entry: 0,
    actions: ['step_into'],
    exit: null,
    states: 2,
  }));

describe('Trajectories', () => {
  beforeAll(() => void traces());

  it('lists every sampled trajectory, a page at a time', async () => {
    const h = harness(rows(250));
    await opened(h, 1);
    render(Trajectories, { context: h.context });
    await expect.poll(() => screen.getByTestId('tab-saved').textContent).toBe('Sampled (250)');
    await fireEvent.click(screen.getByTestId('tab-saved'));
    await expect.poll(() => screen.queryAllByTestId('trajectory-row').length).toBe(100);
    for (const n of [200, 250]) {
      await fireEvent.click(screen.getByTestId('more-trajectories'));
      await expect.poll(() => screen.queryAllByTestId('trajectory-row').length).toBe(n);
    }
    expect(screen.queryByTestId('more-trajectories')).toBeNull();
    expect(new Set(screen.getAllByTestId('trajectory-row').map((r) => r.getAttribute('data-trajectory-id'))).size).toBe(
      250,
    );
  });

  it('the history list moves the cursor; the text splits into prompt and target at the selected state', async () => {
    const h = harness();
    await opened(h, 1);
    const actions = ['step_into', 'step_into', 'step_over', 'step_into'];
    render(Trajectories, { context: h.context });
    await h.app.explorer.act(...actions);
    await fireEvent.click(screen.getByTestId('tab-history'));
    const items = () => screen.getAllByTestId('history-item');
    expect(
      items()
        .map((b) => b.textContent!.replace(/\s+/g, ' ').trim())
        .slice(1),
    ).toEqual(actions.map((a, k) => `${k + 1} ${a}`));
    await fireEvent.click(items()[2]);
    await expect.poll(() => h.app.explorer.cursor).toBe(2);
    expect(h.app.explorer.actions).toEqual(actions);

    // Selected state 2 of the walk: prompt and target as the semantics cut them (§6).
    await fireEvent.click(screen.getByTestId('tab-text'));
    const t = traces()[0];
    const ix = buildTraceIndex(t.events);
    const traj = walk(new Scope(ix, 0), 'forward', actions.slice(0, 2).map(parseAction));
    const want = promptTarget(textParts(ix, traj, t.header.context_forward), 1);
    await expect.poll(() => screen.queryByTestId('split') !== null).toBe(true);
    const text = screen.getByTestId('trajectory-text');
    expect([...text.querySelectorAll('.prompt')].map((e) => e.textContent).join('')).toBe(want.prompt);
    expect([...text.querySelectorAll('.target')].map((e) => e.textContent).join('')).toBe(want.target);
    // Special tokens are marked, and the whole text is still exactly the walk's text.
    expect(text.textContent).toBe(h.app.explorer.walk!.text);
    const tokens = [...text.querySelectorAll('.tok')].map((e) => e.textContent);
    expect(tokens.every((x) => /^<\|[a-z_]+\|>$/.test(x!))).toBe(true);
    expect(screen.getByTestId('text-length').textContent).toContain(`${tokens.length} special tokens`);
  });
});
