/**
 * Agreement between annotators on multi-label annotations (src/annotate/README.md, "How
 * several labels enter the statistics").
 *
 * An annotation may carry several labels, and kappa and alpha are defined for one category
 * per item and annotator. So:
 * - overall (kappa per pair, alpha, confusion): each annotation becomes one category, either
 *   its whole label set (`set` view, the default: "data.wrong_type + data.wrong_value"; agreeing
 *   means giving exactly the same labels) or its first label (`primary` view: the label the
 *   annotator gave first, for the cause they saw first);
 * - per label: each annotation says yes or no to the label (one-vs-rest), and alpha is taken
 *   on that binary variable; an annotator who did not annotate an item is missing, not "no".
 *
 * Input is the current annotation of each (item, annotator); if one appears twice the later
 * one counts. Only people's annotations belong here (rules are compared in rule-agreement.ts).
 */
import { krippendorffAlpha } from './alpha.js';
import { confusionTable, type Confusion } from './confusion.js';
import { cohenKappa } from './kappa.js';

/** One annotator's labels on one item, as the statistics see it. */
export interface Rating {
  /** Any stable key of the target (prediction, state or transition). */
  item: string;
  annotator: string;
  labels: readonly string[];
}

export type LabelView = 'set' | 'primary';

/** The category of an annotation without labels (a person looked and saw nothing to label). */
export const NO_LABEL = '(none)';

/** One category for an annotation's labels under `view`. */
export function categoryOf(labels: readonly string[], view: LabelView): string {
  if (labels.length === 0) return NO_LABEL;
  return view === 'primary' ? labels[0] : [...new Set(labels)].sort().join(' + ');
}

export interface PairAgreement {
  a: string;
  b: string;
  /** Items both annotated. */
  items: number;
  kappa: number | null;
  /** The share of those items with the same category. */
  observed: number;
}

export interface LabelAgreement {
  label: string;
  /** Alpha on "has this label": yes / no per annotation. */
  alpha: number | null;
  /** Annotations carrying the label. */
  given: number;
}

export interface AgreementReport {
  view: LabelView;
  annotators: string[];
  /** Items annotated by at least two annotators: what agreement is measured on. */
  items: number;
  alpha: number | null;
  pairs: PairAgreement[];
  labels: LabelAgreement[];
}

/** item → annotator → labels, the later annotation of a pair winning. */
function table(annotations: readonly Rating[]): Map<string, Map<string, readonly string[]>> {
  const t = new Map<string, Map<string, readonly string[]>>();
  for (const a of annotations) {
    let row = t.get(a.item);
    if (!row) t.set(a.item, (row = new Map()));
    row.set(a.annotator, a.labels);
  }
  return t;
}

const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** [A's category, B's category] for each item both annotated. */
function pairsOf(
  t: Map<string, Map<string, readonly string[]>>,
  a: string,
  b: string,
  view: LabelView,
): [string, string][] {
  const out: [string, string][] = [];
  for (const row of t.values()) {
    const x = row.get(a);
    const y = row.get(b);
    if (x && y) out.push([categoryOf(x, view), categoryOf(y, view)]);
  }
  return out;
}

export function agreement(
  annotations: readonly Rating[],
  options: { view?: LabelView; labels?: readonly string[] } = {},
): AgreementReport {
  const view = options.view ?? 'set';
  const t = table(annotations);
  const annotators = [...new Set(annotations.map((a) => a.annotator))].sort(byName);
  const rows = [...t.values()];
  const pairs: PairAgreement[] = [];
  for (let i = 0; i < annotators.length; i++) {
    for (let j = i + 1; j < annotators.length; j++) {
      const k = cohenKappa(pairsOf(t, annotators[i], annotators[j], view));
      pairs.push({ a: annotators[i], b: annotators[j], items: k.items, kappa: k.kappa, observed: k.observed });
    }
  }
  const labelIds = options.labels ?? [...new Set(annotations.flatMap((a) => a.labels))].sort(byName);
  const labels = labelIds.map((label) => ({
    label,
    alpha: krippendorffAlpha(rows.map((row) => [...row.values()].map((ls) => (ls.includes(label) ? 'yes' : 'no'))))
      .alpha,
    given: rows.reduce((s, row) => s + [...row.values()].filter((ls) => ls.includes(label)).length, 0),
  }));
  return {
    view,
    annotators,
    items: rows.filter((row) => row.size >= 2).length,
    alpha: krippendorffAlpha(rows.map((row) => [...row.values()].map((ls) => categoryOf(ls, view)))).alpha,
    pairs,
    labels,
  };
}

/** The confusion table of two annotators on the items both annotated. */
export function pairConfusion(
  annotations: readonly Rating[],
  a: string,
  b: string,
  view: LabelView = 'set',
): Confusion {
  return confusionTable(pairsOf(table(annotations), a, b, view));
}

export interface Disagreement {
  item: string;
  /** annotator → labels, for every annotator of the item. */
  labels: Record<string, readonly string[]>;
}

/** Items whose annotators do not all give the same category: what an adjudicator looks at. */
export function disagreements(annotations: readonly Rating[], view: LabelView = 'set'): Disagreement[] {
  const out: Disagreement[] = [];
  for (const [item, row] of table(annotations)) {
    if (new Set([...row.values()].map((ls) => categoryOf(ls, view))).size < 2) continue;
    out.push({ item, labels: Object.fromEntries([...row].sort(([x], [y]) => byName(x, y))) });
  }
  return out;
}
