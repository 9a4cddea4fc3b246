/**
 * `stepscope evalset import`: a set written by `evalset export` (on this corpus or another that holds the same
 * programs) made again here. Each item is cut again from a trace of this corpus with the item's name (the trace
 * name; trace ids may differ between corpora), direction, entry and actions, and its prompt and target must equal
 * the file's byte for byte: the program, its recording and the text format are then the same, and a model's
 * answers mean here what they meant there. The first problem stops the import and names the item (its id in
 * the file and its line); nothing is stored unless every item matched (the set and its items are one
 * transaction).
 *
 * Item ids are this corpus's; item keys are made as `evalset create` makes them (the task id on CRUXEval sets,
 * `ACTION/N` by rank within the action on next-state sets, `DIRECTION/TRACE/STEPS` on horizon sets,
 * `DIRECTION/TRACE/N` on rollout sets, with this corpus's trace id). A rollout item must match at every step: its
 * prompt, and each of its `targets`, the true state after each action.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { UserError } from '../common/errors.js';
import {
  ACTION_NAMES,
  EVAL_TASKS,
  isCruxevalTask,
  TraceShapeError,
  WalkError,
  type Action,
  type Direction,
  type EvalTask,
} from '../semantics/index.js';
import type { Corpus, EvalSetRecord, NewItem } from '../store/corpus.js';
import { cutItem, Traces } from './items.js';
import { rolloutItem } from './rollout-items.js';

/** One line of an `evalset export` file, checked. */
interface ExportedItem {
  line: number;
  id: number;
  set: string;
  task: EvalTask;
  name: string;
  direction: Direction;
  entry: number;
  actions: Action[];
  horizon: number | null;
  prompt: string;
  target: string;
  /** A rollout item's: the true state after each action (it has no one `target`). */
  targets?: string[];
}

export interface ImportSetResult {
  set: EvalSetRecord;
  /** The set's name in the file. */
  from: string;
  /** Distinct traces the items were cut from. */
  traces: number;
}

const isInt = (x: unknown, min = 0): x is number => typeof x === 'number' && Number.isInteger(x) && x >= min;

