/**
 * Editing a taxonomy one label at a time, as the app's taxonomy editor does: add a label,
 * change one, retire one (deprecated: kept, so every annotation that uses it still reads,
 * but no longer offered) or bring a retired one back. Each edit returns the next version
 * (version + 1) and leaves the given taxonomy as it was; the corpus stores it whole, as a new
 * version (src/labeling/taxonomy.ts). A label is never removed here: whatever annotations use
 * stays resolvable (taxonomy-diff.ts, the no-orphan rule).
 *
 * A clash is refused with one sentence a person can act on: a key taken in the group (with the
 * keys still free), an id or old id already in use, an empty field. Pure: no Node, no DOM.
 */
import { UserError } from '../common/errors.js';
import type { LabelExample, Taxonomy, TaxonomyLabel } from './taxonomy.js';
import { validateTaxonomy } from './taxonomy-validate.js';

/** What the editor's form holds: a label but its id (made from the group and name) and bookkeeping. */
export interface LabelDraft {
  group: string;
  key: number;
  name: string;
  description: string;
  example: LabelExample;
}

const refuse = (what: string) => new UserError(what, 'bad-input');

/** The keys 1–9 no active label of `group` holds (but `except`, the label being edited). */
export function freeKeys(t: Taxonomy, group: string, except?: string): number[] {
  const taken = new Set(
    t.labels.filter((l) => l.group === group && !l.deprecated && l.id !== except).map((l) => l.key),
  );
  return [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((k) => !taken.has(k));
}

/** The id a new label of `group` named `name` gets: `data.wrong_value` for "Wrong value". */
export function labelIdFor(group: string, name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 'n$1');
  return `${group}.${slug}`;
}

/** `except`: the label being edited; `active`: whether it will be offered (only then does its key clash). */
function checkDraft(t: Taxonomy, d: LabelDraft, except?: string, active = true): void {
  const group = t.groups.find((g) => g.id === d.group);
  if (!group) throw refuse(`there is no group '${d.group}' (groups: ${t.groups.map((g) => g.id).join(', ')})`);
  const needs = [
    ['a name', d.name],
    ['a description', d.description],
    ['an example of what a model wrote', d.example.predicted],
    ['the true target beside its example', d.example.truth],
  ] as const;
  for (const [what, v] of needs) if ((v ?? '').trim() === '') throw refuse(`the label needs ${what}`);
  if (!Number.isInteger(d.key) || d.key < 1 || d.key > 9) throw refuse(`the key must be 1 to 9, not ${d.key}`);
  const holder =
    active && t.labels.find((l) => l.group === d.group && l.key === d.key && !l.deprecated && l.id !== except);
  if (holder) {
    const free = freeKeys(t, d.group, except);
    throw refuse(
      `key ${d.key} is taken in ${group.name} by "${holder.name}" (${holder.id}): ${free.length ? `free keys: ${free.join(', ')}` : 'no key is free; retire a label of the group first'}`,
    );
  }
}

/** The next version with `labels`, checked whole (the backstop for anything the drafts missed). */
function next(t: Taxonomy, labels: TaxonomyLabel[]): Taxonomy {
  return validateTaxonomy({ ...t, version: t.version + 1, labels }, `taxonomy version ${t.version + 1}`);
}

const cleanExample = (e: LabelExample): LabelExample =>
  Object.fromEntries(
    Object.entries(e).filter(([, v]) => typeof v === 'string' && v.trim() !== ''),
  ) as unknown as LabelExample;

export function addLabel(t: Taxonomy, d: LabelDraft): Taxonomy {
  checkDraft(t, d);
  const id = labelIdFor(d.group, d.name);
  if (id.endsWith('.')) throw refuse(`the name "${d.name}" has no letter or digit to make the label's id from`);
  const same = t.labels.find((l) => l.id === id || l.was?.includes(id));
  if (same)
    throw refuse(
      `the id ${id} is ${same.id === id ? 'already' : 'an old id of'} "${same.name}"${same.deprecated ? ' (retired: bring it back instead)' : ''}: give the new label another name`,
    );
  const label: TaxonomyLabel = {
    id,
    group: d.group,
    key: d.key,
    name: d.name.trim(),
    description: d.description.trim(),
    example: cleanExample(d.example),
  };
  return next(t, [...t.labels, label]);
}

function find(t: Taxonomy, id: string): TaxonomyLabel {
  const l = t.labels.find((x) => x.id === id);
  if (!l) throw refuse(`there is no label ${id} in version ${t.version} of the taxonomy`);
  return l;
}

/** Changes a label's key, name, description or example; its id and group stay (annotations store the id). */
export function editLabel(t: Taxonomy, id: string, d: LabelDraft): Taxonomy {
  const old = find(t, id);
  if (d.group !== old.group)
    throw refuse(`a label keeps its group (${old.group}): add a new label to ${d.group} and retire this one`);
  checkDraft(t, d, id, !old.deprecated);
  const label: TaxonomyLabel = {
    ...old,
    key: d.key,
    name: d.name.trim(),
    description: d.description.trim(),
    example: cleanExample(d.example),
  };
  return next(
    t,
    t.labels.map((l) => (l.id === id ? label : l)),
  );
}

/** Retires a label: kept (annotations using it still read) but no longer offered; its key is free again. */
export function retireLabel(t: Taxonomy, id: string): Taxonomy {
  const old = find(t, id);
  if (old.deprecated) throw refuse(`${id} is retired already`);
  return next(
    t,
    t.labels.map((l) => (l.id === id ? { ...l, deprecated: true } : l)),
  );
}

/** Offers a retired label again, under its key if that is still free. */
export function restoreLabel(t: Taxonomy, id: string): Taxonomy {
  const old = find(t, id);
  if (!old.deprecated) throw refuse(`${id} is not retired`);
  checkDraft(t, old, id);
  return next(
    t,
    t.labels.map((l) => (l.id === id ? (({ deprecated: _, ...rest }) => rest)(l) : l)),
  );
}
