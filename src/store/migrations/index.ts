/**
 * The migration registry: every schema step, in order. To add one, create
 * `NNN-name.ts` exporting `migration` (see types.ts) and add one line below.
 * Numbers in use or planned: 001 initial (store), 002 trajectories (semantics), 003
 * tampered (recorder trust); predictions and annotations take the next free numbers.
 */
import type { Migration } from './types.js';
import { migration as m001 } from './001-initial.js';
import { migration as m002 } from './002-trajectories.js';
import { migration as m003 } from './003-tampered.js';

export const MIGRATIONS: readonly Migration[] = checkOrder([
  m001,
  m002,
  m003,
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
