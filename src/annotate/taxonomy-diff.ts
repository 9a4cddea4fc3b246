/**
 * What changed between two versions of a taxonomy, and whether the change may be applied to a
 * corpus whose annotations use some labels.
 *
 * The rule that keeps annotations from being orphaned: **every label id that an annotation
 * uses must still resolve in the new version**, either as a label's id or as an old id in a
 * label's `was`. So a used label can be deprecated (kept, not offered), renamed (new id, old
 * one in `was`) or merged into another (several old ids in one `was`), but never dropped.
 * A label no annotation uses may be removed. Any change needs a higher version number.
 */
import { UserError } from '../common/errors.js';
import { findLabel, type Taxonomy, type TaxonomyLabel } from './taxonomy.js';

export type LabelField = 'group' | 'key' | 'name' | 'description' | 'example';

export interface TaxonomyDiff {
  fromVersion: number;
  toVersion: number;
  groupsAdded: string[];
  groupsRemoved: string[];
  /** Ids new in `to` (not a rename of an id of `from`). */
  added: string[];
  /** Ids of `from` that no longer resolve in `to`. */
  removed: string[];
  /** An id of `from` now reached through `was`; two entries with one `to` are a merge. */
  renamed: { from: string; to: string }[];
  deprecated: string[];
  restored: string[];
  changed: { id: string; fields: LabelField[] }[];
}

const FIELDS: LabelField[] = ['group', 'key', 'name', 'description', 'example'];

/** The example compared field by field: key order in a file does not matter. */
const exampleText = (l: TaxonomyLabel) =>
  JSON.stringify(Object.entries(l.example).sort(([a], [b]) => (a < b ? -1 : 1)));

function same(a: TaxonomyLabel, b: TaxonomyLabel, f: LabelField): boolean {
  return f === 'example' ? exampleText(a) === exampleText(b) : a[f] === b[f];
}

export function diffTaxonomies(from: Taxonomy, to: Taxonomy): TaxonomyDiff {
  const d: TaxonomyDiff = {
    fromVersion: from.version,
    toVersion: to.version,
    groupsAdded: to.groups.filter((g) => !from.groups.some((h) => h.id === g.id)).map((g) => g.id),
    groupsRemoved: from.groups.filter((g) => !to.groups.some((h) => h.id === g.id)).map((g) => g.id),
    added: [],
    removed: [],
    renamed: [],
    deprecated: [],
    restored: [],
    changed: [],
  };
  const reached = new Set<string>();
  for (const old of from.labels) {
    const found = findLabel(to, old.id);
    if (!found) {
      d.removed.push(old.id);
      continue;
    }
    const now = found.label;
    reached.add(now.id);
    if (found.via) d.renamed.push({ from: old.id, to: now.id });
    if (!old.deprecated && now.deprecated) d.deprecated.push(now.id);
    if (old.deprecated && !now.deprecated) d.restored.push(now.id);
    const fields = FIELDS.filter((f) => !same(old, now, f));
    if (fields.length) d.changed.push({ id: now.id, fields });
  }
  d.added = to.labels.filter((l) => !reached.has(l.id)).map((l) => l.id);
  return d;
}

export function isEmptyDiff(d: TaxonomyDiff): boolean {
  return [d.groupsAdded, d.groupsRemoved, d.added, d.removed, d.renamed, d.deprecated, d.restored, d.changed].every(
    (a) => a.length === 0,
  );
}

export interface TaxonomyUpdateCheck {
  diff: TaxonomyDiff;
  /** Empty when `to` may replace `from`; else one sentence per problem. */
  problems: string[];
}

/**
 * Whether `to` may replace `from` in a corpus whose annotations use the label ids counted in
 * `usage` (id → number of annotations; ids may be old ones that resolve through `was`).
 * Group, name or layout changes are free; what matters is that no used id is left unresolved.
 */
export function checkTaxonomyUpdate(
  from: Taxonomy,
  to: Taxonomy,
  usage: ReadonlyMap<string, number>,
): TaxonomyUpdateCheck {
  const diff = diffTaxonomies(from, to);
  const problems: string[] = [];
  const changed =
    !isEmptyDiff(diff) ||
    to.name !== from.name ||
    JSON.stringify(to.groups.map((g) => [g.id, g.name, g.description])) !==
      JSON.stringify(from.groups.map((g) => [g.id, g.name, g.description]));
  if (to.version < from.version)
    problems.push(`version ${to.version} is older than the corpus's taxonomy (version ${from.version})`);
  else if (changed && to.version === from.version)
    problems.push(`the taxonomy changed but is still version ${to.version}: give it version ${from.version + 1}`);
  for (const [id, n] of [...usage].sort(([a], [b]) => a.localeCompare(b))) {
    if (n > 0 && !findLabel(to, id)) {
      problems.push(
        `label ${id} is used by ${n} annotation${n === 1 ? '' : 's'} and would be removed: keep it with "deprecated": true, or rename it by listing "${id}" in the new label's "was"`,
      );
    }
  }
  return { diff, problems };
}

/** checkTaxonomyUpdate, throwing a UserError with every problem when the update is refused. */
export function assertTaxonomyUpdate(
  from: Taxonomy,
  to: Taxonomy,
  usage: ReadonlyMap<string, number>,
  file = 'taxonomy',
): TaxonomyDiff {
  const { diff, problems } = checkTaxonomyUpdate(from, to, usage);
  if (problems.length) throw new UserError(problems.map((p) => `${file}: ${p}`).join('\n'), 'bad-input');
  return diff;
}
