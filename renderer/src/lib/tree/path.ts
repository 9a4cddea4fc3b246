/**
 * The actions that walk a tree from one node to a later one (pre-order): `step_into` goes to
 * the next node in pre-order, `step_over` to the first node after the current one's subtree
 * (docs/semantics.md §5), so stepping into while the target lies inside the current subtree
 * and over otherwise reaches it in at most (depth + siblings passed) actions. Used by "run to
 * here" and "inverse from here"; the walk API then confirms where the actions lead.
 */
import type { Tree } from './build.js';

export function pathTo(t: Tree, from: number, to: number): string[] | null {
  if (from < 0 || to < from || to >= t.size) return null;
  const into = t.inverse ? 'inv_step_into' : 'step_into';
  const over = t.inverse ? 'inv_step_over' : 'step_over';
  const out: string[] = [];
  for (let c = from; c !== to;) {
    if (to < t.end[c]) {
      out.push(into);
      c++;
    } else {
      out.push(over);
      c = t.end[c];
    }
    if (c > to) return null;
  }
  return out;
}
