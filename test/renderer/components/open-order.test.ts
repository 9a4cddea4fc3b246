// How a trace opens (renderer/src/state/explorer/trace-view.svelte.ts): the trees land with their current
// node (from the skeleton) and are given a frame to paint before the first walk's answer fills
// the inspector, even when that answer came first; then the walk is the API's.
import { beforeAll, describe, expect, it } from 'vitest';
import { Explorer } from '../../../renderer/src/state/explorer.svelte.js';
import { pathTo } from '../../../renderer/src/lib/tree/path.js';
import { eventName } from '../../../renderer/src/lib/tree/build.js';
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

  // A counterfactual opens where its edit was (state/counterfactual.svelte.ts): the path to that
  // state is known before its trees are built, so the open's one walk goes there.
  it('opens at a trajectory given up front: its state drawn first, one walk, no walk from the start', async () => {
    const h = harness();
    const ex = h.app.explorer;
    await ex.open(1);
    const fwd = ex.fwd!;
    const seq = 9;
    const node = fwd.plainOf[seq];
    const actions = pathTo(fwd, fwd.plainOf[0], node)!;
    expect(actions.length).toBeGreaterThan(1);
    const event = eventName(fwd, node) as 'line';
    const before = h.source.log.length;
    const opening = ex.open(1, { direction: 'forward', entry: 0, actions, at: { seq, event } });
    while (ex.fwd === fwd || !ex.fwd) await tick();
    expect(ex.walk).toBeNull();
    expect(ex.current).toEqual({ seq, event });
    await opening;
    const walks = h.source.log.slice(before).filter((c) => c.method === 'walk');
    // The open's walk, then the probes of where each action leads from there (all from `actions`).
    expect(walks[0].params).toMatchObject({ actions });
    for (const w of walks)
      expect((w.params as { actions: string[] }).actions.slice(0, actions.length)).toEqual(actions);
    expect(ex.current).toMatchObject({ seq, event });
    expect(ex.cursor).toBe(actions.length);
    expect(ex.selected?.seq).toBe(seq);
  });

  it('a trace shown by a second view is taken from the first, with nothing asked again', async () => {
    const h = harness();
    const ex = h.app.explorer;
    await ex.open(1);
    await ex.runTo('forward', ex.fwd!.plainOf[4]);
    const other = new Explorer(h.source);
    const before = h.source.log.length;
    other.adopt(ex);
    expect(h.source.log.length).toBe(before);
    expect(other.traceId).toBe(1);
    expect(other.fwd).toBe(ex.fwd);
    expect(other.info?.header.name).toBe('calls.py');
    expect(other.selected?.seq).toBe(4);
    expect(other.walk).toBeNull();
    // It is a view of its own: opening another trace in the first leaves it as it was.
    await ex.open(2);
    expect(other.traceId).toBe(1);
    expect(other.skeleton?.count).toBe(traces()[0].events.length);
  });
});
