// Where each action leads from the current state (explorer.targets, drawn as the trees' action
// edges): for every action of the trajectory's direction, the state the semantics' walk of
// history + that action ends on (the fake source walks with the real semantics), or its exit.
import { describe, expect, it } from 'vitest';
import { harness, opened, traces } from './setup.js';

describe('action targets', () => {
  it('forward: the four actions and the chosen breakpoint; inverse: the three inverse actions; none after the exit', async () => {
    traces();
    const h = harness();
    await opened(h, 1);
    const ex = h.app.explorer;
    const sq = ex.lines.findIndex((l) => l === '    y = x * x') + 1;
    expect(sq).toBeGreaterThan(0);
    ex.chooseLine(sq);
    await ex.act('step_into', 'step_into');
    const truth = async (direction: 'forward' | 'inverse', history: string[], action: string) => {
      const w = await h.source.call('walk', { traceId: 1, direction, entry: 0, actions: [...history, action] });
      const last = w.states[w.states.length - 1];
      return w.exit ? { target: null, exit: w.exit } : { target: { seq: last.seq, event: last.event }, exit: null };
    };
    const forward = ['step_into', 'step_over', 'step_return', 'continue', `breakpoint ${ex.lines[sq - 1]}`];
    await expect.poll(() => ex.targets.length).toBe(5);
    for (const a of forward) {
      const t = ex.targets.find((x) => x.action === a)!;
      expect(t, a).toBeTruthy();
      expect({ target: t.target, exit: t.exit }, a).toEqual(await truth('forward', ['step_into', 'step_into'], a));
    }
    expect(ex.targets.find((x) => x.action.startsWith('breakpoint'))!.label).toBe(`breakpoint L${sq}`);
    expect(ex.targets.find((x) => x.action === 'continue')!.exit).toBe('exit_normal');

    await ex.restart('inverse', 0);
    await ex.act('inv_step_into');
    await expect
      .poll(() => ex.targets.map((t) => t.action))
      .toEqual(['inv_step_into', 'inv_step_over', 'inv_step_call']);
    for (const t of ex.targets)
      expect({ target: t.target, exit: t.exit }, t.action).toEqual(await truth('inverse', ['inv_step_into'], t.action));

    await ex.restart('forward', 0);
    await ex.act('continue');
    expect(ex.ended).toBe(true);
    await expect.poll(() => ex.targets.length).toBe(0);
  });
});
