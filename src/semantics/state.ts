/**
 * One state as shown in a trajectory (docs/semantics.md §6): which event it is shown as,
 * its src, its locals (as a delta, see delta.ts) or its value, and its token layout.
 */
import { localsDelta, type Locals } from './delta.js';
import { pyJsonString, pyJsonValue } from './json.js';
import { requireEvents } from './scope.js';
import { ARG, SRC, stateToken } from './tokens.js';
import { EVENT_KINDS } from '../trace/types.js';
import { CALL, type TreeIndex } from './tree.js';
import type { Direction, StateKind } from './types.js';

/** A state's shown fields. `locals` for call/line/inv_call/inv_line; `arg` for return/exception forms. */
export interface ShownState {
  kind: StateKind;
  src: string;
  locals?: Locals;
  arg?: string | null;
}

/** The event (seq) behind a node of the tree of `direction`. */
export const seqOf = (direction: Direction, node: number) => (direction === 'forward' ? node : node >> 1);

/** The name a node is shown under: `line`, `inv_line`, `inv_line_call` … */
export function stateKind(index: TreeIndex, direction: Direction, node: number): StateKind {
  if (direction === 'forward') return EVENT_KINDS[index.kind[node]];
  if (node & 1) return 'inv_line_call';
  return `inv_${EVENT_KINDS[index.kind[node >> 1]]}` as StateKind;
}

export function hasLocals(kind: StateKind): boolean {
  return kind === 'call' || kind === 'line' || kind === 'inv_call' || kind === 'inv_line';
}

/**
 * The state `node` as shown right after `prev` (-1 when it is the first state). Locals are a
 * delta against `prev` when `prev` is in the same frame instance and `full` is false; `full`
 * is for breakpoint targets. Calls always show all their locals.
 */
export function showState(
  index: TreeIndex,
  direction: Direction,
  node: number,
  prev: number,
  full = false,
): ShownState {
  const events = requireEvents(index);
  const seq = seqOf(direction, node);
  const ev = events[seq];
  const kind = stateKind(index, direction, node);
  if (kind === 'inv_line_call') return { kind, src: ev.src };
  if (!hasLocals(kind)) return { kind, src: ev.src, arg: ev.arg };
  let locals = ev.locals;
  if (!full && prev !== -1 && index.kind[seq] !== CALL) {
    const pseq = seqOf(direction, prev);
    if (index.frame[pseq] === index.frame[seq]) locals = localsDelta(direction, events[pseq].locals, ev.locals);
  }
  return { kind, src: ev.src, locals };
}

/** The text of one state, without the `<|frame_sep|>` before it. */
export function renderState(s: ShownState): string {
  const tok = stateToken(s.kind);
  // Array joins give flat strings: a million states of concatenated pieces would otherwise
  // stay as millions of rope nodes until the whole text is flattened.
  switch (s.kind) {
    case 'line':
      return [tok, ARG, localsJson(s.locals), SRC, s.src].join('');
    case 'call':
    case 'inv_call':
    case 'inv_line':
      return [tok, SRC, s.src, ARG, localsJson(s.locals)].join('');
    case 'inv_line_call':
      return tok + SRC + s.src;
    default:
      return [tok, SRC, s.src, ARG, pyJsonValue(s.arg ?? null)].join('');
  }
}

function localsJson(l: Locals | undefined): string {
  if (!l) return '{}';
  const keys = Object.keys(l);
  if (keys.length === 0) return '{}';
  const parts: string[] = [];
  for (const k of keys) parts.push(pyJsonString(k) + ': ' + pyJsonString(l[k]));
  return '{' + parts.join(', ') + '}';
}

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * renderState(showState(…)) in one pass, without the intermediate objects: what serialize
 * uses, since a million-state trajectory would otherwise allocate a delta object per state.
 */
export function stateText(index: TreeIndex, direction: Direction, node: number, prev: number, full = false): string {
  const events = requireEvents(index);
  const seq = seqOf(direction, node);
  const ev = events[seq];
  const kind = stateKind(index, direction, node);
  const tok = stateToken(kind);
  if (kind === 'inv_line_call') return tok + SRC + ev.src;
  if (!hasLocals(kind)) return [tok, SRC, ev.src, ARG, pyJsonValue(ev.arg)].join('');
  const cur = ev.locals;
  let json: string;
  const pseq = prev === -1 ? -1 : seqOf(direction, prev);
  if (full || pseq === -1 || index.kind[seq] === CALL || index.frame[pseq] !== index.frame[seq]) json = localsJson(cur);
  else {
    const before = events[pseq].locals;
    const parts: string[] = [];
    let omitted = false;
    for (const k in cur) {
      if (!has(cur, k)) continue;
      const v = cur[k];
      const keep = direction === 'forward' ? !has(before, k) || before[k] !== v : has(before, k) && before[k] !== v;
      if (keep) parts.push(pyJsonString(k) + ': ' + pyJsonString(v));
      else omitted = true;
    }
    if (omitted) parts.unshift('"..": ".."');
    json = parts.length ? '{' + parts.join(', ') + '}' : '{}';
  }
  return kind === 'line' ? [tok, ARG, json, SRC, ev.src].join('') : [tok, SRC, ev.src, ARG, json].join('');
}
