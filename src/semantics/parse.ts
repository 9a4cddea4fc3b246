/**
 * Reading serialized text back (docs/semantics.md §6): a whole trajectory into its context,
 * shown states, actions and exit; or one predicted target state (what a model emits after a
 * prompt). Whitespace is tolerated between tokens (the paper prints line breaks for display),
 * but not inside src or context, where it is content; a src field ends at the next special
 * token, minus a trailing line break a display form may have put there. Special tokens are
 * hard boundaries, as for a tokenizer: a src or repr containing the text of one (e.g.
 * `<|frame_sep|>`) cannot be read back.
 *
 * Malformed text never throws: it gives `{ ok: false, error }` with the offset, line and
 * column (1-based, in UTF-16 code units), the number of special tokens read before it, what
 * was expected and an excerpt of what was found.
 */
import type { Locals } from './delta.js';
import { readJson, type JsonValue } from './json-parse.js';
import type { ShownState } from './state.js';
import {
  ACTION_NAMES,
  EXIT_KINDS,
  STATE_KINDS,
  type Action,
  type ActionName,
  type ExitKind,
  type StateKind,
} from './types.js';

export interface ParseError {
  offset: number;
  line: number;
  column: number;
  /** Special tokens read before the error. */
  tokenIndex: number;
  expected: string;
  got: string;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ParseError };

export interface ParsedTrajectory {
  context: string;
  states: ShownState[];
  actions: Action[];
  exit: ExitKind | null;
}

/** One predicted target: `event` is the state name or the exit name. */
export interface Prediction {
  event: StateKind | ExitKind;
  src?: string;
  locals?: { [k: string]: JsonValue };
  arg?: JsonValue;
}

const STATE_OF = new Map<string, StateKind>(STATE_KINDS.map((k) => [`${k}_sep`, k]));
const EXIT_OF = new Set<string>(EXIT_KINDS);
const ACTION_OF = new Set<string>(ACTION_NAMES);
const STRUCTURE = new Set([
  'begin_of_text',
  'trace_context_start',
  'frame_sep',
  'action_sep',
  'trace_end',
  'end_of_text',
  'src_sep',
  'arg_sep',
]);
const isKnown = (name: string) => STRUCTURE.has(name) || STATE_OF.has(name) || EXIT_OF.has(name) || ACTION_OF.has(name);
const TOKEN = /<\|([a-z_]+)\|>/y;

class Stop {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

class Reader {
  pos = 0;
  tokens = 0;
  constructor(readonly text: string) {}