function readExport(file: string): ExportedItem[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read ${file}: ${(e as Error).message}`, 'not-found');
  }
  const out: ExportedItem[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const fail = (what: string): never => {
      throw new UserError(`${file}:${i + 1}: ${what}`, 'bad-input');
    };
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(raw);
    } catch (e) {
      return fail(`expected a JSON object as evalset export writes it (${(e as Error).message})`);
    }
    if (typeof r !== 'object' || r === null || Array.isArray(r))
      return fail('expected a JSON object as evalset export writes it');
    const want = (key: string, ok: boolean, what: string) => {
      if (!ok) fail(`expected "${key}" to be ${what}, got ${JSON.stringify(r[key]) ?? 'nothing'}`);
    };
    want('id', isInt(r.id, 1), 'an item id (a positive integer)');
    want('set', typeof r.set === 'string' && r.set !== '', 'the set name');
    want('task', (EVAL_TASKS as readonly unknown[]).includes(r.task), `a task (${EVAL_TASKS.join(', ')})`);
    want('name', typeof r.name === 'string' && r.name !== '', 'the trace name');
    want('direction', r.direction === 'forward' || r.direction === 'inverse', '"forward" or "inverse"');
    want('entry', isInt(r.entry), 'the seq of the entry call (an integer)');
    want('actions', Array.isArray(r.actions) && r.actions.length > 0, 'a non-empty list of actions');
    for (const a of r.actions as unknown[]) {
      const x = a as Record<string, unknown> | null;
      const ok =
        typeof x === 'object' &&
        x !== null &&
        (ACTION_NAMES as readonly unknown[]).includes(x.action) &&
        (x.action === 'breakpoint' ? typeof x.src === 'string' : Object.keys(x).length === 1);
      if (!ok) fail(`expected each action to be {"action": NAME} or {"action": "breakpoint", "src": LINE}`);
    }
    want('prompt', typeof r.prompt === 'string', 'the prompt text');
    if (r.task === 'rollout') {
      const n = (r.actions as unknown[]).length;
      const ts = r.targets;
      want(
        'targets',
        Array.isArray(ts) && ts.length === n && ts.every((t) => typeof t === 'string'),
        `the true state after each of its ${n} actions (a list of ${n} strings)`,
      );
      out.push({ ...(r as unknown as ExportedItem), horizon: null, target: (ts as string[])[0], line: i + 1 });
      return;
    }
    want('horizon', r.horizon === null || typeof r.horizon === 'number', 'a number or null');
    want('target', typeof r.target === 'string', 'the target text');
    out.push({ ...(r as unknown as ExportedItem), line: i + 1 });
  });
  if (out.length === 0)
    throw new UserError(`${file}: expected the lines of an evalset export; it has none`, 'bad-input');
  const { set, task } = out[0];
  for (const it of out) {
    if (it.set !== set || it.task !== task)
      throw new UserError(
        `${file}:${it.line}: expected every line to be of one set; line ${out[0].line} is of ${JSON.stringify(set)} ` +
          `(${task}), this one of ${JSON.stringify(it.set)} (${it.task})`,
        'bad-input',
      );
  }
  const seen = new Set<number>();
  for (const it of out) {
    if (seen.has(it.id)) throw new UserError(`${file}:${it.line}: item ${it.id} is there twice`, 'bad-input');
    seen.add(it.id);
  }
  return out;
}

/** Where two texts first differ, as a byte offset (UTF-8) with the text around it on both sides. */
export function firstDifference(expected: string, actual: string): string {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const byte = Buffer.byteLength(expected.slice(0, i));
  const around = (s: string) => {
    const from = Math.max(0, i - 24);
    const text = JSON.stringify(s.slice(from, i + 24));
    return `${from > 0 ? '…' : ''}${text}${i + 24 < s.length ? '…' : ''}`;
  };
  const ends = (s: string) => (i >= s.length ? ' (ends there)' : '');
  return `at byte ${byte}: the file has ${around(expected)}${ends(expected)}, this corpus ${around(actual)}${ends(actual)}`;
}

/** The item's key as `evalset create` makes it for its task; `rank`: items before it in the file with its action. */
function keyOf(task: EvalTask, it: ExportedItem, traceId: number, rank: number): string {
  if (isCruxevalTask(task)) return it.name;
  if (task === 'horizon') {
    const steps = it.actions.length - (it.direction === 'forward' ? 3 : 1);
    return `${it.direction}/${traceId}/${steps}`;
  }
  return `${it.actions[it.actions.length - 1].action}/${rank}`;
}

export function importEvalSet(corpus: Corpus, file: string, name?: string): ImportSetResult {
  const lines = readExport(file);
  const { set: from, task } = lines[0];
  const setName = name ?? from;
  // The rule of a set name (src/contract's recordName), for a name that comes from the file.
  if (setName.trim() === '' || setName.length > 200)
    throw new UserError(
      `${file}: expected a set name of 1 to 200 characters, got ${JSON.stringify(setName)}`,
      'bad-input',
    );
  if (corpus.getEvalSet(setName))
    throw new UserError(
      `${corpus.path} already has an evaluation set named ${JSON.stringify(setName)}; ` +
        `give --name NAME to import ${file} under another name`,
      'bad-input',
    );
  const traces = new Traces(corpus);
  const named = new Map<string, number[]>();
  const made: NewItem[] = new Array(lines.length);
  const ranks = new Map<string, number>();
  const rankOf = lines.map((it) => {
    const a = it.actions[it.actions.length - 1].action;
    const r = ranks.get(a) ?? 0;
    ranks.set(a, r + 1);
    return r;
  });
  // Trace by trace (a trace is loaded once), then stored in the file's order.
  const order = lines
    .map((_, i) => i)
    .sort((a, b) => (lines[a].name < lines[b].name ? -1 : lines[a].name > lines[b].name ? 1 : a - b));
  for (const i of order) {
    const it = lines[i];
    const who = `item ${it.id} (${file}:${it.line})`;
    let ids = named.get(it.name);
    if (!ids) named.set(it.name, (ids = corpus.traceIdsNamed(it.name)));
    if (ids.length === 0)
      throw new UserError(
        `${who}: this corpus has no trace named ${JSON.stringify(it.name)}; record and ingest its program first; ` +
          'nothing was stored',
        'not-found',
      );
    // Of several traces with the name, the first whose item is the file's; else say how the first differs
    // (a text that differs says more than actions that do not fit).
    let differs: string | null = null;
    let targetDiffers: string | null = null;
    let misfit: string | null = null;
    for (const traceId of ids) {
      let item: NewItem;
      try {
        item =
          task === 'rollout'
            ? rolloutItem(traces, traceId, it.direction, it.entry, it.actions, '')
            : cutItem(traces, traceId, it.direction, it.entry, it.actions, '', it.horizon);
      } catch (e) {
        // Another program under the same name, or this one recorded otherwise: not this item's trace.
        if (!(e instanceof WalkError || e instanceof TraceShapeError)) throw e;
        misfit ??= `its entry and actions do not fit trace ${traceId} here (${e.message})`;
        continue;
      }
      const k = wrongTarget(it, item);
      if (item.prompt === it.prompt && k < 0) {
        made[i] = { ...item, key: keyOf(task, it, traceId, rankOf[i]) };
        break;
      }
      const what = it.targets ? `its target ${k + 1} (the state after action ${k + 1})` : 'its target';
      const truth = it.targets ? item.steps![k].target : item.target;
      // A target that differs where the prompt is the same says more than a prompt of another program.
      if (item.prompt !== it.prompt)
        differs ??= `its prompt differs from trace ${traceId}'s here ${firstDifference(it.prompt, item.prompt)}`;
      else
        targetDiffers ??= `${what} differs from trace ${traceId}'s here ${firstDifference(it.targets?.[k] ?? it.target, truth)}`;
    }
    if (!made[i])
      throw new UserError(
        `${who} (trace ${JSON.stringify(it.name)}): ${targetDiffers ?? differs ?? misfit}; nothing was stored`,
        'bad-input',
      );
  }
  if (task === 'rollout') rolloutKeys(made);
  const options = { imported: basename(file), from_set: from, ...horizonOptions(task, made) };
  const set = corpus.createEvalSet(setName, task, options, made);
  return { set, from, traces: new Set(made.map((m) => m.traceId)).size };
}

