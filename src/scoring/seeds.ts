/**
 * Scoring under a second hash seed: the same generations run by a pool per seed, and the
 * generations whose verdict flips listed. A pass that flips depends on set/dict iteration
 * order of strings (PYTHONHASHSEED), i.e. on luck rather than on the model.
 */
import { seedFlips, type SeedFlip } from './compare.js';
import { scoreCruxeval, type CruxevalOptions, type CruxevalScore, type CruxevalTask } from './cruxeval.js';
import { withExecPool, type ExecPoolOptions } from './pool.js';

export interface SeedComparison {
  /** One score per seed, in the order of `seeds`. */
  scores: [CruxevalScore, CruxevalScore];
  flips: SeedFlip[];
}

export async function scoreUnderTwoSeeds(
  tasks: readonly CruxevalTask[],
  generations: Readonly<Record<string, readonly string[]>>,
  options: CruxevalOptions & { seeds: [number, number]; pool?: Omit<ExecPoolOptions, 'hashseed'> },
): Promise<SeedComparison> {
  const score = (hashseed: number) =>
    withExecPool({ ...options.pool, hashseed }, (pool) => scoreCruxeval(pool, tasks, generations, options));
  const a = await score(options.seeds[0]);
  const b = await score(options.seeds[1]);
  return { scores: [a, b], flips: seedFlips(a, b) };
}
