/**
 * How far people agree with the pre-label rules: per rule, precision (of the judgements on
 * items where the rule fired, the share that give its label) and recall (of the judgements
 * that give its label, the share on items where the rule fired). A judgement is one person's
 * current labels for one item, so an item two people labeled counts twice; items nobody has
 * judged yet are left out, and so are judgements made by rules themselves (pass people's only).
 */

export interface RuleSuggestionRow {
  item: string;
  rule: string;
  label: string;
}

export interface Judgement {
  item: string;
  annotator?: string;
  labels: readonly string[];
}

export interface RulePrecision {
  rule: string;
  label: string;
  /** Judgements of items the rule fired on. */
  judged: number;
  /** Of those, how many give the rule's label. */
  accepted: number;
  precision: number | null;
  /** Judgements giving the rule's label, anywhere. */
  positives: number;
  recall: number | null;
}

export interface RuleAgreement {
  rules: RulePrecision[];
  /** Over every judged suggestion: the pre-label precision. */
  judged: number;
  accepted: number;
  precision: number | null;
}

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

export function ruleAgreement(
  suggestions: readonly RuleSuggestionRow[],
  judgements: readonly Judgement[],
): RuleAgreement {
  const byItem = new Map<string, Judgement[]>();
  for (const j of judgements) {
    const list = byItem.get(j.item) ?? [];
    // The later judgement of one annotator on one item replaces the earlier.
    const at = list.findIndex((x) => j.annotator !== undefined && x.annotator === j.annotator);
    if (at >= 0) list[at] = j;
    else list.push(j);
    byItem.set(j.item, list);
  }
  const rules = new Map<string, { label: string; items: Set<string> }>();
  for (const s of suggestions) {
    const r = rules.get(s.rule) ?? { label: s.label, items: new Set<string>() };
    r.items.add(s.item);
    rules.set(s.rule, r);
  }
  const all = [...byItem.values()].flat();
  let judged = 0;
  let accepted = 0;
  const out: RulePrecision[] = [];
  for (const [rule, { label, items }] of [...rules].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const on = [...items].flatMap((i) => byItem.get(i) ?? []);
    const yes = on.filter((j) => j.labels.includes(label)).length;
    const positives = all.filter((j) => j.labels.includes(label)).length;
    judged += on.length;
    accepted += yes;
    out.push({
      rule,
      label,
      judged: on.length,
      accepted: yes,
      precision: ratio(yes, on.length),
      positives,
      recall: ratio(yes, positives),
    });
  }
  return { rules: out, judged, accepted, precision: ratio(accepted, judged) };
}
