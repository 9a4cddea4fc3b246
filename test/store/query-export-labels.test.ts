/**
 * The label conditions of an export (src/store/queries/export-labels.ts): an export without
 * label keys gets no condition at all, so no per-row subquery over the annotations runs for
 * it (docs/export.md, "Labels"); each key adds exactly one, `labels-all` counting each label once.
 */
import { describe, expect, it } from 'vitest';
import { labelConditions } from '../../src/store/queries/export-labels.js';

describe('labelConditions', () => {
  it('adds no condition to an export without label keys', () => {
    for (const scope of ['corrections', 'items', 'steps', 'trajectories', 'traces'] as const) {
      expect(labelConditions(scope, {})).toEqual([]);
      expect(labelConditions(scope, { run: ['m'], exit: ['error'] })).toEqual([]);
    }
  });

  it('adds one condition per label key; labels-all asks for each distinct label once', () => {
    expect(labelConditions('traces', { labelsAny: ['a'] })).toHaveLength(1);
    expect(labelConditions('traces', { labelsNone: ['a'] })).toHaveLength(1);
    expect(labelConditions('traces', { annotator: 'ann' })).toHaveLength(1);
    const [all] = labelConditions('traces', { labelsAll: ['b', 'a', 'b'] });
    expect(all.params).toEqual(['b', 'a', 2]);
    expect(
      labelConditions('traces', { labelsAny: ['a'], labelsNone: ['b'], labelsAll: ['c'], annotator: 'x' }),
    ).toHaveLength(4);
  });
});
