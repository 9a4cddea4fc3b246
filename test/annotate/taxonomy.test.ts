/**
 * The taxonomy model: validation errors a person can act on, label lookup (the order of a group's
 * labels, the one-line refusals of what a person typed), versions and the no-orphan rule (its
 * refusal word for word, src/annotate/taxonomy-diff.ts). Taxonomies are built inside each test,
 * where per-test coverage sees them.
 */
import { describe, expect, it } from 'vitest';
import {
  assertTaxonomyUpdate,
  checkTaxonomyUpdate,
  DEFAULT_TAXONOMY,
  diffTaxonomies,
  findLabel,
  groupLabels,
  labelForKey,
  parseTaxonomyText,
  resolveLabels,
  TaxonomyError,
  validateTaxonomy,
  type Taxonomy,
  type TaxonomyLabel,
} from '../../src/annotate/index.js';
import { badInput as refusal } from './taxonomy-fixtures.js';

const copy = (): Taxonomy => JSON.parse(JSON.stringify(DEFAULT_TAXONOMY));
const ex = { predicted: '<|exit_normal|>', truth: '<|exit_error|>' };
const without = (t: Taxonomy, ...ids: string[]): Taxonomy => ({
  ...t,
  version: t.version + 1,
  labels: t.labels.filter((l) => !ids.includes(l.id)),
});
const retired = (t: Taxonomy, ...ids: string[]): Taxonomy => ({
  ...t,
  labels: t.labels.map((l) => (ids.includes(l.id) ? { ...l, deprecated: true } : l)),
});

function problems(v: unknown, file = 'taxonomy.json'): string[] {
  try {
    validateTaxonomy(v, file);
  } catch (e) {
    expect(e).toBeInstanceOf(TaxonomyError);
    expect((e as TaxonomyError).code).toBe('bad-input');
    return (e as Error).message.split('\n');
  }
  return [];
}

describe('validateTaxonomy', () => {
  it('names the file, the path and what was expected, as the import will print it', () => {
    const t = copy() as unknown as { labels: Record<string, unknown>[] };
    t.labels[3].key = 12;
    expect(problems(t)).toEqual(['taxonomy.json: labels[3].key: expected 1-9, got 12']);
  });

  it('lists every problem at once, not only the first', () => {
    const t = copy() as unknown as {
      version: unknown;
      groups: Record<string, unknown>[];
      labels: Record<string, unknown>[];
    };
    t.version = 0;
    t.groups[1].name = '';
    t.labels[0].group = 'formats';
    t.labels[5].colour = 'red';
    delete t.labels[6].example;
    expect(problems(t)).toEqual([
      'taxonomy.json: version: expected an integer, 1 or more, got 0',
      'taxonomy.json: groups[1].name: expected a non-empty string of at most 4000 characters, got ""',
      'taxonomy.json: labels[0].group: expected one of the groups (format, control, data, return, inverse, truth, other), got "formats"',
      'taxonomy.json: labels[5].colour: expected no such field (fields: id, group, key, name, description, example, deprecated, was), got "red"',
      'taxonomy.json: labels[6].example: expected an object, got nothing',
    ]);
  });

  it("refuses an id outside its group, a duplicate id, and two active labels on one key; a deprecated label's key is free", () => {
    const t = copy();
    t.labels[1] = { ...t.labels[1], id: 'data.truncated' };
    t.labels.push({ ...t.labels[0] });
    t.labels.push({ ...t.labels[2], id: 'format.looping', key: 3 });
    expect(problems(t)).toEqual([
      'taxonomy.json: labels[1].id: expected an id starting with "format." (its group), got "data.truncated"',
      'taxonomy.json: labels[21].id: expected an id not used by labels[0], got "format.unparseable"',
      'taxonomy.json: labels[21].key: expected a key not used by another active label of group format (format.unparseable has 1), got 1',
      'taxonomy.json: labels[22].key: expected a key not used by another active label of group format (format.repeated has 3), got 3',
    ]);
    const u = copy();
    u.labels[2] = { ...u.labels[2], deprecated: true };
    u.labels.push({ ...u.labels[2], id: 'format.looping', deprecated: undefined, was: ['format.repeated_old'] });
    delete u.labels[u.labels.length - 1].deprecated;
    expect(problems(u)).toEqual([]);
  });

  it('refuses a rename to an id still in use and an old id claimed by two labels', () => {
    const t = copy();
    t.labels[0] = { ...t.labels[0], was: ['format.truncated'] };
    t.labels[8] = { ...t.labels[8], was: ['data.wrong'] };
    t.labels[9] = { ...t.labels[9], was: ['data.wrong'] };
    expect(problems(t)).toEqual([
      'taxonomy.json: labels[0].was[0]: expected an id no current label has (a label cannot be renamed to an id still in use), got "format.truncated"',
      'taxonomy.json: labels[9].was[0]: expected an old id claimed by one label only (data.wrong_value lists it too), got "data.wrong"',
    ]);
  });

  it('parseTaxonomyText names the line and column of a JSON syntax error', () => {
    const text = '{\n  "version": 1,\n  "name": "x",\n  "groups": [,]\n}\n';
    expect(() => parseTaxonomyText(text, 'mine.json')).toThrow(
      'mine.json:4:14: expected a JSON value, got ",]\\n}\\n"',
    );
    expect(() => parseTaxonomyText('{"version": 1} {}', 'mine.json')).toThrow(
      'mine.json:1:16: expected the end of the file after the JSON value',
    );
    expect(() => parseTaxonomyText('', 'mine.json')).toThrow('mine.json:1:1: expected a JSON value, got end of file');
  });

  it('reads back what JSON.stringify wrote (the export format is the import format)', () => {
    expect(parseTaxonomyText(JSON.stringify(DEFAULT_TAXONOMY, null, 2), 'default.json')).toEqual(DEFAULT_TAXONOMY);
  });
});

