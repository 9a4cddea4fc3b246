// The labeling queue's key map (renderer/src/lib/label-keys.ts): every label of the default
// taxonomy within two keys of any open group, none of them colliding with the queue's other keys.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAXONOMY, groupLabels } from '../../src/annotate/index.js';
import { GROUP_KEYS, groupKey, groupOfKey, keyMap, SUGGESTED_KEY } from '../../renderer/src/lib/label-keys.js';
import { commandOf } from '../../renderer/src/lib/typeahead.js';

const groups = DEFAULT_TAXONOMY.groups
  .map((g) => ({ id: g.id, name: g.name, labels: groupLabels(DEFAULT_TAXONOMY, g.id) }))
  .filter((g) => g.labels.length);

describe('the key map', () => {
  it('reaches every label in at most two keys, whichever group is open, and the keys name that label', () => {
    for (let open = 0; open < groups.length; open++) {
      const map = keyMap(groups, open);
      for (const [gi, g] of map.entries()) {
        for (const l of g.labels) {
          expect(l.keys.length, l.label.id).toBeGreaterThan(0);
          expect(l.keys.length, l.label.id).toBeLessThanOrEqual(2);
          // Typing them: a group letter opens its group, then the digit picks the label there.
          let group = open;
          for (const k of l.keys.slice(0, -1)) {
            const c = commandOf('keys', { key: k });
            expect(c?.kind).toBe('jump');
            if (c?.kind === 'jump') group = c.group;
          }
          const last = commandOf('keys', { key: l.keys.at(-1)! });
          expect(last).toEqual({ kind: 'label', key: l.label.key });
          expect(group).toBe(gi);
        }
      }
      expect(map.filter((g) => g.open).map((g) => g.id)).toEqual([groups[open].id]);
      expect(map[open].labels.every((l) => l.keys.length === 1)).toBe(true);
    }
  });

  it("the groups' letters are distinct and none is another key of the queue", () => {
    expect(new Set(GROUP_KEYS).size).toBe(GROUP_KEYS.length);
    for (const k of [...GROUP_KEYS, ...GROUP_KEYS.toUpperCase()]) {
      expect(commandOf('keys', { key: k })?.kind, k).toBe('jump');
    }
    expect(GROUP_KEYS).not.toMatch(/[ansz]/);
    expect(commandOf('keys', { key: SUGGESTED_KEY })).toEqual({ kind: 'suggested' });
    expect(groupOfKey(groupKey(3)!)).toBe(3);
    expect(groupKey(GROUP_KEYS.length)).toBeNull();
    expect(groupOfKey('Tab')).toBeNull();
  });

  it('marks the suggested labels, and only those', () => {
    const first = groups[0].labels[0].id;
    const map = keyMap(groups, 0, new Set([first]));
    expect(map.flatMap((g) => g.labels.filter((l) => l.suggested).map((l) => l.label.id))).toEqual([first]);
  });
});
