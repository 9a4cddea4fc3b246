// The labeling queue's state under the keys of "every label in sight" (docs/annotation.md,
// "Keys"): a group's letter opens its group for the digit after it, A gives every suggested
// label beside those given, and nothing of that is carried to the next item.
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TAXONOMY, groupLabels } from '../../../src/annotate/index.js';
import { Labeling } from '../../../renderer/src/state/labeling.svelte.js';
import { LabelingSource } from './labeling-source.js';

const data = groupLabels(DEFAULT_TAXONOMY, 'data');
const format = groupLabels(DEFAULT_TAXONOMY, 'format');

async function opened(source: LabelingSource): Promise<Labeling> {
  const lab = new Labeling(source);
  lab.set = 'crux';
  lab.run = 'model';
  lab.setAnnotator('flo');
  await lab.start();
  return lab;
}

describe('labeling keys: every label in sight', () => {
  beforeEach(() => localStorage.clear());

  it("a group's letter then a digit gives that group's label; the next item opens on the first group", async () => {
    const source = new LabelingSource([
      { prediction: 1, key: 't/1', prelabels: [] },
      { prediction: 2, key: 't/2', prelabels: [] },
    ]);
    const lab = await opened(source);
    const at = lab.groups.findIndex((g) => g.id === 'data');
    lab.jumpGroup(at);
    await lab.toggleKey(data[0].key);
    expect(lab.labels).toEqual([data[0].id]);
    lab.jumpGroup(99); // past the groups: nothing moves
    expect(lab.group).toBe(at);
    await lab.accept();
    expect(lab.item?.item.key).toBe('t/2');
    expect(lab.group).toBe(0);
    await lab.toggleKey(format[0].key);
    expect(source.labels.get(2)).toEqual([format[0].id]);
  });

  it('A adds the suggestions to the labels given, in one write, and stays on the item', async () => {
    const source = new LabelingSource([
      { prediction: 1, key: 't/1', prelabels: [format[1].id, data[0].id, format[1].id] },
      { prediction: 2, key: 't/2', prelabels: [] },
    ]);
    const lab = await opened(source);
    await lab.toggleKey(format[0].key);
    await lab.acceptSuggested();
    expect(lab.labels).toEqual([format[0].id, format[1].id, data[0].id]);
    expect(lab.item?.item.key).toBe('t/1');
    await lab.acceptSuggested(); // all given already: nothing sent
    expect(source.writes).toHaveLength(2);
    await lab.next();
    await lab.acceptSuggested(); // none suggested here
    expect(source.writes).toHaveLength(2);
    expect(lab.labels).toEqual([]);
  });
});
