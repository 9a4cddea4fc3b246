/**
 * What `stepscope taxonomy --import` prints for a taxonomy file it refuses, word for word
 * (src/annotate/taxonomy-validate.ts), on small hand-made taxonomies: how a wrong value is
 * shown, each field's own message and path, old ids (`was`), a byte-order mark and trailing
 * whitespace. Each taxonomy is built inside its test, where per-test coverage sees it.
 */
import { describe, expect, it } from 'vitest';
import { parseTaxonomyText, TaxonomyError, validateTaxonomy } from '../../src/annotate/index.js';

const ex = { predicted: '{"n": 3}', truth: '{"n": 2}' };
const small = (labels: unknown[] = [], over: Record<string, unknown> = {}) => ({
  version: 1,
  name: 'Small',
  groups: [{ id: 'data', name: 'Data', description: 'Wrong locals.' }],
  labels: [
    {
      id: 'data.wrong_value',
      group: 'data',
      key: 1,
      name: 'Wrong value',
      description: 'A value differs.',
      example: ex,
    },
    ...labels,
  ],
  ...over,
});
const label = (over: Record<string, unknown>) => ({
  id: 'data.other',
  group: 'data',
  key: 2,
  name: 'Other',
  description: 'Anything else.',
  example: ex,
  ...over,
});

/** The lines of the refusal; a TaxonomyError with the code the CLI maps to exit 1. */
function refusal(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TaxonomyError);
    expect((e as TaxonomyError).code).toBe('bad-input');
    return (e as Error).message.split('\n');
  }
  throw new Error('expected the taxonomy to be refused');
}
const problems = (v: unknown) => refusal(() => validateTaxonomy(v, 't.json'));

describe('how a wrong value is shown', () => {
  it('null, an array, an object, a number, and a string quoted, cut after 40 characters', () => {
    expect(problems(small([], { version: null }))).toEqual([
      't.json: version: expected an integer, 1 or more, got null',
    ]);
    expect(problems(small([], { name: [] }))).toEqual([
      't.json: name: expected a non-empty string of at most 4000 characters, got an array',
    ]);
    expect(problems(small([], { name: {} }))).toEqual([
      't.json: name: expected a non-empty string of at most 4000 characters, got an object',
    ]);
    expect(problems(small([], { version: 0 }))).toEqual(['t.json: version: expected an integer, 1 or more, got 0']);
    const forty = 'A'.repeat(40);
    expect(problems(small([label({ id: forty })]))).toEqual([
      `t.json: labels[1].id: expected an id "<group>.<name>" such as "data.wrong_value" (a-z, 0-9, _), got "${forty}"`,
    ]);
    const long = 'x'.repeat(4001);
    expect(problems(small([], { name: long }))).toEqual([
      `t.json: name: expected a non-empty string of at most 4000 characters, got "${'x'.repeat(40)}…"`,
    ]);
  });
});

describe('each field names its own path and words', () => {
  it('an unknown top-level field, groups that are not an array, no groups, a bad group id, a group id twice', () => {
    expect(problems(small([], { colour: 'red' }))).toEqual([
      't.json: colour: expected no such field (fields: version, name, groups, labels), got "red"',
    ]);
    // Only the one problem: nothing is invented for the missing groups, and the label's group is unknown.
    expect(problems({ ...small(), groups: {}, labels: [] })).toEqual([
      't.json: groups: expected an array, got an object',
    ]);
    expect(problems({ ...small(), labels: 'none' })).toEqual(['t.json: labels: expected an array, got "none"']);
    expect(problems({ ...small(), groups: [], labels: [] })).toEqual([
      't.json: groups: expected at least one group, got an array',
    ]);
    expect(problems(small([], { groups: [{ id: 'Data', name: 'Data', description: 'd' }], labels: [] }))).toEqual([
      't.json: groups[0].id: expected a lower-case name such as "data" (a-z, 0-9, _), got "Data"',
    ]);
    const twice = { id: 'data', name: 'Data again', description: 'd' };
    expect(problems(small([], { groups: [...small().groups, twice] }))).toEqual([
      't.json: groups[1].id: expected a group id not used by an earlier group, got "data"',
    ]);
  });

  it('a bad label id, a deprecated that is not true or false', () => {
    expect(problems(small([label({ id: 'data.Other' })]))).toEqual([
      't.json: labels[1].id: expected an id "<group>.<name>" such as "data.wrong_value" (a-z, 0-9, _), got "data.Other"',
    ]);
    expect(problems(small([label({ deprecated: 'yes' })]))).toEqual([
      't.json: labels[1].deprecated: expected true or false, got "yes"',
    ]);
  });

  it('without a file name the messages say "taxonomy"', () => {
    expect(() => validateTaxonomy({ ...small(), version: 0 })).toThrow(/^taxonomy: version: expected an integer/);
    expect(() => parseTaxonomyText('{')).toThrow(/^taxonomy:1:2: expected/);
    expect(() => parseTaxonomyText(JSON.stringify({ ...small(), version: 0 }))).toThrow(
      /^taxonomy: version: expected an integer/,
    );
  });
});

describe("a label's old ids (was)", () => {
  it('refuses a was that is not an array, and each entry that is not an old label id, by index', () => {
    expect(problems(small([label({ was: 'data.old' })]))).toEqual([
      't.json: labels[1].was: expected an array, got "data.old"',
    ]);
    expect(problems(small([label({ was: ['data.old', 'Data.Old', 5, ['data.older']] })]))).toEqual([
      't.json: labels[1].was[1]: expected an old label id such as "data.wrong_value", got "Data.Old"',
      't.json: labels[1].was[2]: expected an old label id such as "data.wrong_value", got 5',
      't.json: labels[1].was[3]: expected an old label id such as "data.wrong_value", got an array',
    ]);
  });

  it('accepts one label listing the same old id twice; two labels claiming it are refused', () => {
    const t = validateTaxonomy(small([label({ was: ['data.old', 'data.old'] })]), 't.json');
    expect(t.labels[1].was).toEqual(['data.old', 'data.old']);
    expect(
      problems(small([label({ was: ['data.old'] }), label({ id: 'data.third', key: 3, was: ['data.old'] })])),
    ).toEqual([
      't.json: labels[2].was[0]: expected an old id claimed by one label only (data.other lists it too), got "data.old"',
    ]);
  });
});

describe('parseTaxonomyText', () => {
  it('reads a file saved with a byte-order mark, or ending in a newline and spaces', () => {
    const text = JSON.stringify(small(), null, 2);
    expect(parseTaxonomyText('\ufeff' + text, 'bom.json').labels[0].id).toBe('data.wrong_value');
    expect(parseTaxonomyText(text + '\n\n  \n', 'nl.json').name).toBe('Small');
  });

  it('shows what follows a syntax error, cut after 30 characters, or "end of file"', () => {
    expect(() => parseTaxonomyText('{"version": 1,', 'cut.json')).toThrow(
      /^cut\.json:1:15: expected .*, got end of file$/,
    );
    const thirty = 'x'.repeat(30);
    expect(() => parseTaxonomyText(`{"version": ${thirty}`, 'a.json')).toThrow(
      new RegExp(`^a\\.json:1:13: expected .*, got "${thirty}"$`),
    );
    expect(() => parseTaxonomyText(`{"version": ${thirty}yz`, 'b.json')).toThrow(
      new RegExp(`^b\\.json:1:13: expected .*, got "${thirty}…"$`),
    );
  });
});
