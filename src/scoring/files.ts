/**
 * Readers for CRUXEval's own files: the benchmark (`cruxeval.jsonl`), model generations
 * (`generations.json`: `{"sample_0": [text, …], …}`) and the released scored files (their
 * `raw_generations`; verdicts are read only by `readReleasedVerdicts`, for comparison, and
 * never used as scores). Errors name the file (and line) and what was expected.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import type { CruxevalTask } from './cruxeval.js';

const TASK_KEYS = ['id', 'code', 'input', 'output'] as const;

/** Where a file stops being UTF-8: its first bad byte, by 0-based byte offset and 1-based line. */
export interface NotUtf8 {
  offset: number;
  line: number;
  byte: number;
}

/** The byte offset of the first byte that does not start a well-formed UTF-8 sequence, or -1. */
function firstBadByte(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (n === 0) return i;
    // The second byte's range excludes overlong forms, surrogates (ED A0..) and code points past U+10FFFF.
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || (k === 1 ? x < lo || x > hi : (x & 0xc0) !== 0x80)) return i;
    }
    i += n + 1;
  }
  return -1;
}

/**
 * A file's bytes as text. A UTF-8 byte order mark at its start is dropped (Windows editors
 * write one; every JSON Lines reader of Stepscope accepts it). Bytes that are not UTF-8 are
 * never replaced by U+FFFD: the first one is returned instead, to be reported.
 */
export function decodeUtf8(bytes: Buffer): string | NotUtf8 {
  if (!isUtf8(bytes)) {
    const offset = firstBadByte(bytes);
    let line = 1;
    for (let at = bytes.indexOf(10); at !== -1 && at < offset; at = bytes.indexOf(10, at + 1)) line++;
    return { offset, line, byte: bytes[offset] };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', bom);
}

/** What to say about bytes that are not UTF-8 (after `FILE:LINE: `). */
export const notUtf8Detail = (bad: NotUtf8) =>
  `expected UTF-8 text: the byte 0x${bad.byte.toString(16).padStart(2, '0')} at byte offset ${bad.offset} ` +
  'is not valid UTF-8 (save the file as UTF-8)';

/** A file's text, refusing bytes that are not UTF-8 with FILE:LINE and the byte offset. */
function readUtf8(path: string): string {
  const text = decodeUtf8(readFileSync(path));
  if (typeof text !== 'string') throw new Error(`${path}:${text.line}: ${notUtf8Detail(text)}`);
  return text;
}

/** A key given twice in one object of a JSON text (checked valid), with the offsets of both. */
export interface DuplicateKey {
  key: string;
  first: number;
  second: number;
}

/**
 * The first key that one object of `text` gives twice. JSON.parse keeps the last silently;
 * in a generations file that drops a task's generations without a word. `text` must be JSON.
 */
export function duplicateKey(text: string): DuplicateKey | undefined {
  // One entry per open object (its keys and their offsets) or array (null).
  const open: (Map<string, number> | null)[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      for (let d = text.charCodeAt(j); d !== 0x22; d = text.charCodeAt(j)) j += d === 0x5c ? 2 : 1;
      const keys = open[open.length - 1];
      if (keys && keyNext) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        const first = keys.get(key);
        if (first !== undefined) return { key, first, second: i };
        keys.set(key, i);
        keyNext = false;
      }
      i = j;
    } else if (c === 0x7b) {
      open.push(new Map());
      keyNext = true;
    } else if (c === 0x5b) open.push(null);
    else if (c === 0x7d || c === 0x5d) open.pop();
    else if (c === 0x2c) keyNext = open[open.length - 1] != null;
  }
  return undefined;
}

/** The 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** What to say about a key given twice (after `FILE:LINE: `, LINE the second's). */
export const duplicateDetail = (text: string, d: DuplicateKey) =>
  `${JSON.stringify(d.key)} is given twice, on line ${lineAt(text, d.first)} and on line ${lineAt(text, d.second)}; ` +
  'JSON would keep only the last: remove one or merge them';

/** The records of a `cruxeval.jsonl`, in file order (a last line without newline is fine). */
export function readCruxevalTasks(path: string): CruxevalTask[] {
  const tasks: CruxevalTask[] = [];
  const lines = readUtf8(path).split('\n');
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
  let text: string;
  try {
    text = readUtf8(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code)
      throw new Error(`${path}: cannot read: ${(e as Error).message}`, { cause: e });
    throw e;
  }
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: expected one JSON object (${(e as Error).message})`, { cause: e });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${path}: expected one JSON object`);
  const twice = duplicateKey(text);
  if (twice) throw new Error(`${path}:${lineAt(text, twice.second)}: ${duplicateDetail(text, twice)}`);
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
