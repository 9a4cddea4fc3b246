/**
 * Agreement statistics checked against published worked examples, never against numbers this
 * code produced:
 * - Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability". Annenberg School
 *   for Communication, University of Pennsylvania, Departmental Papers (ASC) 43. Section A
 *   (binary, 2 observers, 10 units): α = 0.095; section B (nominal, 2 observers, 12 units):
 *   α = 0.692; section C (nominal, 4 observers, 12 units, missing values): α = 0.743. Section C's
 *   data is also the "C data from Krippendorff" example of R's irr::kripp.alpha.
 * - Wikipedia, "Krippendorff's alpha", section "A computational example" (3 coders, 15 units,
 *   missing values): nominal α = 0.691 (0.691358 in the test suite of the Python package
 *   `krippendorff`).
 * - Wikipedia, "Cohen's kappa", section "Simple example" (two readers, 50 grant proposals,
 *   yes/yes 20, yes/no 5, no/yes 10, no/no 15): p_o = 0.7, p_e = 0.5, κ = 0.4.
 * Then what users read around the figures, computed by hand: the orders of annotators, labels
 * and confusion categories, the names of categories, missing values given as undefined, and
 * alpha's D_o and D_e (section A of Krippendorff (2011), worked out in the comments).
 */
import { describe, expect, it } from 'vitest';
import {
  agreement,
  cohenKappa,
  confusionTable,
  disagreements,
  krippendorffAlpha,
  pairConfusion,
  type Rating,
} from '../../src/annotate/index.js';

const R = (item: string, annotator: string, ...labels: string[]): Rating => ({ item, annotator, labels });

/** Reliability data as printed (one row per coder, `.` or `*` = missing) → one array per unit. */
function units(rows: string[]): (string | null)[][] {
  const m = rows.map((r) => r.trim().split(/\s+/));
  return m[0].map((_, u) => m.map((r) => (r[u] === '.' || r[u] === '*' ? null : r[u])));
}

/** A 2×2 (or k×k) table of counts → one pair per item. */
function pairsFromTable(cells: [string, string, number][]): [string, string][] {
  return cells.flatMap(([a, b, n]) => Array.from({ length: n }, () => [a, b] as [string, string]));
}

describe("Krippendorff's alpha (nominal)", () => {
  it('section C of Krippendorff (2011): 4 observers, 12 units, missing values: 0.743', () => {
    const r = krippendorffAlpha(
      units([
        '1 2 3 3 2 1 4 1 2 . . .',
        '1 2 3 3 2 2 4 1 2 5 . 3',
        '. 3 3 3 2 3 4 2 2 5 1 .',
        '1 2 3 3 2 4 4 1 2 5 1 .',
      ]),
    );
    expect(r.alpha).toBeCloseTo(0.743, 3);
    // Unit 12 has one value: not pairable. The paper counts n = 40 pairable values.
    expect(r.units).toBe(11);
    expect(r.values).toBe(40);
  });

  it('section A of Krippendorff (2011): binary, 2 observers, 10 units: 0.095', () => {
    expect(krippendorffAlpha(units(['0 1 0 0 0 0 0 0 1 0', '1 1 1 0 0 1 0 0 0 0'])).alpha).toBeCloseTo(0.095, 3);
  });

  it('section B of Krippendorff (2011): nominal, 2 observers, 12 units: 0.692', () => {
    expect(krippendorffAlpha(units(['a a b b d c c c e d d a', 'b a b b b c c c e d d d'])).alpha).toBeCloseTo(
      0.692,
      3,
    );
  });

  it("Wikipedia's computational example: 3 coders, 15 units, missing values: 0.691", () => {
    const r = krippendorffAlpha(
      units(['* * * * * 3 4 1 2 1 1 3 3 * 3', '1 * 2 1 3 3 4 3 * * * * * * *', '* * 2 1 3 4 4 * 2 1 1 3 3 * 4']),
    );
    expect(r.alpha).toBeCloseTo(0.691358, 6);
  });

  it('does not depend on which coder is which, nor on the order of units', () => {
    const rows = [
      '1 2 3 3 2 1 4 1 2 . . .',
      '1 2 3 3 2 2 4 1 2 5 . 3',
      '. 3 3 3 2 3 4 2 2 5 1 .',
      '1 2 3 3 2 4 4 1 2 5 1 .',
    ];
    const shuffled = units([rows[2], rows[0], rows[3], rows[1]]).reverse();
    expect(krippendorffAlpha(shuffled).alpha).toBeCloseTo(0.743, 3);
  });

  it('is 1 for perfect agreement, and undefined (null) with no pairable value or a single category', () => {
    expect(krippendorffAlpha(units(['a b c', 'a b c'])).alpha).toBe(1);
    expect(krippendorffAlpha(units(['a . c', '. b .'])).alpha).toBeNull();
    expect(krippendorffAlpha(units(['a a a', 'a a a'])).alpha).toBeNull();
  });
});

