/**
 * The built-in row marks of a tree pane: the current state of the trajectory (in the tree of
 * its direction), the selected state (in the tree it was picked in) and its twins (every other
 * copy of the same event, in either tree).
 */
import { isFailing, type ItemMark } from '../../lib/overlay/verdict.js';
import type { RowMarker } from './layers.js';

export function stateMarker(
  current: number,
  selected: number,
  selectedSeq: number,
  seqOf: ArrayLike<number>,
): RowMarker {
  return (i) => {
    const isCur = i === current;
    const isSel = i === selected;
    const isTwin = seqOf[i] === selectedSeq && !isSel;
    if (!isCur && !isSel && !isTwin) return null;
    const classes: string[] = [];
    if (isCur) classes.push('current');
    if (isSel) classes.push('selected');
    if (isTwin) classes.push('twin');
    return { classes, data: isCur ? { current: 'true' } : undefined };
  };
}

/**
 * Verdict marks of the predictions overlay (state/overlay.svelte.ts): a node that is the
 * target of an item gets `verdict v-<verdict>` and `data-verdict` (the chosen run), and
 * `data-verdict2` for a second run. With `failuresOnly`, passing and alternative marks are left out.
 */
export function verdictMarker(
  marks: ReadonlyMap<number, ItemMark>,
  marks2: ReadonlyMap<number, ItemMark>,
  failuresOnly: boolean,
): RowMarker {
  return (i) => {
    const m = marks.get(i);
    const m2 = marks2.get(i);
    const show = m && (!failuresOnly || isFailing(m.verdict));
    const show2 = m2 && (!failuresOnly || isFailing(m2.verdict));
    if (!show && !show2) return null;
    const data: Record<string, string> = {};
    const classes: string[] = [];
    if (show) {
      classes.push('verdict', `v-${m.verdict}`);
      data.verdict = m.verdict;
      data.item = String(m.item.id);
      data.samples = `${m.correct}/${m.samples}`;
      if (m.wrong.length) data.wrong = m.wrong.join(', ');
    }
    if (show2) {
      data.verdict2 = m2.verdict;
      if (!show) data.item = String(m2.item.id);
    }
    return { classes, data };
  };
}

/**
 * A counterfactual's marks (state/counterfactual.svelte.ts), on its tree and its origin's alike:
 * `data-cf` holds `edit` on the edited state and `first` on the first state that differs
 * (often the same state), each on the node of the state's own event (not its line_call twin).
 */
export function counterfactualMarker(
  tree: { plainOf: ArrayLike<number> } | null,
  link: { seq: number; first_difference: number | null } | null,
): RowMarker {
  if (!tree || !link) return () => null;
  const edit = link.seq < tree.plainOf.length ? tree.plainOf[link.seq] : -1;
  const fd = link.first_difference;
  const first = fd !== null && fd < tree.plainOf.length ? tree.plainOf[fd] : -1;
  return (i) => {
    if (i !== edit && i !== first) return null;
    const cf = [i === edit ? 'edit' : '', i === first ? 'first' : ''].filter(Boolean).join(' ');
    return { classes: cf.split(' ').map((c) => `cf-${c}`), data: { cf } };
  };
}