describe('label lookup', () => {
  it('finds a label by id or by an old id, keys per group, and refuses unknown or deprecated labels in one line', () => {
    const t = copy();
    t.labels[8] = { ...t.labels[8], id: 'data.bad_value', was: ['data.wrong_value'] };
    t.labels[4] = { ...t.labels[4], deprecated: true };
    expect(findLabel(t, 'data.wrong_value')).toEqual({ label: t.labels[8], via: 'data.wrong_value' });
    expect(labelForKey(t, 'data', 1)?.id).toBe('data.bad_value');
    expect(labelForKey(t, 'control', 1)).toBeUndefined();
    expect(groupLabels(t, 'control').map((l) => l.key)).toEqual([2, 3, 4]);
    expect(resolveLabels(t, ['data.wrong_value', 'missing_local', ' data.bad_value '])).toEqual([
      'data.bad_value',
      'data.missing_local',
    ]);
    expect(() => resolveLabels(t, ['data.wrng'])).toThrow(
      /^unknown label 'data.wrng' \(taxonomy 'Execution-prediction errors' version 1/,
    );
    expect(() => resolveLabels(DEFAULT_TAXONOMY, ['wrong_value'])).toThrow(
      "label 'wrong_value' is ambiguous: data.wrong_value or return.wrong_value",
    );
    expect(() => resolveLabels(t, ['control.wrong_event'])).toThrow("label 'control.wrong_event' is deprecated");
  });

  it("a group's labels come by key whatever their order in the file", () => {
    const t = copy();
    const data = t.labels.filter((l) => l.group === 'data').reverse();
    const shuffled: Taxonomy = {
      ...t,
      labels: [
        ...t.labels.filter((l) => l.group !== 'data'),
        data[2],
        data[0],
        data[4],
        data[1],
        data[3],
      ] as TaxonomyLabel[],
    };
    expect(groupLabels(shuffled, 'data').map((l) => l.key)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a name after the dot that no label has is unknown; ambiguous and retired names are refused as bad input', () => {
    const t = copy();
    expect(refusal(() => resolveLabels(t, ['nope']))).toBe(
      "unknown label 'nope' (taxonomy 'Execution-prediction errors' version 1; `stepscope taxonomy` lists the labels)",
    );
    expect(refusal(() => resolveLabels(t, ['wrong_value']))).toBe(
      "label 'wrong_value' is ambiguous: data.wrong_value or return.wrong_value",
    );
    expect(refusal(() => resolveLabels(retired(t, 'data.wrong_type'), ['wrong_type']))).toBe(
      "label 'data.wrong_type' is deprecated and cannot be given any more",
    );
  });
});

describe('versions', () => {
  const v2 = (edit: (t: Taxonomy) => void): Taxonomy => {
    const t = copy();
    t.version = 2;
    edit(t);
    return validateTaxonomy(t);
  };
  const label = (t: Taxonomy, id: string) => t.labels.find((l) => l.id === id) as TaxonomyLabel;

  it('diffs additions, removals, renames, merges, deprecations and edits', () => {
    const to = v2((t) => {
      t.groups.push({ id: 'style', name: 'Style', description: 'How it is written.' });
      t.labels.push({
        id: 'style.verbose',
        group: 'style',
        key: 1,
        name: 'Verbose',
        description: 'Too long.',
        example: ex,
      });
      t.labels = t.labels.filter((l) => l.id !== 'other.other');
      Object.assign(label(t, 'data.wrong_value'), { id: 'data.value', was: ['data.wrong_value', 'data.wrong_type'] });
      t.labels = t.labels.filter((l) => l.id !== 'data.wrong_type');
      label(t, 'format.delta').deprecated = true;
      label(t, 'control.branch').description = 'The other side of an if.';
    });
    expect(diffTaxonomies(DEFAULT_TAXONOMY, to)).toEqual({
      fromVersion: 1,
      toVersion: 2,
      groupsAdded: ['style'],
      groupsRemoved: [],
      added: ['style.verbose'],
      removed: ['other.other'],
      renamed: [
        { from: 'data.wrong_value', to: 'data.value' },
        { from: 'data.wrong_type', to: 'data.value' },
      ],
      deprecated: ['format.delta'],
      restored: [],
      changed: [
        { id: 'control.branch', fields: ['description'] },
        { id: 'data.value', fields: ['key', 'name', 'description', 'example'] },
      ],
    });
  });

  it('refuses to remove a label annotations use, and says how to keep it; unused labels may go', () => {
    const to = v2((t) => {
      t.labels = t.labels.filter((l) => l.id !== 'data.wrong_type' && l.id !== 'other.other');
    });
    const usage = new Map([
      ['data.wrong_type', 3],
      ['data.wrong_value', 10],
    ]);
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, to, usage).problems).toEqual([
      'label data.wrong_type is used by 3 annotations and would be removed: keep it with "deprecated": true, or rename it by listing "data.wrong_type" in the new label\'s "was"',
    ]);
    expect(() => assertTaxonomyUpdate(DEFAULT_TAXONOMY, to, usage, 'v2.json')).toThrow(
      /^v2\.json: label data\.wrong_type is used by 3 annotations/,
    );
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, to, new Map([['data.wrong_value', 10]])).problems).toEqual([]);
  });

  it('accepts deprecating or renaming a used label: its annotations still resolve', () => {
    const usage = new Map([['data.wrong_type', 3]]);
    const deprecated = v2((t) => void (label(t, 'data.wrong_type').deprecated = true));
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, deprecated, usage).problems).toEqual([]);
    const renamed = v2((t) =>
      Object.assign(label(t, 'data.wrong_type'), { id: 'data.type', was: ['data.wrong_type'] }),
    );
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, renamed, usage).problems).toEqual([]);
    // A second rename must keep the first old id, since annotations still carry it.
    const again = validateTaxonomy({
      ...renamed,
      version: 3,
      labels: renamed.labels.map((l) => (l.id === 'data.type' ? { ...l, id: 'data.kind', was: ['data.type'] } : l)),
    });
    expect(checkTaxonomyUpdate(renamed, again, usage).problems).toEqual([
      'label data.wrong_type is used by 3 annotations and would be removed: keep it with "deprecated": true, or rename it by listing "data.wrong_type" in the new label\'s "was"',
    ]);
  });

  it('asks for a higher version for any change, refuses an older one, and lets the same version through unchanged', () => {
    const changed = copy();
    changed.labels[0].name = 'Unreadable';
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, changed, new Map()).problems).toEqual([
      'the taxonomy changed but is still version 1: give it version 2',
    ]);
    expect(
      checkTaxonomyUpdate({ ...DEFAULT_TAXONOMY, version: 4 }, { ...copy(), version: 3 }, new Map()).problems,
    ).toEqual(["version 3 is older than the corpus's taxonomy (version 4)"]);
    expect(checkTaxonomyUpdate(DEFAULT_TAXONOMY, copy(), new Map([['data.wrong_value', 1]]))).toMatchObject({
      problems: [],
    });
  });
});

