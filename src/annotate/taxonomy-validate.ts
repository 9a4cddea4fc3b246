/**
 * Reading a taxonomy file (JSON in the shape of `Taxonomy`), as `stepscope taxonomy
 * --import FILE` will. Every problem is collected, not only the first, each as
 * `FILE: path: expected X, got Y` (`taxonomy.json: labels[3].key: expected 1-9, got 12`), so
 * one round of fixes is enough. Unknown fields are refused (a typo would otherwise be lost).
 * JSON syntax errors name the line and column.
 */
import { UserError } from '../common/errors.js';
import { readJson } from '../semantics/json-parse.js';
import type { LabelExample, Taxonomy, TaxonomyGroup, TaxonomyLabel } from './taxonomy.js';

export interface TaxonomyProblem {
  path: string;
  expected: string;
  got: string;
}

/** A taxonomy document that cannot be used; `problems` lists everything wrong with it. */
export class TaxonomyError extends UserError {
  constructor(
    readonly file: string,
    readonly problems: TaxonomyProblem[],
  ) {
    super(
      problems.map((p) => `${file}: ${p.path ? p.path + ': ' : ''}expected ${p.expected}, got ${p.got}`).join('\n'),
      'bad-input',
    );
  }
}

const GROUP_ID = /^[a-z][a-z0-9_]*$/;
const LABEL_ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const MAX_TEXT = 4000;

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  return String(v);
}

class Checker {
  problems: TaxonomyProblem[] = [];

  bad(path: string, expected: string, got: unknown): undefined {
    this.problems.push({ path, expected, got: show(got) });
    return undefined;
  }

  object(v: unknown, path: string, fields: readonly string[]): Record<string, unknown> | undefined {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return this.bad(path, 'an object', v);
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!fields.includes(k))
        this.bad(`${path ? path + '.' : ''}${k}`, `no such field (fields: ${fields.join(', ')})`, o[k]);
    return o;
  }

  text(v: unknown, path: string, optional = false): string | undefined {
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_TEXT)
      return this.bad(path, `a non-empty string of at most ${MAX_TEXT} characters`, v);
    return v;
  }

  array(v: unknown, path: string): unknown[] | undefined {
    if (!Array.isArray(v)) return this.bad(path, 'an array', v);
    return v;
  }
}

const at = (path: string, k: string) => (path ? `${path}.${k}` : k);

function group(c: Checker, v: unknown, path: string): TaxonomyGroup | undefined {
  const o = c.object(v, path, ['id', 'name', 'description']);
  if (!o) return undefined;
  const id =
    typeof o.id === 'string' && GROUP_ID.test(o.id)
      ? o.id
      : c.bad(at(path, 'id'), 'a lower-case name such as "data" (a-z, 0-9, _)', o.id);
  const name = c.text(o.name, at(path, 'name'));
  const description = c.text(o.description, at(path, 'description'));
  return id && name && description ? { id, name, description } : undefined;
}