describe("Cohen's kappa", () => {
  it("Wikipedia's simple example: 50 proposals, p_o 0.7, p_e 0.5, kappa 0.4", () => {
    const k = cohenKappa(
      pairsFromTable([
        ['yes', 'yes', 20],
        ['yes', 'no', 5],
        ['no', 'yes', 10],
        ['no', 'no', 15],
      ]),
    );
    expect(k.observed).toBeCloseTo(0.7, 12);
    expect(k.expected).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
    expect(k.items).toBe(50);
  });

  it('is symmetric, 1 for perfect agreement, and undefined when both use one category only', () => {
    const p = pairsFromTable([
      ['yes', 'yes', 20],
      ['yes', 'no', 5],
      ['no', 'yes', 10],
      ['no', 'no', 15],
    ]);
    expect(cohenKappa(p.map(([a, b]) => [b, a] as [string, string])).kappa).toBeCloseTo(0.4, 12);
    expect(
      cohenKappa([
        ['a', 'a'],
        ['b', 'b'],
      ]).kappa,
    ).toBe(1);
    expect(
      cohenKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]).kappa,
    ).toBeNull();
    expect(cohenKappa([]).kappa).toBeNull();
  });
});

describe('confusion table', () => {
  it('counts what A said against what B said, most used categories first', () => {
    const c = confusionTable(
      pairsFromTable([
        ['yes', 'yes', 20],
        ['yes', 'no', 5],
        ['no', 'yes', 10],
        ['no', 'no', 15],
      ]),
    );
    expect(c.categories).toEqual(['yes', 'no']);
    expect(c.counts).toEqual([
      [20, 5],
      [10, 15],
    ]);
    expect(c.items).toBe(50);
  });

  it('most used categories first, ties by name', () => {
    // Uses: z 3, b 3, a 2 → b, z (tie, by name), then a.
    const c = confusionTable([
      ['z', 'z'],
      ['b', 'a'],
      ['a', 'b'],
      ['z', 'b'],
    ]);
    expect(c.categories).toEqual(['b', 'z', 'a']);
    expect(c.counts).toEqual([
      [0, 0, 1],
      [1, 1, 0],
      [1, 0, 0],
    ]);
  });

  it('ties by name whatever the order of first use', () => {
    expect(
      confusionTable([
        ['c', 'b'],
        ['a', 'a'],
        ['b', 'c'],
      ]).categories,
    ).toEqual(['a', 'b', 'c']);
    expect(
      confusionTable([
        ['a', 'b'],
        ['c', 'c'],
        ['b', 'a'],
      ]).categories,
    ).toEqual(['a', 'b', 'c']);
  });
});

