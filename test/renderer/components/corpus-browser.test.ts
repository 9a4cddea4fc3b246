// The corpus browser with a fake data source: the total and rows come from the source, a row
// opens its trace, reversing the order asks the source again; only the newest open lands.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import CorpusBrowser from '../../../renderer/src/views/CorpusBrowser.svelte';
import { harness, traces } from './setup.js';

describe('CorpusBrowser', () => {
  beforeAll(() => void traces());

  it('lists the traces of the source, opens one on click, and reverses the order', async () => {
    const h = harness();
    render(CorpusBrowser, { context: h.context });
    const names = () => screen.queryAllByTestId('trace-row').map((r) => within(r).queryByText(/\.py$/)?.textContent);
    await expect.poll(() => screen.getByTestId('corpus-total').textContent).toBe(`${traces().length} traces`);
    await expect.poll(names).toEqual(traces().map((t) => t.header.name));
    await fireEvent.click(screen.getAllByTestId('trace-row')[1]);
    await expect.poll(() => h.app.explorer.traceId).toBe(2);
    expect(screen.getAllByTestId('trace-row')[1].getAttribute('aria-selected')).toBe('true');
    await fireEvent.click(screen.getByRole('button', { name: 'Reverse the order' }));
    await expect.poll(names).toEqual(
      traces()
        .map((t) => t.header.name)
        .reverse(),
    );
    expect(h.source.log.filter((c) => c.method === 'listTraces').at(-1)!.params).toMatchObject({ desc: true });
  });

  it('two traces opened quickly: the one clicked last stays, whenever the first answers', async () => {
    const h = harness();
    const release = h.source.hold('getSkeleton', (p) => p.traceId === 1);
    const first = h.app.explorer.open(1);
    await h.app.explorer.open(2);
    release();
    await first;
    expect(h.app.explorer.traceId).toBe(2);
    expect(h.app.explorer.info?.header.name).toBe(traces()[1].header.name);
  });
});
