/**
 * Automatic pre-labels for one prediction: the rules of rules.ts run in order over the
 * structural diff of the prediction and the truth. Deterministic: the same input gives the
 * same suggestions in the same order. A correct prediction (every applicable field matches)
 * gets none, and neither does a forward CRUXEval value that passes by execution.
 */
import { findLabel, type Taxonomy } from '../taxonomy.js';
import { RuleContext } from './context.js';
import type { PrelabelInput, Suggestion } from './input.js';
import { RULES } from './rules.js';

export interface PrelabelOptions {
  /** Map the default ids through this taxonomy (renames via `was`); labels it lacks or deprecates are dropped. */
  taxonomy?: Taxonomy;
}

export function prelabel(input: PrelabelInput, options: PrelabelOptions = {}): Suggestion[] {
  const ctx = new RuleContext(input);
  if (ctx.diff?.all) return [];
  // A value or call written as CRUXEval writes it is judged by running it: text may differ ("a" for 'a').
  if (input.execution === 'pass' && input.direction === 'forward' && (input.completionForm ?? 'state') !== 'state')
    return [];
  const out: Suggestion[] = [];
  for (const rule of RULES) {
    if (rule.needsParse && !ctx.pred) break;
    const f = rule.apply(ctx);
    if (!f) continue;
    for (const c of f.covers) ctx.covered.add(c);
    if (!out.some((s) => s.label === rule.label)) out.push({ label: rule.label, rule: rule.id, reason: f.reason });
    if (f.stop) break;
  }
  const t = options.taxonomy;
  if (!t) return out;
  const mapped: Suggestion[] = [];
  for (const s of out) {
    const found = findLabel(t, s.label);
    if (found && !found.label.deprecated && !mapped.some((m) => m.label === found.label.id))
      mapped.push({ ...s, label: found.label.id });
  }
  return mapped;
}