describe('agreement on multi-label annotations', () => {
  // Krippendorff's section C, as annotations: observers A-D, units u1-u12, values as labels.
  const rows = [
    '1 2 3 3 2 1 4 1 2 . . .',
    '1 2 3 3 2 2 4 1 2 5 . 3',
    '. 3 3 3 2 3 4 2 2 5 1 .',
    '1 2 3 3 2 4 4 1 2 5 1 .',
  ];
  const section: Rating[] = rows.flatMap((r, i) =>
    r.split(' ').flatMap((v, u) => (v === '.' ? [] : [{ item: `u${u + 1}`, annotator: 'ABCD'[i], labels: [`l${v}`] }])),
  );

  it('with one label each, overall alpha is the published nominal alpha', () => {
    const r = agreement(section);
    expect(r.alpha).toBeCloseTo(0.743, 3);
    expect(r.annotators).toEqual(['A', 'B', 'C', 'D']);
    expect(r.items).toBe(11);
    expect(r.pairs.map((p) => `${p.a}${p.b}`)).toEqual(['AB', 'AC', 'AD', 'BC', 'BD', 'CD']);
  });

  it("a pair's kappa is Cohen's kappa on the items both labeled (Wikipedia's example as two annotators)", () => {
    const anns = pairsFromTable([
      ['yes', 'yes', 20],
      ['yes', 'no', 5],
      ['no', 'yes', 10],
      ['no', 'no', 15],
    ]).flatMap(([a, b], i) => [
      { item: `p${i}`, annotator: 'reader A', labels: [a] },
      { item: `p${i}`, annotator: 'reader B', labels: [b] },
    ]);
    const r = agreement([...anns, { item: 'only-A', annotator: 'reader A', labels: ['yes'] }]);
    expect(r.pairs).toHaveLength(1);
    expect(r.pairs[0].items).toBe(50);
    expect(r.pairs[0].kappa).toBeCloseTo(0.4, 12);
    expect(pairConfusion(anns, 'reader A', 'reader B').counts).toEqual([
      [20, 5],
      [10, 15],
    ]);
  });

  it('per label: alpha on "has the label" (one-vs-rest), the binary example of section A', () => {
    // Section A's binary data: 1 = the item carries data.wrong_type (beside another label), 0 = not.
    const a = '0 1 0 0 0 0 0 0 1 0'.split(' ');
    const b = '1 1 1 0 0 1 0 0 0 0'.split(' ');
    const anns = a.flatMap((x, u) => [
      {
        item: `i${u}`,
        annotator: 'a',
        labels: x === '1' ? ['data.wrong_value', 'data.wrong_type'] : ['data.wrong_value'],
      },
      {
        item: `i${u}`,
        annotator: 'b',
        labels: b[u] === '1' ? ['data.wrong_type', 'data.wrong_value'] : ['data.wrong_value'],
      },
    ]);
    const r = agreement(anns);
    const byLabel = Object.fromEntries(r.labels.map((l) => [l.label, l]));
    expect(byLabel['data.wrong_type'].alpha).toBeCloseTo(0.095, 3);
    expect(byLabel['data.wrong_type'].given).toBe(6);
    // Everyone gave data.wrong_value: no disagreement possible, alpha undefined.
    expect(byLabel['data.wrong_value'].alpha).toBeNull();
    // The set view ignores label order: the overall alpha equals the wrong_type one here.
    expect(r.alpha).toBeCloseTo(0.095, 3);
  });

  it('the primary view compares first labels only; the set view whole sets', () => {
    const anns: Rating[] = [
      { item: 'x', annotator: 'a', labels: ['data.wrong_value', 'data.wrong_type'] },
      { item: 'x', annotator: 'b', labels: ['data.wrong_value'] },
      { item: 'y', annotator: 'a', labels: ['control.branch'] },
      { item: 'y', annotator: 'b', labels: ['control.branch'] },
    ];
    expect(agreement(anns, { view: 'primary' }).pairs[0].observed).toBe(1);
    expect(agreement(anns, { view: 'set' }).pairs[0].observed).toBe(0.5);
    expect(disagreements(anns).map((d) => d.item)).toEqual(['x']);
    expect(disagreements(anns, 'primary')).toEqual([]);
  });

  it("an annotator's later annotation of an item replaces the earlier; missing annotators are missing, not 'no'", () => {
    const anns: Rating[] = [
      { item: 'x', annotator: 'a', labels: ['data.wrong_type'] },
      { item: 'x', annotator: 'b', labels: ['data.wrong_value'] },
      { item: 'x', annotator: 'a', labels: ['data.wrong_value'] },
      { item: 'y', annotator: 'a', labels: ['data.wrong_type'] },
    ];
    const r = agreement(anns);
    expect(r.pairs[0]).toMatchObject({ items: 1, observed: 1 });
    expect(r.items).toBe(1);
    expect(disagreements(anns)).toEqual([]);
  });
});

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
    const none = krippendorffAlpha([
      ['a', null],
      [undefined, 'b'],
    ]);
    expect([none.observed, none.expected, none.alpha, none.values, none.units]).toEqual([0, 0, null, 0, 0]);
  });

  it('undefined is a missing value, like null', () => {
    // Units {a, a} and {b, b} once the missing values are dropped: perfect agreement.
    const r = krippendorffAlpha([
      ['a', undefined, 'a'],
      ['b', 'b', undefined],
    ]);
    expect(r.values).toBe(4);
    expect(r.alpha).toBe(1);
  });
});

describe('agreement report: names and orders', () => {
  it('annotators, pairs and labels come sorted by name, the view defaults to set', () => {
    const anns = [
      R('i1', 'carol', 'z.late'),
      R('i1', 'bob', 'm.mid'),
      R('i1', 'alice', 'a.early'),
      R('i2', 'carol', 'm.mid'),
    ];
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
