/**
 * Gaps left by the mutation run of src/annotate/stats (docs/mutation-annotate-survivors-stats.md):
 * the orders users read (annotators, labels, rules, confusion categories), the names of
 * categories, missing values given as undefined, and alpha's D_o and D_e. Expected values
 * are computed by hand; D_o and D_e from section A of Krippendorff (2011), "Computing
 * Krippendorff's Alpha-Reliability" (binary, 2 observers, 10 units, α = 0.095), worked out
 * in the comments below.
 */
import { describe, expect, it } from 'vitest';
import { agreement, confusionTable, disagreements, krippendorffAlpha, pairConfusion, ruleAgreement, type Rating } from '../../src/annotate/index.js';

const R = (item: string, annotator: string, ...labels: string[]): Rating => ({ item, annotator, labels });

describe("alpha's observed and expected disagreement", () => {
  it('section A of Krippendorff (2011): D_o = 8/20, D_e = 168/380', () => {
    // Observer 1: 0 1 0 0 0 0 0 0 1 0; observer 2: 1 1 1 0 0 1 0 0 0 0. n = 20 pairable values.
    // Units 1, 3, 6, 9 disagree, each adding o_01 + o_10 = 2: Σ_{c≠k} o_ck = 8, D_o = 8/20.
    // n_1 = 2 + 4 = 6, n_0 = 14: Σ_{c≠k} n_c·n_k = 2·6·14 = 168, D_e = 168/(20·19).
    const a = ['0 1 0 0 0 0 0 0 1 0', '1 1 1 0 0 1 0 0 0 0'].map((r) => r.split(' '));
    const r = krippendorffAlpha(a[0].map((v, u) => [v, a[1][u]]));
    expect(r.observed).toBeCloseTo(0.4, 12);
    expect(r.expected).toBeCloseTo(168 / 380, 12);
    expect(r.alpha).toBeCloseTo(1 - 0.4 / (168 / 380), 12);
  });

  it('one unit coded a and b: D_o = D_e = 1, alpha 0; nothing pairable: both 0', () => {
    // n = 2, one disagreeing pair each way: Σ o_ck = 2, D_o = 2/2; Σ n_c·n_k = 2, D_e = 2/(2·1).
    const one = krippendorffAlpha([['a', 'b']]);
    expect([one.observed, one.expected, one.alpha]).toEqual([1, 1, 0]);
    const none = krippendorffAlpha([['a', null], [undefined, 'b']]);
    expect([none.observed, none.expected, none.alpha, none.values, none.units]).toEqual([0, 0, null, 0, 0]);
  });

  it('undefined is a missing value, like null', () => {
    // Units {a, a} and {b, b} once the missing values are dropped: perfect agreement.
    const r = krippendorffAlpha([['a', undefined, 'a'], ['b', 'b', undefined]]);
    expect(r.values).toBe(4);
    expect(r.alpha).toBe(1);
  });
});

describe('confusion table order', () => {
  it('most used categories first, ties by name', () => {
    // Uses: z 3, b 3, a 2 → b, z (tie, by name), then a.
    const c = confusionTable([['z', 'z'], ['b', 'a'], ['a', 'b'], ['z', 'b']]);
    expect(c.categories).toEqual(['b', 'z', 'a']);
    expect(c.counts).toEqual([[0, 0, 1], [1, 1, 0], [1, 0, 0]]);
  });

  it('ties by name whatever the order of first use', () => {
    expect(confusionTable([['c', 'b'], ['a', 'a'], ['b', 'c']]).categories).toEqual(['a', 'b', 'c']);
    expect(confusionTable([['a', 'b'], ['c', 'c'], ['b', 'a']]).categories).toEqual(['a', 'b', 'c']);
  });
});

describe('agreement report: names and orders', () => {
  it('annotators, pairs and labels come sorted by name, the view defaults to set', () => {
    const anns = [R('i1', 'carol', 'z.late'), R('i1', 'bob', 'm.mid'), R('i1', 'alice', 'a.early'), R('i2', 'carol', 'm.mid')];
    const r = agreement(anns);
    expect(r.view).toBe('set');
    expect(r.annotators).toEqual(['alice', 'bob', 'carol']);
    expect(r.pairs.map((p) => `${p.a}/${p.b}`)).toEqual(['alice/bob', 'alice/carol', 'bob/carol']);
    expect(r.labels.map((l) => l.label)).toEqual(['a.early', 'm.mid', 'z.late']);
    expect(r.labels.map((l) => l.given)).toEqual([1, 2, 1]);
  });

  it('an annotation without labels is the category (none); a label set is its labels joined by " + "', () => {
    const anns = [R('i1', 'A'), R('i1', 'B', 'x.b', 'x.a'), R('i2', 'A', 'x.a'), R('i2', 'B')];
    expect(pairConfusion(anns, 'A', 'B').categories.sort()).toEqual(['(none)', 'x.a', 'x.a + x.b']);
    expect(pairConfusion(anns, 'A', 'B', 'primary').categories.sort()).toEqual(['(none)', 'x.a', 'x.b']);
  });

  it("a disagreement lists every annotator's labels, by annotator name", () => {
    const d = disagreements([R('i1', 'carol', 'x.a'), R('i1', 'alice', 'x.b'), R('i1', 'bob', 'x.a')]);
    expect(d).toHaveLength(1);
    expect(d[0].labels).toEqual({ alice: ['x.b'], bob: ['x.a'], carol: ['x.a'] });
    expect(Object.keys(d[0].labels)).toEqual(['alice', 'bob', 'carol']);
  });
});

describe('rule agreement', () => {
  it('rules come sorted by name', () => {
    // Neither in nor against the order of first suggestion.
    const r = ruleAgreement(
      [{ item: 'i1', rule: 'mu', label: 'l.m' }, { item: 'i1', rule: 'zeta', label: 'l.z' }, { item: 'i2', rule: 'alpha', label: 'l.a' }],
      [{ item: 'i1', annotator: 'p', labels: ['l.z'] }],
    );
    expect(r.rules.map((x) => x.rule)).toEqual(['alpha', 'mu', 'zeta']);
  });

  it('judgements without an annotator are all counted, none replaces another', () => {
    // Two anonymous judgements of i1, one giving the rule's label: judged 2, accepted 1.
    const r = ruleAgreement([{ item: 'i1', rule: 'r', label: 'l.x' }], [{ item: 'i1', labels: ['l.x'] }, { item: 'i1', labels: [] }]);
    expect([r.judged, r.accepted, r.precision]).toEqual([2, 1, 0.5]);
    expect(r.rules[0].positives).toBe(1);
  });
});
