/**
 * Readers for CRUXEval's own files: the benchmark (`cruxeval.jsonl`), model generations
 * (`generations.json`: `{"sample_0": [text, …], …}`) and the released scored files (their
 * `raw_generations`; verdicts are read only by `readReleasedVerdicts`, for comparison, and
 * never used as scores). Errors name the file (and line) and what was expected.
 */
import { readFileSync } from 'node:fs';
import type { CruxevalTask } from './cruxeval.js';

const TASK_KEYS = ['id', 'code', 'input', 'output'] as const;

/** The records of a `cruxeval.jsonl`, in file order (a last line without newline is fine). */
export function readCruxevalTasks(path: string): CruxevalTask[] {
  const tasks: CruxevalTask[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${path}:${i + 1}`;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch (e) {
      throw new Error(`${where}: expected a JSON object (${(e as Error).message})`, { cause: e });
    }
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec))
      throw new Error(`${where}: expected a JSON object with id, code, input, output`);
    const r = rec as Record<string, unknown>;
    for (const k of TASK_KEYS)
      if (typeof r[k] !== 'string') throw new Error(`${where}: expected "${k}" to be a string`);
    tasks.push({ id: r.id as string, code: r.code as string, input: r.input as string, output: r.output as string });
  }
  return tasks;
}

export interface GenerationsFile {
  /** `generations`: a plain generations.json; `scored`: a released file's raw_generations. */
  format: 'generations' | 'scored';
  generations: Record<string, string[]>;
}

function readJsonObject(path: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code)
      throw new Error(`${path}: cannot read: ${(e as Error).message}`, { cause: e });
    throw new Error(`${path}: expected one JSON object (${(e as Error).message})`, { cause: e });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${path}: expected one JSON object`);
  return value as Record<string, unknown>;
}

function listsOf<T>(path: string, where: string, value: unknown, type: 'string' | 'boolean'): Record<string, T[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${path}: expected ${where.trim() || 'the file'} to be an object of task id → list`);
  for (const [id, list] of Object.entries(value)) {
    if (!Array.isArray(list)) throw new Error(`${path}: ${where}"${id}" must be a list of ${type}s`);
    const bad = list.findIndex((x) => typeof x !== type);
    if (bad >= 0)
      throw new Error(`${path}: ${where}"${id}"[${bad}] must be a ${type}, got ${JSON.stringify(list[bad])}`);
  }
  return value as Record<string, T[]>;
}

/** A generations.json, or the `raw_generations` of a released scored file. */
export function readGenerations(path: string): GenerationsFile {
  const obj = readJsonObject(path);
  if ('raw_generations' in obj)
    return { format: 'scored', generations: listsOf<string>(path, 'raw_generations ', obj.raw_generations, 'string') };
  return { format: 'generations', generations: listsOf<string>(path, '', obj, 'string') };
}

/** A released file's `raw_scored_generations` (for comparison with our verdicts only). */
export function readReleasedVerdicts(path: string): Record<string, boolean[]> {
  const obj = readJsonObject(path);
  if (!('raw_scored_generations' in obj))
    throw new Error(`${path}: expected a scored file with "raw_scored_generations"`);
  return listsOf<boolean>(path, 'raw_scored_generations ', obj.raw_scored_generations, 'boolean');
}
