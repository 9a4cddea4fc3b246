/**
 * The migration registry: every schema step, in order. To add one, create
 * `NNN-name.ts` exporting `migration` (see types.ts) and add one line below.
 * Numbers in use: 001 initial, 002 trajectories, 003 tampered (recorder trust), 004
 * predictions, 005 annotations, 006 natural sort key, 007 annotations again (for corpora made at 006 before 005
 * landed), 008 the verdicts' covering index, 009 packed trace skeletons, 010 those skeletons kept as bytes, 011
 * reviews per item (review_quotas), 012 programs marked as a benchmark's (benchmark_programs), 013 rollouts
 * (evalsets.task widened to rollout and counterfactual; rollout_targets, rollout_steps), 014 counterfactual
 * traces linked to their origin (counterfactuals).
 * The queries of a new table go in src/store/queries/<domain>.ts (docs/architecture.md).
 */
import type { Migration } from './types.js';
import { migration as m001 } from './001-initial.js';
import { migration as m002 } from './002-trajectories.js';
import { migration as m003 } from './003-tampered.js';
import { migration as m004 } from './004-predictions.js';
import { migration as m005 } from './005-annotations.js';
import { migration as m006 } from './006-name-key.js';
import { migration as m007 } from './007-annotations-late.js';
import { migration as m008 } from './008-verdict-index.js';
import { migration as m009 } from './009-trace-skeletons.js';
import { migration as m010 } from './010-skeleton-bytes.js';
import { migration as m011 } from './011-review-quotas.js';
import { migration as m012 } from './012-benchmark-programs.js';
import { migration as m013 } from './013-rollouts.js';
import { migration as m014 } from './014-counterfactuals.js';

export const MIGRATIONS: readonly Migration[] = checkOrder([
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
]);

/** Fails at load time (so in every test run) if versions are not strictly increasing. */
export function checkOrder(list: Migration[]): readonly Migration[] {
  let prev = 0;
  for (const m of list) {
    if (!Number.isInteger(m.version) || m.version <= prev) {
      throw new Error(`migration registry: version ${m.version} (${m.name}) must be an integer greater than ${prev}`);
    }
    prev = m.version;
  }
  return Object.freeze(list.slice());
}

export type { Migration } from './types.js';
