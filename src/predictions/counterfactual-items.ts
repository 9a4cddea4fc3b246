/**
 * `stepscope evalset create --task counterfactual` (docs/predictions.md, "Counterfactual sets"):
 * at sampled states of each trace, one local is changed a little (keeping its type), the program
 * is recorded again from that edit (recordCounterfactual, docs/semantics.md §13), and the item is
 * cut from the counterfactual trace: its prompt is the counterfactual trajectory up to the edited
 * state and one more action, its target the state that action reaches in the new run.
 *
 * Item n of trace T: attempt a = 0, 1, … draws from its own generator, seeded from (seed, T, n,
 * a): a forward trajectory from the root (the §7 policy, at most maxSteps actions), one of its
 * states that can be edited (a call, line or exception state with locals, followed by an action),
 * one of that state's locals and its small change. So the same corpus and options draw the same
 * edits; recording them gives the same traces as long as the programs are deterministic (the ones
 * that are not are refused by the recorder). Attempts that make no item are counted by reason.
 */
import { mulberry32, seedFrom, walk, sampleTrajectory, type Rng } from '../semantics/index.js';
import type { Corpus, NewItem } from '../store/corpus.js';
import type { TraceEvent } from '../trace/types.js';
import { CounterfactualError, recordCounterfactual } from '../recorder/counterfactual.js';
import { pythonExecutable } from '../recorder/python.js';
import { WarmRecorder } from '../recorder/warm.js';
import { cutItem, Traces } from './items.js';

/** Attempts per item before the trace gets fewer items than asked. */
export const MAX_CF_ATTEMPTS = 10;

const EDITABLE = new Set(['call', 'line', 'exception']);

/** Why an attempt made no item; counted and printed by the CLI. */
export const SKIP_REASONS = {
  type: 'the drawn local is of a type that is not edited (only int, bool, str and list are)',
  cut: "the drawn local's value was cut in the trace (its full value is unknown)",
  'no-state': 'the sampled trajectory has no editable state with locals before its last action',
  repeat: 'the same edit was drawn again',
  unchanged: 'the edit changed nothing after the edited state',
  refused: 'the recorder refused the edit (a name it cannot set, another Python version, …)',
  'not-deterministic': 'the program did not run the same way again (the rest of its trace is skipped)',
  failed: 'the recorder failed',
  counterfactual: 'the trace is itself a counterfactual (not edited again)',
} as const;
export type SkipReason = keyof typeof SKIP_REASONS;

export interface CounterfactualSetOptions {
  seed: number;
  perTrace: number;
  traceIds: readonly number[];
  maxSteps: number;
}

export interface CounterfactualItems {
  items: NewItem[];
  /** Attempts (or traces, for 'counterfactual' and 'not-deterministic') that made no item, by reason. */
  skipped: Partial<Record<SkipReason, number>>;
  /** Types of the locals drawn and not edited (reason 'type'), by type. */
  skippedTypes: Record<string, number>;
  /** Counterfactual runs recorded (each one recorder run), and their total wall time in ms. */
  recorded: number;
  recordMs: number;
  /** Items whose target differs from the origin's after the same actions (what a memorised answer gets wrong). */
  differing: number;
  /** Traces that got fewer items than asked. */
  short: { trace: number; made: number }[];
}

/** One line per reason attempts were skipped: `skipped N: why` (the types for 'type'). */
export function describeSkips(c: Pick<CounterfactualItems, 'skipped' | 'skippedTypes'>): string[] {
  const types = Object.entries(c.skippedTypes)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return Object.entries(c.skipped).map(
    ([why, n]) => `skipped ${n}: ${SKIP_REASONS[why as SkipReason]}${why === 'type' && types ? ` (${types})` : ''}`,
  );
}

