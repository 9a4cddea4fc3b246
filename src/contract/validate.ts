/**
 * Tiny hand-written validators for values arriving from the renderer, the network or the
 * command line. A validator returns the typed value or throws InvalidValue, which names the
 * field and what was expected; the API words it `path: expected X, got Y`, the CLI
 * `--option expects X, got 'Y'`, so both accept the same values and say the same thing.
 * Pure: importable from Node and the renderer.
 */
import { UserError } from '../common/errors.js';

export type Validator<T> = (v: unknown, path: string) => T;

/**
 * A value that is not what `expected` describes (`a string of at most 1000 characters`, `normal, error or never` …).
 */
export class InvalidValue extends UserError {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly got: unknown,
  ) {
    super(`${path}: expected ${expected}, got ${describe(got)}`, 'bad-input');
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length} item${v.length === 1 ? '' : 's'}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

function bad(path: string, expected: string, v: unknown): never {
  throw new InvalidValue(path, expected, v);
}

/** `a`, `a or b`, `a, b or c`. */
function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

export const str =
  (max = 10_000): Validator<string> =>
  (v, p) =>
    typeof v === 'string' && v.length <= max ? v : bad(p, `a string of at most ${max} characters`, v);

export const int =
  (min = 0, max = Number.MAX_SAFE_INTEGER): Validator<number> =>
  (v, p) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) bad(p, 'an integer', v);
    // Below the range of an open-ended one: `N or more`; anything else names both ends.
    if (v < min && max === Number.MAX_SAFE_INTEGER) bad(p, `an integer, ${min} or more`, v);
    if (v < min || v > max) bad(p, `an integer from ${min} to ${max}`, v);
    return v;
  };

export const bool: Validator<boolean> = (v, p) => (typeof v === 'boolean' ? v : bad(p, 'true or false', v));

export function oneOf<const T extends readonly string[]>(values: T): Validator<T[number]> {
  return (v, p) => ((values as readonly unknown[]).includes(v) ? (v as T[number]) : bad(p, orList(values), v));
}

export function optional<T>(inner: Validator<T>): Validator<T | undefined> {
  return (v, p) => (v === undefined || v === null ? undefined : inner(v, p));
}

/** An array of at most `max` items; `tooMany` words the limit when it is not just a number of items. */
export function arrayOf<T>(
  inner: Validator<T>,
  max = 100_000,
  tooMany = `an array of at most ${max} items`,
): Validator<T[]> {
  return (v, p) => {
    if (!Array.isArray(v)) bad(p, `an array of at most ${max} items`, v);
    if (v.length > max) bad(p, tooMany, v);
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
    for (const k of Object.keys(o)) if (!(k in shape)) throw new UserError(`${p}: unknown field '${k}'`, 'bad-input');
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(shape)) {
      const r = val(o[k], `${p}.${k}`);
      if (r !== undefined) out[k] = r;
    }
    return out as FromShape<S>;
  };
}
