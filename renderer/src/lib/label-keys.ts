/**
 * The labeling queue's key map (docs/annotation.md, "Keys"). Every label of every group is on
 * screen; `1`–`9` give a label of the open group (the first group on every item), and each
 * group has a letter that opens it, so any label is at most two keys away: its group's letter,
 * then its digit. The letters avoid the queue's other keys (A, N, S, and Z for Ctrl+Z).
 *
 * Pure (no DOM, no Svelte): lib/typeahead.ts reads the letters, the view shows the map.
 */
import type { TaxonomyLabel } from '@core/annotate/index.js';

/** The groups' letters, in the groups' order: the row under the digits first, then the home row and below. */
export const GROUP_KEYS = 'qwertyuiopdfghjklcvbm';

/** Gives every suggested label (the pre-label rules'), keeping those given. */
export const SUGGESTED_KEY = 'a';

/** The letter that opens the i-th group; null past the last letter (Tab still reaches it). */
export function groupKey(i: number): string | null {
  return i >= 0 && i < GROUP_KEYS.length ? GROUP_KEYS[i] : null;
}

/** The group a letter opens (either case), or null when the key is no group's letter. */
export function groupOfKey(key: string): number | null {
  if (key.length !== 1) return null;
  const i = GROUP_KEYS.indexOf(key.toLowerCase());
  return i < 0 ? null : i;
}

export interface KeyedLabel {
  label: TaxonomyLabel;
  /** The keys that give it from where the queue is: its digit in the open group, else its group's letter first. */
  keys: string[];
  suggested: boolean;
}

export interface KeyedGroup {
  id: string;
  name: string;
  /** The letter that opens it (null for a group past the letters). */
  key: string | null;
  open: boolean;
  labels: KeyedLabel[];
}

/**
 * What each label's keys are with `open` the open group, and which labels the rules suggest.
 * `groups` are the groups that have labels, in the order the queue cycles them.
 */
export function keyMap(
  groups: readonly { id: string; name: string; labels: readonly TaxonomyLabel[] }[],
  open: number,
  suggested: ReadonlySet<string> = new Set(),
): KeyedGroup[] {
  return groups.map((g, i) => {
    const key = groupKey(i);
    const prefix = i === open ? [] : key ? [key] : null;
    return {
      id: g.id,
      name: g.name,
      key,
      open: i === open,
      labels: g.labels.map((label) => ({
        label,
        keys: prefix ? [...prefix, String(label.key)] : [],
        suggested: suggested.has(label.id),
      })),
    };
  });
}
