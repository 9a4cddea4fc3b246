// How a trace opens (renderer/src/state/explorer/trace-view.svelte.ts): the trees land with their current
// node (from the skeleton) and are given a frame to paint before the first walk's answer fills
// the inspector, even when that answer came first; then the walk is the API's.
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, traces } from './setup.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('opening a trace', () => {
  beforeAll(() => void traces());

  it('draws the trees with the current node before the first walk lands, then takes the walk', async () => {
    const h = harness();
    const ex = h.app.explorer;
    const opening = ex.open(1);
    // The walk is asked for at once and answered at once by the fake source.
    while (!ex.fwd) await tick();
    expect(h.source.log.some((c) => c.method === 'walk')).toBe(true);
    expect(ex.walk).toBeNull();
    expect(ex.current).toEqual({ seq: 0, event: 'call' });
    expect(ex.inv).not.toBeNull();
    await opening;
    expect(ex.walk?.states.map((s) => [s.seq, s.event])).toEqual([[0, 'call']]);
    expect(ex.current).toEqual(ex.walk?.states[0]);
    expect(ex.selected?.seq).toBe(0);
    expect(ex.loading).toBe(false);
  });

  it('a step asked for once the trees are drawn, before the first walk lands, is applied after it', async () => {
    const h = harness();
    const ex = h.app.explorer;
    const opening = ex.open(1);
    while (!ex.fwd) await tick();
    expect(ex.walk).toBeNull();
    const stepped = ex.act('step_into');
    await opening;
    await stepped;
    expect(ex.cursor).toBe(1);
    expect(ex.actions).toEqual(['step_into']);
    expect(ex.walk?.states.length).toBe(2);
  });

  it('a second trace opened while the first waits for its paint: only the second lands', async () => {
    const h = harness();
    const ex = h.app.explorer;
    const first = ex.open(1);
    while (!ex.fwd) await tick();
    await ex.open(2);
    await first;
    expect(ex.traceId).toBe(2);
    expect(ex.walk?.states[0].seq).toBe(0);
    expect(ex.fwd?.size).toBe(traces()[1].events.length);
  });
});