  ws(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  /** The known special token at the cursor (after whitespace), without consuming it. */
  peek(): string | null {
    this.ws();
    return this.tokenAt(this.pos);
  }

  tokenAt(at: number): string | null {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(this.text);
    return m && isKnown(m[1]) ? m[1] : null;
  }

  take(): string {
    const t = this.peek() as string;
    this.pos += t.length + 4;
    this.tokens++;
    return t;
  }

  expect(name: string): void {
    if (this.peek() !== name) throw new Stop(this.pos, `<|${name}|>`);
    this.take();
  }

  /** Offset of the next known special token at or after `from` (or the end). */
  nextToken(from: number): number {
    for (let at = from; ; at += 2) {
      at = this.text.indexOf('<|', at);
      if (at === -1) return this.text.length;
      if (this.tokenAt(at) !== null) return at;
    }
  }

  /** Text up to the next known special token (or the end). */
  raw(): string {
    const at = this.nextToken(this.pos);
    const s = this.text.slice(this.pos, at);
    this.pos = at;
    return s;
  }

  src(): string {
    return this.raw().replace(/\r?\n\s*$/, '');
  }

  json(what: string): JsonValue {
    // Special tokens bound JSON like they bound src: a value never spans one.
    const r = readJson(this.text, this.pos, this.nextToken(this.pos));
    if (!r.ok) throw new Stop(r.offset, `${what}: ${r.expected}`);
    this.pos = r.end;
    return r.value;
  }

  locals(): Locals {
    const at = (this.ws(), this.pos);
    const v = this.json('locals as a JSON object');
    if (
      v === null ||
      typeof v !== 'object' ||
      Array.isArray(v) ||
      Object.values(v).some((x) => typeof x !== 'string')
    ) {
      throw new Stop(at, 'locals as a JSON object of strings');
    }
    return v as Locals;
  }

  value(): string | null {
    const at = (this.ws(), this.pos);
    const v = this.json('a JSON string or null');
    if (v !== null && typeof v !== 'string') throw new Stop(at, 'a JSON string or null');
    return v;
  }

  error(stop: Stop): ParseError {
    const before = this.text.slice(0, stop.offset);
    const line = before.split('\n').length;
    const column = stop.offset - (before.lastIndexOf('\n') + 1) + 1;
    const rest = this.text.slice(stop.offset);
    const got = rest === '' ? 'end of text' : JSON.stringify(rest.length > 40 ? rest.slice(0, 40) + '…' : rest);
    return {
      offset: stop.offset,
      line,
      column,
      tokenIndex: this.tokens,
      expected: stop.expected,
      got,
      message: `line ${line}, column ${column} (offset ${stop.offset}): expected ${stop.expected}, got ${got}`,
    };
  }
}

function expectedStates(): string {
  return 'a state token (<|call_sep|>, <|line_sep|>, …)';
}

/** Reads one state whose separator token is next. `lenient` accepts any JSON for locals values and arg. */
function readState(r: Reader, lenient: boolean): Prediction & ShownState {
  const name = r.peek();
  const kind = name === null ? undefined : STATE_OF.get(name);
  if (!kind) throw new Stop(r.pos, expectedStates());
  r.take();
  const obj = () => {
    if (!lenient) return r.locals();
    const at = (r.ws(), r.pos);
    const v = r.json('locals as a JSON object');
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Stop(at, 'locals as a JSON object');
    return v as Locals;
  };
  switch (kind) {
    case 'line': {
      r.expect('arg_sep');
      const locals = obj();
      r.expect('src_sep');
      return { kind, event: kind, src: r.src(), locals };
    }
    case 'call':
    case 'inv_call':
    case 'inv_line': {
      r.expect('src_sep');
      const src = r.src();
      r.expect('arg_sep');
      return { kind, event: kind, src, locals: obj() };
    }
    case 'inv_line_call':
      r.expect('src_sep');
      return { kind, event: kind, src: r.src() };
    default: {
      r.expect('src_sep');
      const src = r.src();
      r.expect('arg_sep');
      const arg = lenient ? r.json('a JSON value') : r.value();
      return { kind, event: kind, src, arg: arg as string | null };
    }
  }
}

function readAction(r: Reader): Action {
  const name = r.peek();
  if (name === null || !ACTION_OF.has(name))
    throw new Stop(r.pos, 'an action token (<|step_into|>, <|breakpoint|>, …)');
  r.take();
  if (name === 'breakpoint') return { action: 'breakpoint', src: r.src() };
  return { action: name as Exclude<ActionName, 'breakpoint'> };
}

function strip(s: Prediction & ShownState): ShownState {
  const out: ShownState = { kind: s.kind, src: s.src };
  if (s.locals !== undefined) out.locals = s.locals as Locals;
  if (s.arg !== undefined) out.arg = s.arg as string | null;
  return out;
}

/** Parses a whole serialized trajectory. */
export function parseTrajectory(text: string): Parsed<ParsedTrajectory> {
  const r = new Reader(text);
  try {
    r.expect('begin_of_text');
    r.expect('trace_context_start');
    const context = r.raw();
    const out: ParsedTrajectory = { context, states: [], actions: [], exit: null };
    for (;;) {
      r.expect('frame_sep');
      const next = r.peek();
      if (next !== null && EXIT_OF.has(next) && out.actions.length === out.states.length && out.states.length > 0) {
        r.take();
        out.exit = next as ExitKind;
        r.expect('trace_end');
        break;
      }
      out.states.push(strip(readState(r, false)));
      const after = r.peek();
      if (after === 'action_sep') {
        r.take();
        out.actions.push(readAction(r));
      } else if (after === 'trace_end') {
        r.take();
        break;
      } else throw new Stop(r.pos, '<|action_sep|> or <|trace_end|>');
    }
    r.expect('end_of_text');
    r.ws();
    if (r.pos < text.length) throw new Stop(r.pos, 'end of text after <|end_of_text|>');
    return { ok: true, value: out };
  } catch (e) {
    if (e instanceof Stop) return { ok: false, error: r.error(e) };
    throw e;
  }
}

/**
 * Parses one predicted target: a state or an exit token, optionally preceded by
 * `<|frame_sep|>`, optionally followed by whatever the model went on to generate after
 * `<|action_sep|>`, `<|frame_sep|>`, `<|trace_end|>` or `<|end_of_text|>` (ignored).
 */
export function parsePrediction(text: string): Parsed<Prediction> {
  const r = new Reader(text);
  try {
    if (r.peek() === 'frame_sep') r.take();
    const next = r.peek();
    let value: Prediction;
    if (next !== null && EXIT_OF.has(next)) {
      r.take();
      value = { event: next as ExitKind };
    } else {
      if (next === null || !STATE_OF.has(next))
        throw new Stop(r.pos, `${expectedStates()} or an exit token (<|exit_normal|>, …)`);
      const s = readState(r, true);
      value = { event: s.event };
      if (s.src !== undefined) value.src = s.src;
      if (s.locals !== undefined) value.locals = s.locals as Prediction['locals'];
      if (s.arg !== undefined) value.arg = s.arg;
    }
    const after = r.peek();
    if (
      r.pos < text.length &&
      !(after === 'action_sep' || after === 'frame_sep' || after === 'trace_end' || after === 'end_of_text')
    ) {
      throw new Stop(r.pos, 'the end of the state (end of text, <|action_sep|> or <|trace_end|>)');
    }
    return { ok: true, value };
  } catch (e) {
    if (e instanceof Stop) return { ok: false, error: r.error(e) };
    throw e;
  }
}
