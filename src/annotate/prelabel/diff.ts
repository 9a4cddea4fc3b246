/**
 * The field-by-field difference between a parsed prediction and the true target, with exact
 * match as docs/semantics.md §8 defines it (locals equal as JSON objects, src to the
 * character, a field the truth does not have is not applicable), plus what the rules need:
 * which local names differ and how.
 */
import { ELIDED_KEY } from '../../semantics/delta.js';
import type { JsonValue } from '../../semantics/json-parse.js';
import type { Prediction } from '../../semantics/parse.js';

export interface LocalDiff {
  name: string;
  /** The shown value as text (a repr); undefined when the name is not shown. */
  predicted?: string;
  truth?: string;
  /** The predicted value is JSON but not a string (not a repr). */
  notString?: boolean;
}

export interface FieldDiff {
  event: boolean;
  /** null: not applicable (the truth has no such field). */
  src: boolean | null;
  locals: boolean | null;
  arg: boolean | null;
  /** Every applicable field matches. */
  all: boolean;
  /** Local names shown differently (or on one side only), the ".." marker excluded. */
  localDiffs: LocalDiff[];
}

function canonical(v: JsonValue | undefined): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => JSON.stringify(k) + ':' + canonical(v[k]))
    .join(',')}}`;
}

export const sameJson = (a: JsonValue | undefined, b: JsonValue | undefined) => canonical(a) === canonical(b);

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export function fieldDiff(p: Prediction, t: Prediction): FieldDiff {
  const event = p.event === t.event;
  const src = t.src === undefined ? null : p.src === t.src;
  const locals = t.locals === undefined ? null : p.locals !== undefined && sameJson(p.locals, t.locals);
  const arg = t.arg === undefined ? null : p.arg !== undefined && sameJson(p.arg, t.arg);
  const pl = p.locals ?? {};
  const tl = t.locals ?? {};
  const names = [...new Set([...Object.keys(pl), ...Object.keys(tl)])].filter((n) => n !== ELIDED_KEY);
  const localDiffs: LocalDiff[] = [];
  for (const name of names) {
    const pv = has(pl, name) ? pl[name] : undefined;
    const tv = has(tl, name) ? (tl[name] as string) : undefined;
    if (sameJson(pv, tv)) continue;
    const d: LocalDiff = { name };
    if (pv !== undefined) d.predicted = typeof pv === 'string' ? pv : JSON.stringify(pv);
    if (pv !== undefined && typeof pv !== 'string') d.notString = true;
    if (tv !== undefined) d.truth = tv;
    localDiffs.push(d);
  }
  return {
    event,
    src,
    locals,
    arg,
    all: event && src !== false && locals !== false && arg !== false,
    localDiffs,
  };
}
