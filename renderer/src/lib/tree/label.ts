/**
 * What a tree row says about its state: calls name their function and arguments (`<module>`
 * for a module body), returns and exceptions their value, lines their source and the locals
 * that changed since the frame's previous state; inv_line_call copies their calling line.
 * Values come from the events when loaded (state/events.svelte.ts); until then, the source.
 */
import type { TraceEvent } from '@core/trace/types.js';
import { CALL, EXCEPTION, LINE_CALL, RETURN } from './kinds.js';

const MAX = 64;
const cut = (s: string, n = MAX) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

export function rowLabel(kind: number, func: string, src: string, ev?: TraceEvent, prev?: TraceEvent | null): string {
  const code = src.trim();
  if (kind === LINE_CALL) return `⤷ ${cut(code)}`;
  if (kind === CALL) {
    if (func === '<module>') return 'call <module>';
    const args = ev
      ? Object.entries(ev.locals)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')
      : '…';
    return cut(`call ${func}(${args})`);
  }
  if (kind === RETURN) return cut(`return ${ev ? (ev.arg ?? '(exception passing)') : ''}`);
  if (kind === EXCEPTION) return cut(`exception ${ev?.arg ?? ''}`);
  if (!ev) return cut(code);
  const changed = Object.entries(ev.locals).filter(([k, v]) => !prev || prev.locals[k] !== v);
  if (!changed.length) return cut(code);
  const text = changed.map(([k, v]) => `${k}=${v}`).join(' ');
  return `${cut(code, 40)}  ▸ ${cut(text, 40)}`;
}
