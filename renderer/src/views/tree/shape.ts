/**
 * The shape each tree pane was last shown in (indented rows or the node-link graph), kept in
 * localStorage per pane. `stepscope.shape` (no pane) is the default for both, e.g. to run the
 * e2e tests against the graph (e2e/playwright.config.ts sets it for the graph project).
 */
import type { Shape } from './layers.js';

const KEY = 'stepscope.shape';
const ok = (v: string | null): v is Shape => v === 'rows' || v === 'graph';

export function savedShape(which: 'forward' | 'inverse'): Shape {
  try {
    const own = localStorage.getItem(`${KEY}.${which}`);
    const all = localStorage.getItem(KEY);
    return ok(own) ? own : ok(all) ? all : 'rows';
  } catch {
    return 'rows';
  }
}

export function saveShape(which: 'forward' | 'inverse', s: Shape): void {
  try {
    localStorage.setItem(`${KEY}.${which}`, s);
  } catch {
    // storage refused (private mode): the choice lasts this session only
  }
}
