/**
 * What a node of a drawing tree shows, as a small number (kept in Uint8Arrays): the four event
 * kinds of the trace (numbered as in the skeleton and the semantics' index) plus LINE_CALL,
 * the inverse tree's `inv_line_call` copy of a node with children (docs/semantics.md §4).
 */
import { CALL, EXCEPTION, LINE, RETURN } from '@core/semantics/tree.js';

export { CALL, LINE, RETURN, EXCEPTION };
export const LINE_CALL = 4;

/** Node kind number -> name without the `inv_` prefix (also the CSS class suffix `k-<name>`). */
export const NODE_KINDS = ['call', 'line', 'return', 'exception', 'line_call'] as const;
export type NodeKindName = (typeof NODE_KINDS)[number];
