/**
 * The built-in row marks of a tree pane: the current state of the trajectory (in the tree of
 * its direction), the selected state (in the tree it was picked in) and its twins (every other
 * copy of the same event, in either tree).
 */
import type { RowMarker } from './layers.js';

export function stateMarker(current: number, selected: number, selectedSeq: number, seqOf: ArrayLike<number>): RowMarker {
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
