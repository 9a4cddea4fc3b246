/**
 * Locals as the model sees them (docs/semantics.md §6).
 * The result is a plain object in the order of the shown state's locals, with the
 * marker `"..": ".."` first when any name was left out.
 */
import type { Direction } from './types.js';

export const ELIDED_KEY = '..';
export type Locals = Record<string, string>;

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Forward: the names of `cur` that are new or whose repr differs from `prev`.
 * Inverse: the names of `cur` that also exist in `prev` with a different repr.
 */
export function localsDelta(direction: Direction, prev: Locals, cur: Locals): Locals {
  const shown: [string, string][] = [];
  let omitted = false;
  for (const k of Object.keys(cur)) {
    const v = cur[k];
    const keep = direction === 'forward' ? !has(prev, k) || prev[k] !== v : has(prev, k) && prev[k] !== v;
    if (keep) shown.push([k, v]);
    else omitted = true;
  }
  const out: Locals = {};
  if (omitted) out[ELIDED_KEY] = ELIDED_KEY;
  for (const [k, v] of shown) define(out, k, v);
  return out;
}

/** Sets an own property even for the name `__proto__` (a legal Python identifier). */
export function define(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
