// What the inspector lists for a counterfactual's state against the original's at the same seq
// (renderer/src/lib/counterfactual.ts), and where the trees ring the edit and the first
// difference (views/tree/marks.ts), as docs/explorer.md ("Counterfactuals") says.
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/trace/types.js';
import { editText, stateChanges } from '../../renderer/src/lib/counterfactual.js';
import { counterfactualMarker } from '../../renderer/src/views/tree/marks.js';

const ev = (o: Partial<TraceEvent>): TraceEvent => ({
  seq: 4,
  event: 'line',
  frame: 1,
  func: 'f',
  line: 3,
  src: 'x',
  locals: {},
  arg: null,
  parent: null,
  ...o,
});

describe('stateChanges', () => {
  it('is empty for the same state', () => {
    const a = ev({ locals: { n: '5', acc: '[]' } });
    expect(stateChanges(a, { ...a, locals: { ...a.locals } })).toEqual([]);
  });

  it('names each local that differs, one the original has not, and one it lost', () => {
    const was = ev({ locals: { n: '5', gone: '1', same: "'a'" } });
    const now = ev({ locals: { n: '3', same: "'a'", extra: 'True' } });
    expect(stateChanges(was, now)).toEqual([
      { what: 'local', name: 'n', was: '5', now: '3' },
      { what: 'local', name: 'extra', was: null, now: 'True' },
      { what: 'local', name: 'gone', was: '1', now: null },
    ]);
  });

  it('says the line taken, the kind of state and the value returned when they differ', () => {
    const was = ev({ line: 4, event: 'line' });
    const now = ev({ line: 5, func: 'g', event: 'return', arg: '2' });
    expect(stateChanges(was, now)).toEqual([
      { what: 'line', was: 'line 4 in f', now: 'line 5 in g' },
      { what: 'event', was: 'line', now: 'return' },
      { what: 'return', was: null, now: '2' },
    ]);
  });

  it('past the original’s end, says where the new run is', () => {
    expect(stateChanges(null, ev({ line: 7 }))).toEqual([{ what: 'line', was: null, now: 'line 7 in f' }]);
  });

  it('shows an edit as name = literal', () => {
    expect(editText({ n: '3', s: "'ab'" })).toBe("n = 3, s = 'ab'");
  });
});

describe('counterfactualMarker', () => {
  // Node i is state i's own event; nodes 5.. are line_call twins.
  const tree = { plainOf: [0, 1, 2, 3, 4] };

  it('rings the edit and the first difference on one node when they are the same state', () => {
    const m = counterfactualMarker(tree, { seq: 2, first_difference: 2 });
    expect(m(2)).toEqual({ classes: ['cf-edit', 'cf-first'], data: { cf: 'edit first' } });
    expect([0, 1, 3, 4].map(m)).toEqual([null, null, null, null]);
  });

  it('marks them apart when the first difference comes later, and nothing past the tree', () => {
    const m = counterfactualMarker(tree, { seq: 1, first_difference: 3 });
    expect(m(1)?.data).toEqual({ cf: 'edit' });
    expect(m(3)?.data).toEqual({ cf: 'first' });
    const short = counterfactualMarker(tree, { seq: 1, first_difference: 5 });
    expect([0, 2, 3, 4].map(short)).toEqual([null, null, null, null]);
    expect(counterfactualMarker(tree, { seq: 1, first_difference: null })(3)).toBeNull();
  });

  it('marks nothing for a trace that is not a counterfactual', () => {
    expect(counterfactualMarker(tree, null)(1)).toBeNull();
  });
});