/** The index of the first target of the file's item that differs from the item cut here; -1 when all agree. */
function wrongTarget(it: ExportedItem, item: NewItem): number {
  if (!it.targets) return item.target === it.target ? -1 : 0;
  const here = (item.steps ?? []).map((s) => s.target);
  if (here.length !== it.targets.length) return Math.min(here.length, it.targets.length);
  return it.targets.findIndex((t, k) => t !== here[k]);
}

/** Rollout keys as `evalset create` makes them: `DIRECTION/TRACE/N`, N counting per trace and direction in order. */
function rolloutKeys(items: NewItem[]): void {
  const n = new Map<string, number>();
  for (const it of items) {
    const k = `${it.direction}/${it.traceId}`;
    const at = n.get(k) ?? 0;
    n.set(k, at + 1);
    it.key = `${k}/${at}`;
  }
}

/** A horizon set's grid (`per_action`, what `scores --by horizon` rounds to): most items of a trace and direction. */
function horizonOptions(task: EvalTask, items: NewItem[]): Record<string, unknown> {
  if (task !== 'horizon') return {};
  const per = new Map<string, number>();
  for (const it of items) per.set(`${it.direction}/${it.traceId}`, (per.get(`${it.direction}/${it.traceId}`) ?? 0) + 1);
  return { per_action: Math.max(...per.values()) };
}
