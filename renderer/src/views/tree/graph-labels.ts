/**
 * Node labels of the graph shape: horizontal, centred under the dot, neighbouring slots on two
 * alternating lines, so each label has two slots' width (2 × SLOT_W) for itself; a longer one is
 * cut with an ellipsis (its whole text in its tooltip).
 */
import { SLOT_W } from '../../lib/tree/graph.js';

/** Characters of the 10 px monospace label (6.1 px each) in two slots, less a small gap. */
export const GRAPH_LABEL_CHARS = Math.floor((2 * SLOT_W - 8) / 6.1);

/** `text` cut to `max` characters, the last one an ellipsis when it was cut. */
export function fitLabel(text: string, max: number): string {
  if (max < 1) return '';
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
