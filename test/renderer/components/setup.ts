/**
 * Shared set-up of the component tests: a few small programs recorded by the real recorder,
 * an app state over a FakeSource, and a helper that waits for the explorer to settle.
 */
import { waitFor } from '@testing-library/svelte';
import type { TrajectoryRow } from '../../../src/contract/index.js';
import { contextMap, createAppState, type AppState } from '../../../renderer/src/lib/context.js';
import { record, type Trace } from '../../semantics/helpers.js';
import { FakeSource } from './fake-source.js';

export const PROGRAMS = {
  // Calls, a loop, an exception and a non-ASCII value.
  calls: `def square(x):
    y = x * x
    return y


def total(xs):
    acc = 0
    for x in xs:
        acc += square(x)
    word = "café"
    return acc


print(total([1, 2, 3]))
`,
  flat: `a = 1
b = [1, 2]
a = 3
`,
};

let cache: Trace[] | null = null;
export function traces(): Trace[] {
  if (!cache) {
    cache = Object.entries(PROGRAMS).map(([name, src]) => {
      const t = record(src, null);
      t.header.name = `${name}.py`;
      return t;
    });
  }
  return cache;
}

export interface Harness {
  app: AppState;
  source: FakeSource;
  context: Map<symbol, unknown>;
}

export function harness(trajectories: TrajectoryRow[] = []): Harness {
  const source = new FakeSource(traces(), trajectories);
  const app = createAppState(source);
  return { app, source, context: contextMap(app) };
}

/** Opens trace `id` and waits until its first state is shown. */
export async function opened(h: Harness, id: number): Promise<void> {
  await h.app.explorer.open(id);
  await waitFor(() => {
    if (!h.app.explorer.selectedEvent) throw new Error('no state shown yet');
  });
}
