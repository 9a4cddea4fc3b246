/**
 * The no-orphan check's refusal, word for word (src/annotate/taxonomy-diff.ts), the diff's
 * restored labels, and label lookup at its edges (src/annotate/taxonomy.ts): the order of a
 * group's labels and the one-line refusals of what a person typed. Taxonomies are built inside
 * each test (Stryker's per-test coverage).
 */
import { describe, expect, it } from 'vitest';
import { assertTaxonomyUpdate, checkTaxonomyUpdate, DEFAULT_TAXONOMY, diffTaxonomies, groupLabels, resolveLabels, type Taxonomy, type TaxonomyLabel } from '../../src/annotate/index.js';
import { badInput as refusal } from './taxonomy-fixtures.js';

const copy = (): Taxonomy => JSON.parse(JSON.stringify(DEFAULT_TAXONOMY));
const without = (t: Taxonomy, ...ids: string[]): Taxonomy => ({ ...t, version: t.version + 1, labels: t.labels.filter((l) => !ids.includes(l.id)) });
const retired = (t: Taxonomy, ...ids: string[]): Taxonomy => ({ ...t, labels: t.labels.map((l) => (ids.includes(l.id) ? { ...l, deprecated: true } : l)) });

describe('the no-orphan refusal', () => {
  it('counts one annotation and several, one line per label, each naming the file', () => {
    const from = copy();
    const to = without(from, 'data.wrong_type', 'data.wrong_value');
    expect(refusal(() => assertTaxonomyUpdate(from, to, new Map([['data.wrong_value', 1], ['data.wrong_type', 2]]), 'new.json')).split('\n')).toEqual([
      'new.json: label data.wrong_type is used by 2 annotations and would be removed: keep it with "deprecated": true, or rename it by listing "data.wrong_type" in the new label\'s "was"',
      'new.json: label data.wrong_value is used by 1 annotation and would be removed: keep it with "deprecated": true, or rename it by listing "data.wrong_value" in the new label\'s "was"',
    ]);
  });

  it('without a file name the lines start with "taxonomy"', () => {
    const from = copy();
    expect(refusal(() => assertTaxonomyUpdate(from, without(from, 'data.wrong_type'), new Map([['data.wrong_type', 3]])))).toMatch(/^taxonomy: label data\.wrong_type is used by 3 annotations/);
  });

  it('an id counted with no annotation may go', () => {
    const from = copy();
    expect(checkTaxonomyUpdate(from, without(from, 'data.wrong_type'), new Map([['data.wrong_type', 0]])).problems).toEqual([]);
  });
});

describe('the diff', () => {
  it('lists a label brought back as restored, and one still retired as neither', () => {
    const from = retired(copy(), 'data.wrong_type', 'data.wrong_value');
    const to = { ...retired(copy(), 'data.wrong_value'), version: 2 };
    const d = diffTaxonomies(from, to);
    expect([d.restored, d.deprecated]).toEqual([['data.wrong_type'], []]);
  });
});

describe('label lookup', () => {
  it("a group's labels come by key whatever their order in the file", () => {
    const t = copy();
    const data = t.labels.filter((l) => l.group === 'data').reverse();
    const shuffled: Taxonomy = { ...t, labels: [...t.labels.filter((l) => l.group !== 'data'), data[2], data[0], data[4], data[1], data[3]] as TaxonomyLabel[] };
    expect(groupLabels(shuffled, 'data').map((l) => l.key)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a name after the dot that no label has is unknown; ambiguous and retired names are refused as bad input', () => {
    const t = copy();
    expect(refusal(() => resolveLabels(t, ['nope']))).toBe("unknown label 'nope' (taxonomy 'Execution-prediction errors' version 1; `stepscope taxonomy` lists the labels)");
    expect(refusal(() => resolveLabels(t, ['wrong_value']))).toBe("label 'wrong_value' is ambiguous: data.wrong_value or return.wrong_value");
    expect(refusal(() => resolveLabels(retired(t, 'data.wrong_type'), ['wrong_type']))).toBe("label 'data.wrong_type' is deprecated and cannot be given any more");
  });
});