/** A value's kind as its repr shows it: an edited kind, or what is skipped. */
export function kindOf(repr: string): string {
  if (repr === 'True' || repr === 'False') return 'bool';
  if (/^-?\d+$/.test(repr)) return 'int';
  if (simpleString(repr)) return 'str';
  if (/^'.*'$|^".*"$/s.test(repr)) return 'str with escapes';
  if (repr.startsWith('[') && repr.endsWith(']')) return 'list';
  if (/^-?(\d+\.\d*|\d*\.\d+|\d+)(e[+-]?\d+)?$|^-?(inf|nan)$/.test(repr)) return 'float';
  if (repr === 'None') return 'None';
  if (repr.startsWith('{')) return repr.includes(':') || repr === '{}' ? 'dict' : 'set';
  if (repr.startsWith('(')) return 'tuple';
  if (/^b['"]/.test(repr)) return 'bytes';
  return 'other';
}

/** A str repr without escapes, so a character can be swapped in the text itself. */
function simpleString(repr: string): boolean {
  const q = repr[0];
  return (q === "'" || q === '"') && repr.length >= 2 && repr.endsWith(q) && !repr.slice(1, -1).includes('\\');
}

/** The next letter or digit (z to a, 9 to 0); any other character becomes 'a'. */
function otherChar(c: string): string {
  for (const [lo, hi] of [
    ['a', 'z'],
    ['A', 'Z'],
    ['0', '9'],
  ])
    if (c >= lo && c <= hi) return c === hi ? lo : String.fromCharCode(c.charCodeAt(0) + 1);
  return 'a';
}

/** The top-level elements of a list repr as [start, end) ranges; undefined when it cannot be split. */
function listElements(repr: string): [number, number][] | undefined {
  const out: [number, number][] = [];
  let depth = 0;
  let quote = '';
  let start = 1;
  for (let i = 1; i < repr.length - 1; i++) {
    const c = repr[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push([start, i]);
      start = i + 2;
    }
  }
  if (quote || depth) return undefined;
  if (repr.length > 2) out.push([start, repr.length - 1]);
  return out;
}

/**
 * A small change of the value `repr` shows, as a Python literal of the same type: an int +1 or -1,
 * a bool flipped, one character of a str replaced, one element of a list changed so. Undefined for
 * other types (kindOf names them) and for an empty str or a list with no such element.
 */
export function smallEdit(repr: string, rng: Rng): string | undefined {
  const kind = kindOf(repr);
  if (kind === 'bool') return repr === 'True' ? 'False' : 'True';
  if (kind === 'int') return String(BigInt(repr) + (rng() < 0.5 ? -1n : 1n));
  if (kind === 'str') {
    if (repr.length === 2) return undefined;
    const i = 1 + Math.floor(rng() * (repr.length - 2));
    return repr.slice(0, i) + otherChar(repr[i]) + repr.slice(i + 1);
  }
  if (kind === 'list') {
    const ranges = (listElements(repr) ?? []).filter(([s, e]) =>
      ['int', 'bool', 'str'].includes(kindOf(repr.slice(s, e))),
    );
    if (!ranges.length) return undefined;
    const [s, e] = ranges[Math.floor(rng() * ranges.length)];
    const changed = smallEdit(repr.slice(s, e), rng);
    return changed === undefined ? undefined : repr.slice(0, s) + changed + repr.slice(e);
  }
  return undefined;
}

const same = (a: TraceEvent | undefined, b: TraceEvent | undefined) =>
  a !== undefined &&
  b !== undefined &&
  a.event === b.event &&
  a.func === b.func &&
  a.frame === b.frame &&
  a.line === b.line &&
  a.arg === b.arg &&
  JSON.stringify(a.locals) === JSON.stringify(b.locals);

/** Whether the two traces differ anywhere after `seq`. */
function changedAfter(a: readonly TraceEvent[], b: readonly TraceEvent[], seq: number): boolean {
  if (a.length !== b.length) return true;
  for (let i = seq + 1; i < a.length; i++) if (!same(a[i], b[i])) return true;
  return false;
}

/** Records the counterfactuals (stored in the corpus, linked to their origin) and cuts the items. */
export async function counterfactualItems(corpus: Corpus, o: CounterfactualSetOptions): Promise<CounterfactualItems> {
  // One warm recorder for the whole set (src/recorder/warm.ts): each edit is a fork of it, not two
  // interpreter starts; closed with the set.
  const recorder = new WarmRecorder(pythonExecutable());
  try {
    return await makeItems(corpus, o, recorder);
  } finally {
    await recorder.close();
  }
}

async function makeItems(
  corpus: Corpus,
  o: CounterfactualSetOptions,
  recorder: WarmRecorder,
): Promise<CounterfactualItems> {
  const traces = new Traces(corpus);
  const r: CounterfactualItems = {
    items: [],
    skipped: {},
    skippedTypes: {},
    recorded: 0,
    recordMs: 0,
    differing: 0,
    short: [],
  };
  const skip = (why: SkipReason) => (r.skipped[why] = (r.skipped[why] ?? 0) + 1);
  for (const traceId of o.traceIds) {
    if (corpus.counterfactualOf(traceId)) {
      skip('counterfactual');
      continue;
    }
    const events = traces.get(traceId).events;
    const seen = new Set<string>();
    let made = 0;
    let deterministic = events.length > 0;
    for (let n = 0; n < o.perTrace && deterministic; n++) {
      for (let a = 0; a < MAX_CF_ATTEMPTS && deterministic; a++) {
        const rng = mulberry32(seedFrom(o.seed, 'counterfactual', traceId, n, a));
        const t = sampleTrajectory(traces.scope(traceId, 0), 'forward', rng, { maxSteps: o.maxSteps });
        const at = t.actions.flatMap((_, k) => {
          const e = events[t.states[k]];
          return EDITABLE.has(e.event) && Object.keys(e.locals).length ? [k] : [];
        });
        if (!at.length) {
          skip('no-state');
          continue;
        }
        const k = at[Math.floor(rng() * at.length)];
        const state = events[t.states[k]];
        const names = Object.keys(state.locals);
        const name = names[Math.floor(rng() * names.length)];
        if (state.cut?.includes(name)) {
          skip('cut');
          continue;
        }
        const literal = smallEdit(state.locals[name], rng);
        if (literal === undefined) {
          skip('type');
          const kind = kindOf(state.locals[name]);
          r.skippedTypes[kind] = (r.skippedTypes[kind] ?? 0) + 1;
          continue;
        }
        const id = JSON.stringify([state.seq, name, literal]);
        if (seen.has(id)) {
          skip('repeat');
          continue;
        }
        seen.add(id);
        const started = performance.now();
        let cf;
        try {
          cf = await recordCounterfactual(
            corpus,
            { trace: traceId, seq: state.seq, set: { [name]: literal } },
            { warm: recorder },
          );
        } catch (e) {
          if (!(e instanceof CounterfactualError)) throw e;
          if (e.kind === 'not-reproduced') {
            skip('not-deterministic');
            deterministic = false;
          } else skip(e.kind === 'failed' ? 'failed' : 'refused');
          continue;
        } finally {
          r.recorded++;
          r.recordMs += performance.now() - started;
        }
        if (cf.first_difference === null || !changedAfter(events, traces.get(cf.trace).events, state.seq)) {
          skip('unchanged');
          continue;
        }
        const actions = t.actions.slice(0, k + 1);
        // Up to the edited state the two forward trees are the same (the events before it are), so
        // the origin's actions walk the counterfactual trace to the same state.
        if (walk(traces.scope(cf.trace, 0), 'forward', actions).states[k] !== state.seq)
          throw new Error(`counterfactual trace ${cf.trace} does not reach event ${state.seq} as its origin does`);
        const item = cutItem(traces, cf.trace, 'forward', 0, actions, `${traceId}/${n}`);
        if (item.target !== cutItem(traces, traceId, 'forward', 0, actions, '').target) r.differing++;
        r.items.push(item);
        made++;
        break;
      }
    }
    if (!deterministic || made < o.perTrace) r.short.push({ trace: traceId, made });
  }
  return r;
}
