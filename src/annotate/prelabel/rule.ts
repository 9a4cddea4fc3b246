/** The shape of a pre-label rule (the rules themselves are in rules-*.ts, their order in rules.ts). */
import type { RuleContext } from './context.js';

export interface Finding {
  reason: string;
  /**
   * Fields this explains (`text`, `event`, `src`, `arg`, `local:<name>`, `locals`, `all`); later rules leave them
   * alone, and rules on the other fields still run.
   */
  covers: string[];
  /** Nothing after this rule applies (the whole failure is explained). */
  stop?: boolean;
}

export interface Rule {
  /** Stable: stored with each suggestion, and the key of the rule-vs-people statistics. */
  id: string;
  /** The default taxonomy's label it suggests. */
  label: string;
  /** When it fires, in one sentence (the README's rule table is checked against it). */
  when: string;
  /** false: runs on completions that do not parse too (format rules). */
  needsParse: boolean;
  apply(ctx: RuleContext): Finding | undefined;
}

/** A rule on parsed predictions. */
export function parsedRule(
  id: string,
  label: string,
  when: string,
  apply: (ctx: RuleContext) => Finding | undefined,
): Rule {
  return { id, label, when, needsParse: true, apply };
}

/** Shortens a repr or src for a reason text. */
export function clip(s: string | undefined, n = 40): string {
  if (s === undefined) return '(absent)';
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
