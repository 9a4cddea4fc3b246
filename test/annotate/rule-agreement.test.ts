/** Pre-label precision and recall per rule against people's labels (counts worked out by hand below). */
import { describe, expect, it } from 'vitest';
import { ruleAgreement, type Judgement, type RuleSuggestionRow } from '../../src/annotate/index.js';

const S = (item: string, rule: string, label: string): RuleSuggestionRow => ({ item, rule, label });
const J = (item: string, annotator: string, ...labels: string[]): Judgement => ({ item, annotator, labels });

const suggestions = [
  S('i1', 'wrong-value', 'data.wrong_value'),
  S('i1', 'missing-local', 'data.missing_local'),
  S('i2', 'wrong-value', 'data.wrong_value'),
  S('i3', 'wrong-value', 'data.wrong_value'),
  S('i4', 'missing-local', 'data.missing_local'),
];
const judgements = [
  J('i1', 'alice', 'data.wrong_value'),
  J('i1', 'bob', 'data.wrong_value', 'data.missing_local'),
  J('i2', 'alice', 'data.wrong_type'),
  J('i4', 'alice', 'data.missing_local'),
  J('i5', 'alice', 'data.wrong_value'),
];

describe('ruleAgreement', () => {
  it('counts each judgement of an item a rule fired on; unjudged items are left out', () => {
    const r = ruleAgreement(suggestions, judgements);
    // missing-local: judged i1 by alice (no) and bob (yes), i4 by alice (yes): 2 of 3; both judgements
    // giving data.missing_local are on its items: recall 2 of 2.
    // wrong-value: i1 alice (yes), bob (yes), i2 alice (no), i3 unjudged: 2 of 3; people gave
    // data.wrong_value 3 times (i1 twice, i5), 2 of them where the rule fired.
    expect(r.rules).toEqual([
      {
        rule: 'missing-local',
        label: 'data.missing_local',
        judged: 3,
        accepted: 2,
        precision: 2 / 3,
        positives: 2,
        recall: 1,
      },
      {
        rule: 'wrong-value',
        label: 'data.wrong_value',
        judged: 3,
        accepted: 2,
        precision: 2 / 3,
        positives: 3,
        recall: 2 / 3,
      },
    ]);
    expect([r.judged, r.accepted, r.precision]).toEqual([6, 4, 4 / 6]);
  });

  it("an annotator's later judgement of an item replaces the earlier", () => {
    const r = ruleAgreement(suggestions, [...judgements, J('i2', 'alice', 'data.wrong_value')]);
    expect(r.rules[1]).toMatchObject({ rule: 'wrong-value', judged: 3, accepted: 3, precision: 1 });
  });

  it('precision and recall are null, not 0, when there is nothing to measure', () => {
    const r = ruleAgreement([S('x', 'set-order', 'truth.nondeterminism')], []);
    expect(r.rules[0]).toMatchObject({ judged: 0, precision: null, positives: 0, recall: null });
    expect(r.precision).toBeNull();
  });

  it('rules come sorted by name', () => {
    // Neither in nor against the order of first suggestion.
    const r = ruleAgreement(
      [
        { item: 'i1', rule: 'mu', label: 'l.m' },
        { item: 'i1', rule: 'zeta', label: 'l.z' },
        { item: 'i2', rule: 'alpha', label: 'l.a' },
      ],
      [{ item: 'i1', annotator: 'p', labels: ['l.z'] }],
    );
    expect(r.rules.map((x) => x.rule)).toEqual(['alpha', 'mu', 'zeta']);
  });

  it('judgements without an annotator are all counted, none replaces another', () => {
    // Two anonymous judgements of i1, one giving the rule's label: judged 2, accepted 1.
    const r = ruleAgreement(
      [{ item: 'i1', rule: 'r', label: 'l.x' }],
      [
        { item: 'i1', labels: ['l.x'] },
        { item: 'i1', labels: [] },
      ],
    );
    expect([r.judged, r.accepted, r.precision]).toEqual([2, 1, 0.5]);
    expect(r.rules[0].positives).toBe(1);
  });
});
