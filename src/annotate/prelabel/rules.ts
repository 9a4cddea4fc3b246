/**
 * Every pre-label rule, in the order they run. Order matters twice: a rule leaves alone the
 * fields an earlier rule explained (Finding.covers), and a label is suggested once, by the
 * first rule that reaches it. Specific before general: the text, then the truth's own
 * limits, then the event, the line, and the values.
 */
import { dataRules } from './rules-data.js';
import { eventRules } from './rules-events.js';
import { deltaRules, formatRules } from './rules-format.js';
import { lineRules } from './rules-lines.js';
import { truthRules } from './rules-truth.js';
import type { Rule } from './rule.js';

export const RULES: readonly Rule[] = [
  ...formatRules,
  ...truthRules,
  ...eventRules,
  ...lineRules,
  ...dataRules,
  ...deltaRules,
];
