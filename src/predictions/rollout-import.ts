/**
 * `stepscope predictions import` on a rollout set: JSON Lines of `{"id": ITEM, "states": [TEXT, …]}`, the states a
 * harness's own rollout predicted after each action of the item (at most one per action; fewer when it stopped
 * early). ITEM is an item id of the set (or its key). Several lines for one item are several samples, in file order.
 * The whole file is read and checked first; the first problem is an IngestError `FILE:LINE: what was expected`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { wellFormedString } from '../common/well-formed.js';
import { decodeUtf8, notUtf8Detail } from '../scoring/files.js';
import { IngestError, type RolloutTarget } from '../store/corpus.js';

export interface RolloutFile {
  /** Per item id, one list of states per sample, in file order. */
  byItem: Map<number, string[][]>;
  hash: string;
}

const SHAPE = 'a JSON object like {"id": 17, "states": ["<|line|>…", …]}';

export function readRolloutFile(
  path: string,
  resolve: (id: number | string) => number | undefined,
  targets: (id: number) => readonly RolloutTarget[],
): RolloutFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new IngestError(path, 0, `cannot read: ${(e as Error).message}`);
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  const text = decodeUtf8(bytes);
  if (typeof text !== 'string') throw new IngestError(path, text.line, notUtf8Detail(text));
  const byItem = new Map<number, string[][]>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const fail = (what: string): never => {
      throw new IngestError(path, i + 1, what);
    };
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(lines[i]);
    } catch (e) {
      return fail(`expected ${SHAPE} (${(e as Error).message})`);
    }
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return fail(`expected ${SHAPE}`);
    if (!(typeof r.id === 'string' || (typeof r.id === 'number' && Number.isInteger(r.id))))
      fail(`expected "id" to be an item id of this rollout set (see evalset export), got ${show(r.id)}`);
    const item = resolve(r.id as number | string);
    if (item === undefined)
      return fail(`unknown item ${show(r.id)}: expected an item id of this set (see evalset export)`);
    if (Object.hasOwn(r, 'completion') || Object.hasOwn(r, 'completions'))
      fail('expected "states" (a list: the predicted state after each action); this is a rollout set');
    const states = r.states;
    if (!Array.isArray(states) || states.length === 0)
      return fail(
        `expected "states" to be a non-empty list of strings (the state after each action), got ${show(states)}`,
      );
    const bad = states.findIndex((x) => typeof x !== 'string');
    if (bad >= 0) fail(`expected "states"[${bad}] to be a string, got ${show(states[bad])}`);
    const steps = targets(item).length;
    if (states.length > steps)
      fail(`expected at most ${steps} states for item ${item} (it has ${steps} actions), got ${states.length}`);
    const list = byItem.get(item) ?? [];
    list.push((states as string[]).map(wellFormedString));
    byItem.set(item, list);
  }
  if (byItem.size === 0)
    throw new IngestError(path, 0, 'expected rollouts: JSON Lines of {"id", "states"}; the file is empty');
  return { byItem, hash };
}

function show(v: unknown): string {
  const t = JSON.stringify(v);
  if (t === undefined) return 'nothing';
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}
