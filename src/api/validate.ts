/**
 * Tiny hand-written validators for API params arriving from the renderer or the network.
 * A validator returns the typed value or throws ApiError naming the field and what was
 * expected. Pure: importable from Node and the renderer.
 */
import { ApiError } from './result.js';

export type Validator<T> = (v: unknown, path: string) => T;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

function bad(path: string, expected: string, v: unknown): never {
  throw new ApiError(`${path}: expected ${expected}, got ${describe(v)}`);
}

export const str =
  (max = 10_000): Validator<string> =>
  (v, p) =>
    typeof v === 'string' && v.length <= max ? v : bad(p, `a string of at most ${max} characters`, v);

export const int =
  (min = 0, max = Number.MAX_SAFE_INTEGER): Validator<number> =>
  (v, p) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : bad(p, `an integer in [${min}, ${max}]`, v);

export const bool: Validator<boolean> = (v, p) => (typeof v === 'boolean' ? v : bad(p, 'true or false', v));

export function oneOf<const T extends readonly string[]>(values: T): Validator<T[number]> {
  return (v, p) => ((values as readonly unknown[]).includes(v) ? (v as T[number]) : bad(p, `one of ${values.join(', ')}`, v));
}

export function optional<T>(inner: Validator<T>): Validator<T | undefined> {
  return (v, p) => (v === undefined || v === null ? undefined : inner(v, p));
}

export function arrayOf<T>(inner: Validator<T>, max = 100_000): Validator<T[]> {
  return (v, p) => {
    if (!Array.isArray(v) || v.length > max) bad(p, `an array of at most ${max} items`, v);
    return (v as unknown[]).map((x, i) => inner(x, `${p}[${i}]`));
  };
}

type Shape = Record<string, Validator<unknown>>;
type FromShape<S extends Shape> = {
  [K in keyof S as undefined extends ReturnType<S[K]> ? never : K]: ReturnType<S[K]>;
} & {
  [K in keyof S as undefined extends ReturnType<S[K]> ? K : never]?: ReturnType<S[K]>;
};

/** An object with exactly these keys (unknown keys are refused, so typos are caught). */
export function object<S extends Shape>(shape: S): Validator<FromShape<S>> {
  return (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(p, 'an object', v);
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!(k in shape)) throw new ApiError(`${p}: unknown field '${k}'`);
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(shape)) {
      const r = val(o[k], `${p}.${k}`);
      if (r !== undefined) out[k] = r;
    }
    return out as FromShape<S>;
  };
}