function example(c: Checker, v: unknown, path: string): LabelExample | undefined {
  const o = c.object(v, path, ['code', 'action', 'before', 'predicted', 'truth', 'note']);
  if (!o) return undefined;
  const out: LabelExample = {
    predicted: c.text(o.predicted, at(path, 'predicted')) ?? '',
    truth: c.text(o.truth, at(path, 'truth')) ?? '',
  };
  for (const k of ['code', 'action', 'before', 'note'] as const) {
    const s = c.text(o[k], at(path, k), true);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

function label(c: Checker, v: unknown, path: string, groups: Set<string>): TaxonomyLabel | undefined {
  const o = c.object(v, path, ['id', 'group', 'key', 'name', 'description', 'example', 'deprecated', 'was']);
  if (!o) return undefined;
  const before = c.problems.length;
  const groupId =
    typeof o.group === 'string' && groups.has(o.group)
      ? o.group
      : c.bad(at(path, 'group'), `one of the groups (${[...groups].join(', ')})`, o.group);
  let id: string | undefined;
  if (typeof o.id !== 'string' || !LABEL_ID.test(o.id))
    c.bad(at(path, 'id'), 'an id "<group>.<name>" such as "data.wrong_value" (a-z, 0-9, _)', o.id);
  else if (groupId && !o.id.startsWith(groupId + '.'))
    c.bad(at(path, 'id'), `an id starting with "${groupId}." (its group)`, o.id);
  else id = o.id;
  const key =
    typeof o.key === 'number' && Number.isInteger(o.key) && o.key >= 1 && o.key <= 9
      ? o.key
      : c.bad(at(path, 'key'), '1-9', o.key);
  const name = c.text(o.name, at(path, 'name'));
  const description = c.text(o.description, at(path, 'description'));
  const ex = example(c, o.example, at(path, 'example'));
  if (o.deprecated !== undefined && typeof o.deprecated !== 'boolean')
    c.bad(at(path, 'deprecated'), 'true or false', o.deprecated);
  let was: string[] | undefined;
  if (o.was !== undefined) {
    const list = c.array(o.was, at(path, 'was'));
    list?.forEach((w, i) => {
      if (typeof w !== 'string' || !LABEL_ID.test(w))
        c.bad(`${at(path, 'was')}[${i}]`, 'an old label id such as "data.wrong_value"', w);
    });
    if (list && c.problems.length === before) was = list as string[];
  }
  if (c.problems.length > before || !id || !groupId || !key || !name || !description || !ex) return undefined;
  const out: TaxonomyLabel = { id, group: groupId, key, name, description, example: ex };
  if (o.deprecated === true) out.deprecated = true;
  if (was && was.length) out.was = was;
  return out;
}

/** Checks across labels: unique ids, keys unique among a group's active labels, `was` unambiguous. */
function crossCheck(c: Checker, labels: (TaxonomyLabel | undefined)[]): void {
  const ids = new Map<string, number>();
  const keys = new Map<string, string>();
  const olds = new Map<string, string>();
  labels.forEach((l, i) => {
    if (!l) return;
    const path = `labels[${i}]`;
    if (ids.has(l.id)) c.bad(`${path}.id`, `an id not used by labels[${ids.get(l.id)}]`, l.id);
    else ids.set(l.id, i);
    if (!l.deprecated) {
      const slot = `${l.group}#${l.key}`;
      const holder = keys.get(slot);
      if (holder)
        c.bad(
          `${path}.key`,
          `a key not used by another active label of group ${l.group} (${holder} has ${l.key})`,
          l.key,
        );
      else keys.set(slot, l.id);
    }
  });
  labels.forEach((l, i) => {
    l?.was?.forEach((w, j) => {
      const path = `labels[${i}].was[${j}]`;
      if (ids.has(w)) c.bad(path, 'an id no current label has (a label cannot be renamed to an id still in use)', w);
      else if (olds.has(w) && olds.get(w) !== l.id)
        c.bad(path, `an old id claimed by one label only (${olds.get(w)} lists it too)`, w);
      else olds.set(w, l.id);
    });
  });
}

/** Checks a parsed JSON value; throws TaxonomyError listing every problem. */
export function validateTaxonomy(v: unknown, file = 'taxonomy'): Taxonomy {
  const c = new Checker();
  const o = c.object(v, '', ['version', 'name', 'groups', 'labels']);
  if (!o) throw new TaxonomyError(file, c.problems);
  const version =
    typeof o.version === 'number' && Number.isInteger(o.version) && o.version >= 1
      ? o.version
      : c.bad('version', 'an integer, 1 or more', o.version);
  const name = c.text(o.name, 'name');
  const groups = (c.array(o.groups, 'groups') ?? []).map((g, i) => group(c, g, `groups[${i}]`));
  if (Array.isArray(o.groups) && o.groups.length === 0) c.bad('groups', 'at least one group', o.groups);
  // A group with a valid id counts even if its other fields are wrong: its labels are not at fault.
  const groupIds = new Set<string>();
  (Array.isArray(o.groups) ? o.groups : []).forEach((g: unknown, i) => {
    const id = (g as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !GROUP_ID.test(id)) return;
    if (groupIds.has(id)) c.bad(`groups[${i}].id`, 'a group id not used by an earlier group', id);
    groupIds.add(id);
  });
  const labels = (c.array(o.labels, 'labels') ?? []).map((l, i) => label(c, l, `labels[${i}]`, groupIds));
  crossCheck(c, labels);
  if (c.problems.length) throw new TaxonomyError(file, c.problems);
  return { version: version!, name: name!, groups: groups as TaxonomyGroup[], labels: labels as TaxonomyLabel[] };
}

/** Reads a taxonomy file's text: JSON syntax errors as `FILE:LINE:COLUMN: expected …`, then validateTaxonomy. */
export function parseTaxonomyText(text: string, file = 'taxonomy'): Taxonomy {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const r = readJson(text, start);
  let offset = -1;
  let expected = '';
  if (!r.ok) ({ offset, expected } = r);
  else if (text.slice(r.end).trim() !== '')
    [offset, expected] = [
      r.end + (text.slice(r.end).length - text.slice(r.end).trimStart().length),
      'the end of the file after the JSON value',
    ];
  if (offset >= 0) {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - (before.lastIndexOf('\n') + 1) + 1;
    const rest = text.slice(offset);
    const got = rest === '' ? 'end of file' : JSON.stringify(rest.length > 30 ? rest.slice(0, 30) + '…' : rest);
    throw new TaxonomyError(`${file}:${line}:${column}`, [{ path: '', expected, got }]);
  }
  return validateTaxonomy((r as { value: unknown }).value, file);
}
