/**
 * An independent, naive restatement of docs/semantics.md §6: the serialized text of a
 * trajectory, written from the flat event list and the trajectory's node ids. It shares no
 * code with src/semantics (its JSON is JSON.stringify with non-ASCII and DEL escaped, as
 * Python's json.dumps does), so comparing texts checks the token layout, the locals delta,
 * the order of locals and the place of the `".."` marker.
 */
import type { TraceEvent } from '../../src/trace/types.js';
import { pyDumps } from '../store/fixtures.js';

export interface OracleTrajectory {
  direction: 'forward' | 'inverse';
  states: number[];
  actions: { action: string; src?: string }[];
  exit: string | null;
}

const tok = (name: string) => `<|${name}|>`;

function localsText(locals: [string, string][], elided: boolean): string {
  const items = locals.map(([k, v]) => `${pyDumps(k)}: ${pyDumps(v)}`);
  if (elided) items.unshift('"..": ".."');
  return `{${items.join(', ')}}`;
}

/** The text of state j of `t`. */
function stateText(events: TraceEvent[], t: OracleTrajectory, j: number): string {
  const inverse = t.direction === 'inverse';
  const node = t.states[j];
  const ev = events[inverse ? node >> 1 : node];
  if (inverse && node & 1) return tok('inv_line_call_sep') + tok('src_sep') + ev.src;
  const kind = (inverse ? 'inv_' : '') + ev.event;
  if (ev.event === 'return' || ev.event === 'exception') {
    return tok(`${kind}_sep`) + tok('src_sep') + ev.src + tok('arg_sep') + pyDumps(ev.arg);
  }
  // Locals: all of them unless the state before is of the same frame instance, this is not
  // a call, and no breakpoint led here; then forward the new or changed names, inverse the
  // shared names whose repr changed, with the marker first when any name was left out.
  const prev = j === 0 ? null : events[inverse ? t.states[j - 1] >> 1 : t.states[j - 1]];
  const all = Object.entries(ev.locals);
  let json: string;
  if (prev === null || prev.frame !== ev.frame || ev.event === 'call' || t.actions[j - 1].action === 'breakpoint') {
    json = localsText(all, false);
  } else {
    const shown = all.filter(([k, v]) =>
      inverse
        ? Object.hasOwn(prev.locals, k) && prev.locals[k] !== v
        : !Object.hasOwn(prev.locals, k) || prev.locals[k] !== v,
    );
    json = localsText(shown, shown.length < all.length);
  }
  if (kind === 'line') return tok('line_sep') + tok('arg_sep') + json + tok('src_sep') + ev.src;
  return tok(`${kind}_sep`) + tok('src_sep') + ev.src + tok('arg_sep') + json;
}

export function oracleText(events: TraceEvent[], t: OracleTrajectory, context: string): string {
  let out = tok('begin_of_text') + tok('trace_context_start') + context;
  t.states.forEach((_, j) => {
    out += tok('frame_sep') + stateText(events, t, j);
    const a = t.actions[j];
    if (a) out += tok('action_sep') + tok(a.action) + (a.action === 'breakpoint' ? a.src : '');
  });
  if (t.exit !== null) out += tok('frame_sep') + tok(t.exit);
  return out + tok('trace_end') + tok('end_of_text');
}
