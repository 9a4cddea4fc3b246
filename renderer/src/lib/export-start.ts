/**
 * Where "Export…" starts from a set and some of its runs (the labeling queue, the dashboard;
 * docs/export.md, In the app): their failures with their labels. Runs whose completions are
 * states give `corrections`; a run of CRUXEval's own texts has no corrections (its answers
 * are not states), so then the set's items that the runs failed, as `prompt-target`.
 */
import type { ExportKind, RunInfo } from '@core/contract/index.js';

export function exportStart(
  set: string,
  runs: readonly Pick<RunInfo, 'label' | 'format'>[],
): { kind: ExportKind; clauses: string[] } {
  const clauses = [`set=${set}`, ...(runs.length ? [`run=${runs.map((r) => r.label).join(',')}`] : [])];
  if (runs.every((r) => r.format === 'state')) return { kind: 'corrections', clauses };
  return { kind: 'prompt-target', clauses: [...clauses, 'verdict.correct=wrong'] };
}
