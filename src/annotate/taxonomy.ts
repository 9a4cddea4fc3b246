/**
 * The failure taxonomy: groups of labels, versioned (src/annotate/README.md).
 *
 * A label's `id` (`data.missing_local`) is what annotations store, so it never changes in
 * place: a rename is a new id that lists the old one in `was`, and a label that annotations
 * use is never removed, only marked `deprecated` (see taxonomy-diff.ts). Old ids therefore
 * always resolve: `findLabel` follows `was`, so stored annotations need no rewriting.
 *
 * Pure: no Node, no DOM.
 */
import { UserError } from '../common/errors.js';

export interface TaxonomyGroup {
  /** `format`, `data` …: the prefix of its labels' ids. */
  id: string;
  name: string;
  description: string;
}

/** A realistic case of the label: what the model wrote beside the truth. */
export interface LabelExample {
  /** The program (or the part that matters). */
  code?: string;
  /** The action asked, as the CLI writes it (`step_into`, `breakpoint     return n`). */
  action?: string;
  /** The state the action was taken from, serialized, with all its locals. */
  before?: string;
  /** What the model wrote. */
  predicted: string;
  /** The true target (docs/semantics.md §6). */
  truth: string;
  /** What to look at. */
  note?: string;
}

export interface TaxonomyLabel {
  /** `<group>.<name>`, lower case; what annotations store. */
  id: string;
  group: string;
  /** 1–9, unique among the group's active labels: the key that toggles it in the queue. */
  key: number;
  name: string;
  description: string;
  example: LabelExample;
  /** Kept so its annotations stay readable, but not offered for new ones. */
  deprecated?: boolean;
  /** Ids this label had before (renames, merges); annotations under them resolve here. */
  was?: string[];
}

export interface Taxonomy {
  /** Raised by every change; the corpus keeps each version. */
  version: number;
  name: string;
  groups: TaxonomyGroup[];
  labels: TaxonomyLabel[];
}

export interface FoundLabel {
  label: TaxonomyLabel;
  /** The id asked for, when it was an old id (`was`) of the label. */
  via?: string;
}

/** The label an id names, directly or through an old id in `was`. */
export function findLabel(t: Taxonomy, id: string): FoundLabel | undefined {
  const direct = t.labels.find((l) => l.id === id);
  if (direct) return { label: direct };
  const renamed = t.labels.find((l) => l.was?.includes(id));
  return renamed && { label: renamed, via: id };
}

/** The labels of a group that can be given (not deprecated), by key. */
export function groupLabels(t: Taxonomy, group: string): TaxonomyLabel[] {
  return t.labels.filter((l) => l.group === group && !l.deprecated).sort((a, b) => a.key - b.key);
}

/** The active label bound to `key` (1–9) in `group`, if any. */
export function labelForKey(t: Taxonomy, group: string, key: number): TaxonomyLabel | undefined {
  return t.labels.find((l) => l.group === group && l.key === key && !l.deprecated);
}

/**
 * Resolves what a person typed (`--label data.wrong_type,missing_local`) to active label ids:
 * a full id, an old id (`was`), or a name after the dot when only one label has it. Throws a
 * one-line UserError for an unknown, ambiguous or deprecated label; nothing is half-resolved.
 */
export function resolveLabels(t: Taxonomy, asked: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of asked) {
    const id = raw.trim();
    let found = findLabel(t, id);
    if (!found && !id.includes('.')) {
      const bySuffix = t.labels.filter((l) => l.id.slice(l.id.indexOf('.') + 1) === id);
      if (bySuffix.length > 1)
        throw new UserError(`label '${id}' is ambiguous: ${bySuffix.map((l) => l.id).join(' or ')}`, 'bad-input');
      if (bySuffix.length === 1) found = { label: bySuffix[0] };
    }
    if (!found)
      throw new UserError(
        `unknown label '${id}' (taxonomy '${t.name}' version ${t.version}; \`stepscope taxonomy\` lists the labels)`,
        'bad-input',
      );
    if (found.label.deprecated)
      throw new UserError(`label '${found.label.id}' is deprecated and cannot be given any more`, 'bad-input');
    if (!out.includes(found.label.id)) out.push(found.label.id);
  }
  return out;
}
