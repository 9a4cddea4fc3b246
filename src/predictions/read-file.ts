/**
 * Reading a predictions file (docs/predictions.md, "Formats"), all of it before anything is
 * stored; the first problem is an IngestError `FILE:LINE: what was expected`.
 *
 * - JSON Lines, one object per line: `{"id": ITEM, "completion": TEXT}` or
 *   `{"id": ITEM, "completions": [TEXT, …]}`; ITEM is an item id of the set (an integer, as
 *   `evalset export` writes it) or an item key (the task id `sample_12` on CRUXEval sets).
 *   A line without `"id"` may name its item by `"prompt"`: the item's exact prompt text, as
 *   harnesses that echo the prompt write it. Other keys are ignored (and `"prompt"` is when
 *   `"id"` is there). Lines naming the same item add samples in file order.
 * - CRUXEval's `generations.json`: one object `{"sample_0": [TEXT, …], …}`;
 * - CRUXEval's scored files: `raw_generations` only (their verdicts and pass@k are ignored).
 * The last two hold the benchmark's own texts (an output literal, or an `f(...)` call).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { wellFormedString } from '../common/well-formed.js';
import { decodeUtf8, duplicateDetail, duplicateKey, lineAt, notUtf8Detail } from '../scoring/files.js';
import { IngestError } from '../store/corpus.js';

export interface PredictionsFile {
  /** `state`: serialized states (JSON Lines); `generations` / `scored`: CRUXEval's own files. */
  format: 'state' | 'generations' | 'scored';
  /** Completions per item id, in the order read. */
  byItem: Map<number, string[]>;
  /** sha256 of the file's bytes. */
  hash: string;
}

/** Item id or key as written in the file → the item's id, or undefined when the set has none. */
export type ResolveItem = (id: number | string) => number | undefined;

/**
 * A prompt text → the ids of the set's items with exactly that prompt (empty: none). Called
 * only for lines without an id, so a set's prompts are read only when a file needs them.
 */
export type ResolvePrompt = (prompt: string) => number[];

/**
 * Reads and checks the whole file. `cruxevalRefused`: why CRUXEval's own files do not fit
 * the set (not a CRUXEval set), or null when they do.
 */
export function readPredictionsFile(
  path: string,
  resolve: ResolveItem,
  cruxevalRefused: string | null = null,
  resolvePrompt: ResolvePrompt = () => [],
): PredictionsFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new IngestError(path, 0, `cannot read: ${(e as Error).message}`);
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  const text = decodeUtf8(bytes);
  if (typeof text !== 'string') throw new IngestError(path, text.line, notUtf8Detail(text));
  const whole = wholeObject(path, text);
  const scored = whole !== null && Object.hasOwn(whole, 'raw_generations');
  // One object on one line may be a JSON Lines record: it names an item or a completion.
  const record = whole !== null && ['id', 'prompt', 'completion', 'completions'].some((k) => Object.hasOwn(whole, k));
  if (whole && !record) {
    if (cruxevalRefused) throw new IngestError(path, 0, cruxevalRefused);
    const twice = duplicateKey(text);
    if (twice) throw new IngestError(path, lineAt(text, twice.second), duplicateDetail(text, twice));
    const gens = scored ? whole.raw_generations : whole;
    return { format: scored ? 'scored' : 'generations', byItem: generations(path, text, gens, scored, resolve), hash };
  }
  return { format: 'state', byItem: jsonLines(path, text, resolve, resolvePrompt), hash };
}

/**
 * The file as one JSON object, or null when it is JSON Lines. A file that is neither (its
 * first line is not JSON and the whole is not one object) fails where the whole stops parsing.
 */
function wholeObject(path: string, text: string): Record<string, unknown> | null {
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const v = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
  } catch (e) {
    const first = firstLine(text);
    try {
      JSON.parse(first);
      return null;
    } catch {
      const msg = (e as Error).message;
      // The line of the position V8 names. Its other messages (Unexpected token 'x', "…" is
      // not valid JSON) name none but quote the file, which may say "line 12": no line then.
      const at = /position (\d+)/.exec(msg);
      const line = at ? text.slice(0, Number(at[1])).split('\n').length : 0;
      throw new IngestError(
        path,
        line,
        `expected one JSON object (a CRUXEval generations file) or JSON Lines (${msg})`,
      );
    }
  }
}

/** The first line that is not blank ('' when none), found without splitting the whole text. */
function firstLine(text: string): string {
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    if (line.trim() !== '') return line;
    if (end < 0) break;
    at = end + 1;
  }
  return '';
}

/**
 * A value as a message shows it: JSON, cut at 200 characters. A list or object nested too deep
 * to write out (JSON.stringify overflows the stack) is described instead. JSON.parse makes a
 * number too large for a float Infinity, which JSON writes as null: that number is quoted from
 * `line`, the text it was read from.
 */
