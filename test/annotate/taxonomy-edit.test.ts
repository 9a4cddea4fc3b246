/**
 * The taxonomy editor's edits (src/annotate/taxonomy-edit.ts) on the default taxonomy, whose
 * data group holds keys 1-5 (docs/annotation.md's table): each edit is the next version,
 * a clash is one sentence naming the holder and the free keys, and a label is never removed.
 */
import { describe, expect, it } from 'vitest';
import {
  addLabel,
  checkTaxonomyUpdate,
  DEFAULT_TAXONOMY,
  editLabel,
  freeKeys,
  groupLabels,
  labelIdFor,
  restoreLabel,
  retireLabel,
} from '../../src/annotate/index.js';
import { badInput as message, draft } from './taxonomy-fixtures.js';


describe('taxonomy edits', () => {
  it('adds a label under a free key as the next version, the given taxonomy untouched', () => {
    const t = addLabel(DEFAULT_TAXONOMY, draft());
    expect(t.version).toBe(2);
    expect(DEFAULT_TAXONOMY.labels.some((l) => l.id === 'data.off_by_one')).toBe(false);
    expect(groupLabels(t, 'data').map((l) => [l.key, l.id])).toEqual([
      [1, 'data.wrong_value'], [2, 'data.wrong_type'], [3, 'data.missing_local'], [4, 'data.invented_local'], [5, 'data.mutation_missed'], [6, 'data.off_by_one'],
    ]);
    expect(labelIdFor('return', 'Wrong  exception type!')).toBe('return.wrong_exception_type');
  });

  it('refuses a key taken in the group, naming the label that has it and the free keys', () => {
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ key: 2 })))).toBe('key 2 is taken in Data by "Wrong type" (data.wrong_type): free keys: 6, 7, 8, 9');
    // The same key in another group is fine.
    expect(addLabel(DEFAULT_TAXONOMY, draft({ group: 'inverse', key: 3 })).labels.at(-1)).toMatchObject({ id: 'inverse.off_by_one', key: 3 });
  });

  it('refuses an id in use, an empty field and a key out of 1-9', () => {
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ name: 'Wrong value' })))).toBe('the id data.wrong_value is already "Wrong value": give the new label another name');
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ description: '  ' })))).toBe('the label needs a description');
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ example: { predicted: 'x', truth: '' } })))).toBe('the label needs the true target beside its example');
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ key: 10 })))).toBe('the key must be 1 to 9, not 10');
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ group: 'nope' })))).toMatch(/^there is no group 'nope' \(groups: format, control, data/);
  });

  it('edits keep the id and the group; moving a key onto another label is refused', () => {
    const t = editLabel(DEFAULT_TAXONOMY, 'data.wrong_type', draft({ key: 7, name: 'Wrong Python type' }));
    const l = t.labels.find((x) => x.id === 'data.wrong_type')!;
    expect([l.key, l.name, l.description, t.version]).toEqual([7, 'Wrong Python type', 'A count one too high or too low.', 2]);
    expect(freeKeys(t, 'data')).toEqual([2, 6, 8, 9]);
    expect(message(() => editLabel(DEFAULT_TAXONOMY, 'data.wrong_type', draft({ key: 1 })))).toMatch(/^key 1 is taken in Data by "Wrong value"/);
    expect(message(() => editLabel(DEFAULT_TAXONOMY, 'data.wrong_type', draft({ group: 'return', key: 4 })))).toBe('a label keeps its group (data): add a new label to return and retire this one');
  });

  it('retiring keeps the label (annotations using it still resolve) and frees its key; bringing it back needs the key free', () => {
    const t = retireLabel(DEFAULT_TAXONOMY, 'data.wrong_type');
    expect(t.labels.find((l) => l.id === 'data.wrong_type')?.deprecated).toBe(true);
    expect(groupLabels(t, 'data').map((l) => l.id)).not.toContain('data.wrong_type');
    // The corpus's no-orphan check passes even though 12 annotations use the label.
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, t, new Map([['data.wrong_type', 12]])).problems).toEqual([]);
    const taken = addLabel(t, draft({ key: 2, name: 'Wrong container' }));
    expect(message(() => restoreLabel(taken, 'data.wrong_type'))).toBe('key 2 is taken in Data by "Wrong container" (data.wrong_container): free keys: 6, 7, 8, 9');
    const back = restoreLabel(t, 'data.wrong_type');
    expect([back.version, back.labels.find((l) => l.id === 'data.wrong_type')?.deprecated]).toEqual([3, undefined]);
    expect(message(() => retireLabel(t, 'data.wrong_type'))).toBe('data.wrong_type is retired already');
  });
});
