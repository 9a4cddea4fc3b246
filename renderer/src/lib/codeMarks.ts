/**
 * CodeMirror marks of the code view: line backgrounds (visited, current, same text as where a
 * breakpoint stopped), the breakpoint gutter's dots (red: set; hollow: same text as a set one)
 * and a class on the gutters of lines no breakpoint can stop at; for an open prediction, the
 * true target's line and the predicted line in two colours. Set with `setMarks`.
 */
import { Decoration, GutterMarker, EditorView, gutterLineClass, type DecorationSet } from '@codemirror/view';
import { RangeSet, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { sameTextLines } from './lines.js';

export interface Marks {
  visited: Set<number>;
  current: number;
  hittable: Set<number>;
  breakpoints: Set<number>;
  sameText: number[];
  /** An open prediction: the true target's line and the predicted one (0: none); a second run's predicted line. */
  truth?: number;
  predicted?: number;
  predicted2?: number;
}
export const setMarks = StateEffect.define<Marks>();
const visitedDeco = Decoration.line({ class: 'cm-visited' });
const currentDeco = Decoration.line({ class: 'cm-current', attributes: { 'data-testid': 'current-line' } });
const sameDeco = Decoration.line({ class: 'cm-sametext' });
// A line can be the true one, run A's predicted one and run B's, in any combination (bit 1, 2, 4).
const PRED_MARKS = [
  ['cm-truth', 'truth-line'],
  ['cm-predicted', 'predicted-line'],
  ['cm-predicted-b', 'predicted-line-b'],
] as const;
const predictionDecos = Array.from({ length: 8 }, (_, bits) => {
  const on = PRED_MARKS.filter((_, j) => bits & (1 << j));
  return Decoration.line({
    class: on.map((x) => x[0]).join(' '),
    attributes: { 'data-testid': on.map((x) => x[1]).join(' ') },
  });
});

export class Dot extends GutterMarker {
  constructor(readonly kind: 'bp' | 'same' | 'none') {
    super();
  }
  eq(o: Dot) {
    return o.kind === this.kind;
  }
  toDOM() {
    const el = document.createElement('span');
    el.className = `bp-dot ${this.kind}`;
    if (this.kind !== 'none') el.dataset.testid = this.kind === 'bp' ? 'bp-dot' : 'bp-same';
    return el;
  }
}
const BP = new Dot('bp');
const SAME = new Dot('same');
class NoHit extends GutterMarker {
  elementClass = 'cm-nohit';
}
const NOHIT = new NoHit();

interface Built {
  deco: DecorationSet;
  dots: RangeSet<GutterMarker>;
  nohit: RangeSet<GutterMarker>;
}
const empty: Built = { deco: Decoration.none, dots: RangeSet.empty, nohit: RangeSet.empty };
export const marks = StateField.define<Built>({
  create: () => empty,
  update(cur, tr) {
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const m = e.value;
      const doc = tr.state.doc;
      const lines = doc.toString().split('\n');
      const same = new Set<number>();
      for (const b of m.breakpoints) for (const l of sameTextLines(lines, b)) if (!m.breakpoints.has(l)) same.add(l);
      const marked = new Set(m.sameText);
      const deco = new RangeSetBuilder<Decoration>();
      const dots = new RangeSetBuilder<GutterMarker>();
      const nohit = new RangeSetBuilder<GutterMarker>();
      for (let n = 1; n <= doc.lines; n++) {
        const from = doc.line(n).from;
        if (n === m.current) deco.add(from, from, currentDeco);
        else if (m.visited.has(n) && !marked.has(n)) deco.add(from, from, visitedDeco);
        if (marked.has(n)) deco.add(from, from, sameDeco);
        const bits = (n === m.truth ? 1 : 0) | (n === m.predicted ? 2 : 0) | (n === m.predicted2 ? 4 : 0);
        if (bits) deco.add(from, from, predictionDecos[bits]);
        if (m.breakpoints.has(n)) dots.add(from, from, BP);
        else if (same.has(n)) dots.add(from, from, SAME);
        if (!m.hittable.has(n)) nohit.add(from, from, NOHIT);
      }
      return { deco: deco.finish(), dots: dots.finish(), nohit: nohit.finish() };
    }
    return cur;
  },
  provide: (f) => [EditorView.decorations.from(f, (b) => b.deco), gutterLineClass.from(f, (b) => b.nohit)],
});
