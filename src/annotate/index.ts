/**
 * Failure annotation, the pure core (src/annotate/README.md): the taxonomy and its versions,
 * the default taxonomy of execution-prediction errors, automatic pre-labels, and agreement
 * statistics between annotators and between rules and people. No Node, no DOM, no store.
 */
export * from './taxonomy.js';
export * from './taxonomy-validate.js';
export * from './taxonomy-diff.js';
export { DEFAULT_TAXONOMY } from './default-taxonomy.js';
export { prelabel, type PrelabelOptions } from './prelabel/prelabel.js';
export type { PrelabelInput, EventFacts, Suggestion } from './prelabel/input.js';
export { readCompletion, type CompletionForm } from './prelabel/completion-form.js';
export { RULES } from './prelabel/rules.js';
export type { Rule, Finding } from './prelabel/rule.js';
export { fieldDiff, type FieldDiff, type LocalDiff } from './prelabel/diff.js';
export { cohenKappa, type KappaResult } from './stats/kappa.js';
export { krippendorffAlpha, type AlphaResult } from './stats/alpha.js';
export { confusionTable, type Confusion } from './stats/confusion.js';
export * from './stats/agreement.js';
export * from './stats/rule-agreement.js';
export { itemPrelabelInput, type ItemTrace, type ItemShape, type PredictionInput } from './prelabel/from-item.js';
export * from './target.js';
export type * from './record.js';
export * from './taxonomy-edit.js';