describe('the no-orphan refusal, word for word', () => {
  it('counts one annotation and several, one line per label, each naming the file', () => {
    const from = copy();
    const to = without(from, 'data.wrong_type', 'data.wrong_value');
    expect(
      refusal(() =>
        assertTaxonomyUpdate(
          from,
          to,
          new Map([
            ['data.wrong_value', 1],
            ['data.wrong_type', 2],
          ]),
          'new.json',
        ),
      ).split('\n'),
    ).toEqual([
      'new.json: label data.wrong_type is used by 2 annotations and would be removed: keep it with "deprecated": true, or rename it by listing "data.wrong_type" in the new label\'s "was"',
      'new.json: label data.wrong_value is used by 1 annotation and would be removed: keep it with "deprecated": true, or rename it by listing "data.wrong_value" in the new label\'s "was"',
    ]);
  });

  it('without a file name the lines start with "taxonomy"', () => {
    const from = copy();
    expect(
      refusal(() => assertTaxonomyUpdate(from, without(from, 'data.wrong_type'), new Map([['data.wrong_type', 3]]))),
    ).toMatch(/^taxonomy: label data\.wrong_type is used by 3 annotations/);
  });

  it('an id counted with no annotation may go', () => {
    const from = copy();
    expect(
      checkTaxonomyUpdate(from, without(from, 'data.wrong_type'), new Map([['data.wrong_type', 0]])).problems,
    ).toEqual([]);
  });
});

describe('the diff of a label brought back', () => {
  it('lists a label brought back as restored, and one still retired as neither', () => {
    const from = retired(copy(), 'data.wrong_type', 'data.wrong_value');
    const to = { ...retired(copy(), 'data.wrong_value'), version: 2 };
    const d = diffTaxonomies(from, to);
    expect([d.restored, d.deprecated]).toEqual([['data.wrong_type'], []]);
  });
});
