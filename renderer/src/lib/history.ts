/**
 * Which changes of the address are the browser history's entries (pure; state/history.svelte.ts
 * writes them): a navigation a user would undo with Back (another view, trace, item, set or
 * run) is a new entry; a step within a trace (the trajectory's direction, entry, actions and
 * cursor), "failures only", an open item left by stepping away from it, and the parts of one
 * navigation arriving one after another (a set's run once its runs are read, the dashboard's
 * set once its sets are, an item's trace once it is open) rewrite the entry the user is on.
 */
import type { DeepLink } from './deeplink.js';

export type HistoryMove = 'push' | 'replace';

/** How the address moves from `entry` (what the current history entry shows) to `next`. */
export function historyMove(entry: DeepLink, next: DeepLink): HistoryMove {
  if ((entry.view ?? 'explorer') !== (next.view ?? 'explorer')) return 'push';
  // The dashboard's set, chosen once its sets are read, completes opening the dashboard.
  if (entry.set !== next.set) return entry.set === undefined && next.view === 'dashboard' ? 'replace' : 'push';
  // The set's first run, chosen once its runs are read, completes the set chosen.
  if (entry.run !== next.run && entry.run !== undefined) return 'push';
  if (entry.run2 !== next.run2 && !(entry.run === undefined && entry.run2 === undefined)) return 'push';
  if (next.item !== undefined && next.item !== entry.item) return 'push';
  // An item names its trace: the trace it opens is part of opening it.
  if (next.trace !== entry.trace && !(next.item !== undefined && next.item === entry.item)) return 'push';
  return 'replace';
}
