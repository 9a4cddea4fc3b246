// The debugger controls with a fake data source: buttons apply actions, history moves, and
// buttons of the other direction or after the exit are disabled.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import Controls from '../../../renderer/src/views/Controls.svelte';
import { harness, opened, traces } from './setup.js';

describe('Controls', () => {
  beforeAll(() => void traces());

  it('steps with the buttons, goes back and forward in the history, and stops at the exit', async () => {
    const h = harness();
    await opened(h, 2);
    render(Controls, { context: h.context, props: { trees: 'both' } });
    const pos = () => screen.getByTestId('history-pos').textContent;
    await fireEvent.click(screen.getByTestId('act-step_into'));
    await expect.poll(pos).toBe('1/1');
    await fireEvent.click(screen.getByTestId('act-step_over'));
    await expect.poll(pos).toBe('2/2');
    // (The other walks are the probes of the action edges: history plus one action.)
    expect(
      h.source.log.filter((c) => c.method === 'walk').map((c) => (c.params as { actions: string[] }).actions),
    ).toContainEqual(['step_into', 'step_over']);
    await fireEvent.click(screen.getByTestId('back'));
    await expect.poll(pos).toBe('1/2');
    await fireEvent.click(screen.getByTestId('forward'));
    await expect.poll(pos).toBe('2/2');
    // Continue leaves the scope: the exit is shown and every action is disabled.
    await fireEvent.click(screen.getByTestId('act-continue'));
    await expect.poll(() => screen.queryByTestId('exit')?.textContent).toBe('exit_normal');
    for (const a of ['step_into', 'step_over', 'step_return', 'continue', 'inv_step_into']) {
      expect((screen.getByTestId(`act-${a}`) as HTMLButtonElement).disabled, a).toBe(true);
    }
  });

  it('on a forward trajectory with history, the inverse buttons are disabled until a restart', async () => {
    const h = harness();
    await opened(h, 2);
    render(Controls, { context: h.context, props: { trees: 'both' } });
    await fireEvent.click(screen.getByTestId('act-step_into'));
    await expect.poll(() => screen.getByTestId('history-pos').textContent).toBe('1/1');
    expect((screen.getByTestId('act-inv_step_into') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(screen.getByTestId('restart-inverse'));
    await expect.poll(() => (screen.getByTestId('act-inv_step_into') as HTMLButtonElement).disabled).toBe(false);
    expect(h.app.explorer.direction).toBe('inverse');
  });
});
