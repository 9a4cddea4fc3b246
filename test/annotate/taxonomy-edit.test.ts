/**
 * The taxonomy editor's edits (src/annotate/taxonomy-edit.ts) on the default taxonomy, whose
 * data group holds keys 1-5 (docs/annotation.md's table): each edit is the next version,
 * a clash is one sentence naming the holder and the free keys, and a label is never removed.
 * Then the edges: the keys 1 and 9, a retired label's key, the free keys shown while editing,
 * ids made from names with digits, every refusal's sentence and code, and that an edit touches
 * only its own label.
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
  type LabelDraft,
  type Taxonomy,
} from '../../src/annotate/index.js';
import { badInput as message, draft } from './taxonomy-fixtures.js';

const get = (t: Taxonomy, id: string) => t.labels.find((l) => l.id === id)!;

describe('taxonomy edits', () => {
  it('adds a label under a free key as the next version, the given taxonomy untouched', () => {
    const t = addLabel(DEFAULT_TAXONOMY, draft());
    expect(t.version).toBe(2);
    expect(DEFAULT_TAXONOMY.labels.some((l) => l.id === 'data.off_by_one')).toBe(false);
    expect(groupLabels(t, 'data').map((l) => [l.key, l.id])).toEqual([
      [1, 'data.wrong_value'],
      [2, 'data.wrong_type'],
      [3, 'data.missing_local'],
      [4, 'data.invented_local'],
      [5, 'data.mutation_missed'],
      [6, 'data.off_by_one'],
    ]);
    expect(labelIdFor('return', 'Wrong  exception type!')).toBe('return.wrong_exception_type');
  });

  it('refuses a key taken in the group, naming the label that has it and the free keys', () => {
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ key: 2 })))).toBe(
      'key 2 is taken in Data by "Wrong type" (data.wrong_type): free keys: 6, 7, 8, 9',
    );
    // The same key in another group is fine.
    expect(addLabel(DEFAULT_TAXONOMY, draft({ group: 'inverse', key: 3 })).labels.at(-1)).toMatchObject({
      id: 'inverse.off_by_one',
      key: 3,
    });
  });

  it('refuses an id in use, an empty field and a key out of 1-9', () => {
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ name: 'Wrong value' })))).toBe(
      'the id data.wrong_value is already "Wrong value": give the new label another name',
    );
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ description: '  ' })))).toBe(
      'the label needs a description',
    );
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ example: { predicted: 'x', truth: '' } })))).toBe(
      'the label needs the true target beside its example',
    );
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ key: 10 })))).toBe('the key must be 1 to 9, not 10');
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ group: 'nope' })))).toMatch(
      /^there is no group 'nope' \(groups: format, control, data/,
    );
  });

  it('edits keep the id and the group; moving a key onto another label is refused', () => {
    const t = editLabel(DEFAULT_TAXONOMY, 'data.wrong_type', draft({ key: 7, name: 'Wrong Python type' }));
    const l = t.labels.find((x) => x.id === 'data.wrong_type')!;
    expect([l.key, l.name, l.description, t.version]).toEqual([
      7,
      'Wrong Python type',
      'A count one too high or too low.',
      2,
    ]);
    expect(freeKeys(t, 'data')).toEqual([2, 6, 8, 9]);
    expect(message(() => editLabel(DEFAULT_TAXONOMY, 'data.wrong_type', draft({ key: 1 })))).toMatch(
      /^key 1 is taken in Data by "Wrong value"/,
    );
    expect(message(() => editLabel(DEFAULT_TAXONOMY, 'data.wrong_type', draft({ group: 'return', key: 4 })))).toBe(
      'a label keeps its group (data): add a new label to return and retire this one',
    );
  });

  it('retiring keeps the label (annotations using it still resolve) and frees its key; bringing it back needs the key free', () => {
    const t = retireLabel(DEFAULT_TAXONOMY, 'data.wrong_type');
    expect(t.labels.find((l) => l.id === 'data.wrong_type')?.deprecated).toBe(true);
    expect(groupLabels(t, 'data').map((l) => l.id)).not.toContain('data.wrong_type');
    // The corpus's no-orphan check passes even though 12 annotations use the label.
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, t, new Map([['data.wrong_type', 12]])).problems).toEqual([]);
    const taken = addLabel(t, draft({ key: 2, name: 'Wrong container' }));
    expect(message(() => restoreLabel(taken, 'data.wrong_type'))).toBe(
      'key 2 is taken in Data by "Wrong container" (data.wrong_container): free keys: 6, 7, 8, 9',
    );
    const back = restoreLabel(t, 'data.wrong_type');
    expect([back.version, back.labels.find((l) => l.id === 'data.wrong_type')?.deprecated]).toEqual([3, undefined]);
    expect(message(() => retireLabel(t, 'data.wrong_type'))).toBe('data.wrong_type is retired already');
  });
});

describe('the keys a label may take', () => {
  it("9 and 1 are keys; 0, 10 and 1.5 are not, in the draft check's words", () => {
    expect(get(addLabel(DEFAULT_TAXONOMY, draft({ key: 9 })), 'data.off_by_one').key).toBe(9);
    for (const key of [0, 1.5, -1])
      expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ key })))).toBe(`the key must be 1 to 9, not ${key}`);
  });

  it("a retired label's key can be given to a new label, and a retired label can be edited onto a taken key", () => {
    const t = retireLabel(DEFAULT_TAXONOMY, 'data.wrong_value');
    expect(get(addLabel(t, draft({ key: 1 })), 'data.off_by_one').key).toBe(1);
    const edited = editLabel(t, 'data.wrong_value', draft({ key: 2, name: 'Wrong value' }));
    expect([get(edited, 'data.wrong_value').key, get(edited, 'data.wrong_value').deprecated]).toEqual([2, true]);
  });

  it("an active label moved onto another's key is refused in the draft check's words", () => {
    expect(message(() => editLabel(DEFAULT_TAXONOMY, 'data.wrong_value', draft({ key: 3, name: 'Wrong value' })))).toBe(
      'key 3 is taken in Data by "Missing local" (data.missing_local): free keys: 1, 6, 7, 8, 9',
    );
  });

  it('the free keys while editing a label include its own key', () => {
    expect(freeKeys(DEFAULT_TAXONOMY, 'data', 'data.wrong_value')).toEqual([1, 6, 7, 8, 9]);
    expect(freeKeys(DEFAULT_TAXONOMY, 'data')).toEqual([6, 7, 8, 9]);
  });

  it('a full group says no key is free', () => {
    let t = DEFAULT_TAXONOMY;
    for (const key of [6, 7, 8, 9]) t = addLabel(t, draft({ key, name: `Extra ${key}` }));
    expect(message(() => addLabel(t, draft({ key: 1 })))).toBe(
      'key 1 is taken in Data by "Wrong value" (data.wrong_value): no key is free; retire a label of the group first',
    );
  });
});

describe('ids made from names, and the names kept', () => {
  it('a digit is kept in the id; a leading digit gets an n', () => {
    expect(labelIdFor('data', 'Off by 1')).toBe('data.off_by_1');
    expect(labelIdFor('data', '3 nulls')).toBe('data.n3_nulls');
    expect(get(addLabel(DEFAULT_TAXONOMY, draft({ name: '2 many' })), 'data.n2_many').name).toBe('2 many');
  });

  it('a name with no letter or digit is refused in words', () => {
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ name: '!?' })))).toBe(
      'the name "!?" has no letter or digit to make the label\'s id from',
    );
  });

  it("an id that is an old id of a label, or a retired label's id, is refused with what to do", () => {
    const renamed: Taxonomy = {
      ...DEFAULT_TAXONOMY,
      labels: DEFAULT_TAXONOMY.labels.map((l) => (l.id === 'data.wrong_type' ? { ...l, was: ['data.bad_type'] } : l)),
    };
    expect(message(() => addLabel(renamed, draft({ name: 'Bad type' })))).toBe(
      'the id data.bad_type is an old id of "Wrong type": give the new label another name',
    );
    const retired = retireLabel(DEFAULT_TAXONOMY, 'data.wrong_type');
    expect(message(() => addLabel(retired, draft({ name: 'Wrong type' })))).toBe(
      'the id data.wrong_type is already "Wrong type" (retired: bring it back instead): give the new label another name',
    );
  });

  it('names and descriptions are stored trimmed, when added and when edited', () => {
    const added = get(
      addLabel(DEFAULT_TAXONOMY, draft({ name: '  Off by one ', description: ' Too high. \n' })),
      'data.off_by_one',
    );
    expect([added.name, added.description]).toEqual(['Off by one', 'Too high.']);
    const edited = get(
      editLabel(
        DEFAULT_TAXONOMY,
        'data.wrong_value',
        draft({ key: 1, name: ' Wrong value  ', description: '\tDiffers. ' }),
      ),
      'data.wrong_value',
    );
    expect([edited.name, edited.description]).toEqual(['Wrong value', 'Differs.']);
  });

  it("a draft whose example lacks the prediction is refused in the draft check's words", () => {
    const example = { truth: 'x' } as unknown as LabelDraft['example'];
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ example })))).toBe(
      'the label needs an example of what a model wrote',
    );
  });

  it('a name too long for the file is refused by the whole-taxonomy check, naming the version it would be', () => {
    expect(message(() => addLabel(DEFAULT_TAXONOMY, draft({ name: 'A'.repeat(4001) })))).toMatch(
      /^taxonomy version 2: labels\[\d+\]\.name: expected a non-empty string of at most 4000 characters/,
    );
  });
});

describe('finding, retiring and restoring', () => {
  it('an unknown id is refused in words', () => {
    expect(message(() => editLabel(DEFAULT_TAXONOMY, 'data.nope', draft()))).toBe(
      'there is no label data.nope in version 1 of the taxonomy',
    );
    expect(message(() => retireLabel(DEFAULT_TAXONOMY, 'data.nope'))).toBe(
      'there is no label data.nope in version 1 of the taxonomy',
    );
  });

  it('restoring a label that is not retired is refused', () => {
    expect(message(() => restoreLabel(DEFAULT_TAXONOMY, 'data.wrong_value'))).toBe('data.wrong_value is not retired');
  });

  it('restoring one label leaves the other retired labels retired', () => {
    const t = retireLabel(retireLabel(DEFAULT_TAXONOMY, 'data.wrong_value'), 'data.wrong_type');
    const back = restoreLabel(t, 'data.wrong_type');
    expect([get(back, 'data.wrong_value').deprecated, get(back, 'data.wrong_type').deprecated]).toEqual([
      true,
      undefined,
    ]);
  });
});
