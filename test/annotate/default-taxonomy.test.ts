/**
 * The default taxonomy: valid by its own validator, covering what issue 11 lists, and each
 * example a real case its label's rule recognises.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAXONOMY, prelabel, RULES, validateTaxonomy, type PrelabelInput } from '../../src/annotate/index.js';
import { exampleInput, read } from './example-input.js';

describe('default taxonomy', () => {
  it('passes its own validation (ids, keys 1-9 unique per group, descriptions, examples)', () => {
    expect(validateTaxonomy(JSON.parse(JSON.stringify(DEFAULT_TAXONOMY)))).toEqual(DEFAULT_TAXONOMY);
  });

  it('has the groups and labels issue 11 asks for', () => {
    const ids = DEFAULT_TAXONOMY.labels.map((l) => l.id);
    expect(DEFAULT_TAXONOMY.groups.map((g) => g.id)).toEqual([
      'format',
      'control',
      'data',
      'return',
      'inverse',
      'truth',
      'other',
    ]);
    for (const id of [
      'format.unparseable',
      'format.truncated',
      'format.repeated',
      'control.wrong_event',
      'control.branch',
      'control.loop_iteration',
      'data.wrong_value',
      'data.wrong_type',
      'data.missing_local',
      'data.invented_local',
      'data.mutation_missed',
      'return.wrong_value',
      'return.missed_exception',
      'return.invented_exception',
      'inverse.valid_alternative',
      'inverse.invalid_input',
      'truth.nondeterminism',
      'truth.value_cut',
      'other.other',
    ])
      expect(ids).toContain(id);
  });

  it('every example parses: truth and state before are real serialized states', () => {
    for (const l of DEFAULT_TAXONOMY.labels) {
      expect(() => read(l.example.truth), l.id).not.toThrow();
      if (l.example.before) expect(() => read(l.example.before!), l.id).not.toThrow();
      if (l.example.before && l.example.code)
        expect(l.example.code.split('\n'), l.id).toContain(read(l.example.before).src);
    }
  });

  it('every rule suggests a label of the default taxonomy, and every label but other.other has a rule', () => {
    const ids = new Set(DEFAULT_TAXONOMY.labels.map((l) => l.id));
    for (const r of RULES) expect(ids.has(r.label), r.id).toBe(true);
    const covered = new Set(RULES.map((r) => r.label));
    expect(DEFAULT_TAXONOMY.labels.map((l) => l.id).filter((id) => !covered.has(id))).toEqual(['other.other']);
  });

  // What the example alone cannot carry: the verdict of running it.
  const extra: Record<string, Partial<PrelabelInput>> = {
    'inverse.valid_alternative': { execution: 'pass' },
    'inverse.invalid_input': { execution: 'fail' },
  };
  for (const l of DEFAULT_TAXONOMY.labels) {
    if (l.id === 'other.other') continue;
    it(`the rules recognise the example of ${l.id}`, () => {
      const got = prelabel(exampleInput(l.example, extra[l.id]));
      expect(got.map((s) => s.label)).toContain(l.id);
    });
  }
});
