/**
 * What the dashboard reads (docs/dashboard.md): a run's scores by every breakdown it draws
 * (the lines of getScores, from one read of the run's verdicts), the 95% bootstrap
 * interval of pass@1 per group (the one `stepscope scores` prints), the items behind one
 * group of a breakdown (a clicked bar), and the comparison of two runs of a set. Read-only.
 */
import { SCORE_BY, type ScoreLine } from '../semantics/index.js';
import { read } from './method.js';
import { recordName } from './predictions.js';
import type { ItemRow } from './predictions.js';
import { bool, int, object, oneOf, optional, str } from './validate.js';

/** The breakdowns getRunScores gives at once (horizon only on horizon sets). */
export const DASHBOARD_BREAKDOWNS = ['action', 'horizon', 'length', 'depth'] as const;
export type DashboardBreakdown = (typeof DASHBOARD_BREAKDOWNS)[number];

export const dashboardMethods = {
  /**
   * What the dashboard draws of one run: getScores by each breakdown, and pass@1's interval on
   * the whole set unless `interval` is false (2,000 resamples of the items: the dashboard draws
   * it for CRUXEval sets only).
   */
  getRunScores: read(object({ set: recordName, run: recordName, interval: optional(bool) })),
  getScoreIntervals: read(object({ set: recordName, run: recordName, by: optional(oneOf(SCORE_BY)) })),
  /** `group`: a group of `by` as text (`step_into`, `0.25`, `8`, `exit`); absent: the whole set. */
  listGroupItems: read(
    object({
      set: recordName,
      run: recordName,
      by: optional(oneOf(SCORE_BY)),
      group: optional(str(200)),
      offset: optional(int(0)),
      limit: optional(int(1, 1000)),
    }),
  ),
  compareRuns: read(object({ set: recordName, a: recordName, b: recordName })),
};

/** pass@1's interval for one line of getScores (same order); null where pass@1 is. */
export interface ScoreInterval {
  group: string | number | null;
  lo: number | null;
  hi: number | null;
}

export interface DifferingItem {
  id: number;
  key: string;
  traceId: number;
  action: string;
  /** Whether run A's (and B's) first sample is right. */
  a: boolean;
  b: boolean;
}

/** McNemar's test of the discordant items (b: only A right, c: only B right); p-values null without any. */
export interface McNemarResult {
  b: number;
  c: number;
  /** Exact conditional two-sided p-value. */
  exactP: number | null;
  /** Continuity-corrected χ² and its p-value (one degree of freedom). */
  chi2: number | null;
  chi2P: number | null;
}

export interface RunComparison {
  set: string;
  a: string;
  b: string;
  /** The whole set first (action null), then one per action kind. */
  groups: {
    action: string | null;
    items: number;
    both: number;
    onlyA: number;
    onlyB: number;
    neither: number;
    mcnemar: McNemarResult;
  }[];
  differing: DifferingItem[];
  unpaired: number;
}

export interface RunScores {
  /** The lines of getScores (`stepscope scores --json`) by each breakdown; horizon: [] on other sets. */
  by: Record<DashboardBreakdown, ScoreLine[]>;
  /** null when asked without (`interval: false`). */
  interval: ScoreInterval | null;
}

export interface DashboardResults {
  getRunScores: RunScores;
  getScoreIntervals: ScoreInterval[];
  listGroupItems: { total: number; rows: ItemRow[] };
  compareRuns: RunComparison;
}
