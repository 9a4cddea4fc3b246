/**
 * Curated export (docs/export.md): the kinds, formats and the `--select` filter language,
 * shared by `stepscope dataset export` and the app's Export dialog so both accept and word
 * the same clauses. Pure: importable from the renderer.
 *
 * A filter is a list of clauses `KEY=VALUE` (lists comma-separated); every clause must hold.
 */
import { UserError } from '../common/errors.js';
import { ACTION_NAMES, DIRECTIONS, type ActionName, type Direction } from './types.js';
import { TRACE_EXITS, type ExitStatus } from '../trace/types.js';

export const EXPORT_KINDS = ['trajectories', 'prompt-target', 'corrections', 'traces'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const EXPORT_FORMATS = ['jsonl', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Verdicts a filter can name: the exact-match fields, and the checks of `predictions`. */
export const VERDICT_KEYS = ['event', 'src', 'locals', 'arg', 'all', 'exec', 'alt', 'correct'] as const;
export type VerdictKey = (typeof VERDICT_KEYS)[number];
/** Where prompt-target rows come from. */
export const PT_SOURCES = ['items', 'trajectories'] as const;

export interface ExportFilter {
  labelsAny?: string[];
  labelsAll?: string[];
  labelsNone?: string[];
  annotator?: string;
  run?: string[];
  set?: string[];
  action?: ActionName[];
  direction?: Direction;
  exit?: ExitStatus[];
  /** A GLOB pattern on the trace name (`sample_1*`). */
  name?: string;
  minLength?: number;
  maxLength?: number;
  verdicts?: Partial<Record<VerdictKey, 0 | 1>>;
  source?: (typeof PT_SOURCES)[number];
  /** A read-only SQL condition over the documented schema (aliases in docs/export.md). */
  sql?: string;
}

export const SELECT_KEYS = [
  'labels-any',
  'labels-all',
  'labels-none',
  'annotator',
  'run',
  'set',
  'action',
  'direction',
  'exit',
  'name',
  'length',
  ...VERDICT_KEYS.map((k) => `verdict.${k}`),
  'source',
  'sql',
] as const;

const bad = (clause: string, expected: string) =>
  new UserError(`--select ${JSON.stringify(clause)}: expected ${expected}`, 'bad-input');

function list<T extends string>(clause: string, value: string, allowed?: readonly T[]): T[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (!items.length) throw bad(clause, 'at least one value after =');
  for (const x of items) {
    if (allowed && !allowed.includes(x as T))
      throw bad(clause, `values among ${allowed.join(', ')} (got ${JSON.stringify(x)})`);
  }
  return items as T[];
}

function length(clause: string, value: string): [number | undefined, number | undefined] {
  const m = /^(\d+)?(\.\.)?(\d+)?$/.exec(value.trim());
  if (!m || (!m[1] && !m[3]) || (!m[2] && m[3])) throw bad(clause, 'a length N, a range N..M, N.. or ..M');
  const lo = m[1] === undefined ? undefined : Number(m[1]);
  const hi = m[2] ? (m[3] === undefined ? undefined : Number(m[3])) : lo;
  if (lo !== undefined && hi !== undefined && lo > hi) throw bad(clause, 'a range whose start is not after its end');
  return [lo, hi];
}

function one<T>(clause: string, values: T[]): T {
  if (values.length !== 1) throw bad(clause, 'one value');
  return values[0];
}

const VERDICT_VALUES: Record<string, 0 | 1> = { right: 1, '1': 1, pass: 1, wrong: 0, '0': 0, fail: 0 };

/** Parses the clauses (each `KEY=VALUE`) into one filter; a key given twice is refused. */
export function parseSelect(clauses: readonly string[]): ExportFilter {
  const f: ExportFilter = {};
  const seen = new Set<string>();
  for (const clause of clauses) {
    const eq = clause.indexOf('=');
    const key = (eq < 0 ? clause : clause.slice(0, eq)).trim();
    const value = eq < 0 ? '' : clause.slice(eq + 1);
    if (!(SELECT_KEYS as readonly string[]).includes(key))
      throw bad(clause, `KEY=VALUE with KEY one of ${SELECT_KEYS.join(', ')}`);
    if (eq < 0 || value.trim() === '') throw bad(clause, `a value after ${key}=`);
    if (seen.has(key)) throw bad(clause, `${key} once (give several values comma-separated)`);
    seen.add(key);
    if (key === 'labels-any') f.labelsAny = list(clause, value);
    else if (key === 'labels-all') f.labelsAll = list(clause, value);
    else if (key === 'labels-none') f.labelsNone = list(clause, value);
    else if (key === 'annotator') f.annotator = value.trim();
    else if (key === 'run') f.run = list(clause, value);
    else if (key === 'set') f.set = list(clause, value);
    else if (key === 'action') f.action = list(clause, value, ACTION_NAMES);
    else if (key === 'direction') f.direction = one(clause, list(clause, value, DIRECTIONS));
    else if (key === 'exit') f.exit = list(clause, value, TRACE_EXITS);
    else if (key === 'name') f.name = value.trim();
    else if (key === 'length') [f.minLength, f.maxLength] = length(clause, value);
    else if (key === 'source') f.source = one(clause, list(clause, value, PT_SOURCES));
    else if (key === 'sql') f.sql = value;
    else {
      const v = VERDICT_VALUES[value.trim()];
      if (v === undefined) throw bad(clause, 'right or wrong (1 or 0)');
      f.verdicts = { ...f.verdicts, [key.slice('verdict.'.length)]: v };
    }
  }
  return f;
}

/** Parses `train=0.9,validation=0.1`: names and fractions that add up to 1. */
export function parseSplit(text: string): { name: string; fraction: number }[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out = parts.map((p) => {
    const m = /^([A-Za-z][\w-]*)=(\d+(?:\.\d+)?|\.\d+)$/.exec(p);
    if (!m)
      throw new UserError(
        `--split ${JSON.stringify(text)}: expected NAME=FRACTION pairs, e.g. train=0.9,validation=0.1 (got ${JSON.stringify(p)})`,
        'bad-input',
      );
    return { name: m[1], fraction: Number(m[2]) };
  });
  if (!out.length) throw new UserError('--split: expected at least one NAME=FRACTION', 'bad-input');
  if (new Set(out.map((s) => s.name)).size !== out.length)
    throw new UserError(`--split ${JSON.stringify(text)}: each split name once`, 'bad-input');
  const sum = out.reduce((a, s) => a + s.fraction, 0);
  if (Math.abs(sum - 1) > 1e-9 || out.some((s) => s.fraction <= 0)) {
    // The sum as the user would add it: 0.1 + 0.2 is written 0.3, not 0.30000000000000004.
    const shown = Number(sum.toPrecision(12));
    throw new UserError(
      `--split ${JSON.stringify(text)}: expected positive fractions adding up to 1 (they add up to ${shown})`,
      'bad-input',
    );
  }
  return out;
}

/** The split a leakage guard protects: a split whose name starts with `train`. */
export const isTrainingSplit = (name: string) => /^train/i.test(name);