function describeId(id: unknown, line?: string, key?: string): string {
  if (typeof id === 'number' && !Number.isFinite(id)) {
    const raw = key && line && new RegExp(`(?<!\\\\)"${key}"\\s*:\\s*(-?[0-9][0-9.eE+-]*)`).exec(line)?.[1];
    return `${raw || (id > 0 ? 'a number' : 'a negative number')}, a number too large`;
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(id);
  } catch {
    return Array.isArray(id) ? 'a deeply nested list' : 'a deeply nested object';
  }
  if (text === undefined) return String(id);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A problem at a line of a JSON Lines file (a function, not a closure per line: the loop runs once per line). */
function failAt(path: string, line: number, what: string): never {
  throw new IngestError(path, line, what);
}

function jsonLines(path: string, text: string, resolve: ResolveItem, byPrompt: ResolvePrompt): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // A line that opens an object is not blank: only the others are trimmed to see.
    if (line.charCodeAt(0) !== 0x7b && line.trim() === '') continue;
    const n = i + 1;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch (e) {
      failAt(path, n, `expected a JSON object like {"id": 17, "completion": "…"} (${(e as Error).message})`);
    }
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec))
      failAt(path, n, 'expected a JSON object like {"id": 17, "completion": "…"}');
    const r = rec as Record<string, unknown>;
    const item = Object.hasOwn(r, 'id') ? byId(path, n, line, r.id, resolve) : byItsPrompt(path, n, line, r, byPrompt);
    const one = Object.hasOwn(r, 'completion');
    if (one === Object.hasOwn(r, 'completions'))
      failAt(path, n, 'expected exactly one of "completion" (a string) or "completions" (a list of strings)');
    let got = out.get(item);
    if (!got) out.set(item, (got = []));
    // A lone surrogate is spelled as the corpus spells it, before it is scored (src/common/well-formed.ts).
    if (one) {
      if (typeof r.completion !== 'string')
        failAt(path, n, `expected "completion" to be a string, got ${describeId(r.completion, line, 'completion')}`);
      got.push(wellFormedString(r.completion));
      continue;
    }
    const list = r.completions;
    if (!Array.isArray(list) || list.length === 0)
      failAt(path, n, 'expected "completions" to be a non-empty list of strings');
    const bad = list.findIndex((x) => typeof x !== 'string');
    if (bad >= 0) failAt(path, n, `expected "completions"[${bad}] to be a string, got ${describeId(list[bad])}`);
    for (const t of list as string[]) got.push(wellFormedString(t));
  }
  if (out.size === 0)
    throw new IngestError(
      path,
      0,
      'expected predictions: JSON Lines of {"id", "completion"}, or a CRUXEval generations file; the file is empty',
    );
  return out;
}

/** The item a line's `"id"` names (an item id or key of the set). */
function byId(path: string, n: number, line: string, id: unknown, resolve: ResolveItem): number {
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))))
    failAt(
      path,
      n,
      `expected "id" to be an item id (an integer) or an item key (a string), got ${describeId(id, line, 'id')}`,
    );
  const item = resolve(id as number | string);
  if (item === undefined)
    failAt(path, n, `unknown item ${describeId(id)}: expected an item id of this set (see evalset export)`);
  return item;
}

/** The item a line without `"id"` names by its exact prompt. */
function byItsPrompt(
  path: string,
  n: number,
  line: string,
  r: Record<string, unknown>,
  byPrompt: ResolvePrompt,
): number {
  if (!Object.hasOwn(r, 'prompt'))
    failAt(
      path,
      n,
      'expected an "id" key (the item id from evalset export) or a "prompt" key (the item\'s exact prompt)',
    );
  if (typeof r.prompt !== 'string')
    failAt(path, n, `expected "prompt" to be a string, got ${describeId(r.prompt, line, 'prompt')}`);
  const ids = byPrompt(r.prompt as string);
  const ending = JSON.stringify((r.prompt as string).slice(-60));
  if (ids.length === 0)
    failAt(
      path,
      n,
      `expected "prompt" to be the exact prompt of an item of this set; no item's prompt is it (it ends ${ending})`,
    );
  if (ids.length > 1)
    failAt(path, n, `"prompt" is the prompt of items ${ids.join(', ')}: name the item by "id" instead`);
  return ids[0];
}

/** The 1-based line where `"key":` first appears (1 when not found). */
function lineOf(text: string, key: string, from = 0): number {
  const m = new RegExp(`${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`, 'g');
  m.lastIndex = from;
  const at = m.exec(text)?.index ?? 0;
  return text.slice(0, at).split('\n').length;
}

function generations(
  path: string,
  text: string,
  gens: unknown,
  scored: boolean,
  resolve: ResolveItem,
): Map<number, string[]> {
  const where = scored ? 'raw_generations' : 'the generations object';
  const base = scored ? text.search(/"raw_generations"\s*:/) : 0;
  if (typeof gens !== 'object' || gens === null || Array.isArray(gens)) {
    throw new IngestError(
      path,
      lineOf(text, 'raw_generations'),
      `expected ${where} to be an object of task id → list of generations`,
    );
  }
  const out = new Map<number, string[]>();
  for (const [task, list] of Object.entries(gens)) {
    const fail = (what: string): never => {
      throw new IngestError(path, lineOf(text, task, Math.max(0, base)), what);
    };
    const item = resolve(task);
    if (item === undefined) fail(`unknown task ${JSON.stringify(task)}: expected a task id of this set (sample_0 …)`);
    if (!Array.isArray(list)) fail(`expected ${JSON.stringify(task)} to be a list of generations (strings)`);
    const bad = (list as unknown[]).findIndex((x) => typeof x !== 'string');
    if (bad >= 0)
      fail(`expected ${JSON.stringify(task)}[${bad}] to be a string, got ${describeId((list as unknown[])[bad])}`);
    if ((list as unknown[]).length) out.set(item!, (list as string[]).map(wellFormedString));
  }
  if (out.size === 0) throw new IngestError(path, 0, `expected generations in ${where}; there are none`);
  return out;
}
