/**
 * The corpus listing's vocabulary, shared by the store (which runs it in SQLite), the API
 * contract, the CLI and the renderer: one row per trace, the filters and the sort keys.
 * Pure: importable from Node and from the renderer.
 */
import type { ExitStatus, TraceMode } from './types.js';

/** What a listing can be sorted by. */
export const TRACE_SORTS = ['id', 'name', 'events'] as const;
export type TraceSort = (typeof TRACE_SORTS)[number];

export interface TraceQuery {
  /** Substring of the trace name (ASCII case-insensitive). */
  search?: string;
  /** Substring of the program source. */
  code?: string;
  /** Substring of any locals repr of any event (ASCII case-insensitive). */
  value?: string;
  exit?: ExitStatus;
  sort?: TraceSort;
  desc?: boolean;
  /** Default: all rows. */
  limit?: number;
  offset?: number;
}

/** One row of the listing (the corpus browser, `stepscope traces --json`). */
export interface TraceRow {
  id: number;
  name: string;
  mode: TraceMode;
  exit: ExitStatus;
  reason: string | null;
  events: number;
  python: string;
  seconds: number;
  /** For a counterfactual trace (`stepscope counterfactual`), the trace it was made from; null or absent otherwise. */
  counterfactual_of?: number | null;
}
