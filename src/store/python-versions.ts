/**
 * Which Python versions a group of traces was recorded under (the `python` of each trace,
 * docs/schema.md). Events differ between Python minor versions (docs/semantics.md §12: no
 * comprehension frames from 3.12 on, and more), so an evaluation set or an export that mixes
 * them says so: a model scored on one version's traces and trained on another's sees two
 * conventions without being told.
 */
import type { ReadCorpus } from './corpus.js';

/**
 * A warning (without a `warning:` prefix) when `traces` (trace ids, or the items of an
 * evaluation set) were recorded under more than one Python minor version, e.g. `mixes Python
 * versions: 3.11 (780 traces), 3.12 (20 traces) …`; undefined when they were not.
 */
export function mixedPythonsWarning(
  corpus: ReadCorpus,
  traces: readonly number[] | { evalSet: number },
): string | undefined {
  // Numbers only in the SQL (corpus.query takes no parameters): ids as a JSON array literal.
  const where =
    'evalSet' in traces
      ? `t.id IN (SELECT trace_id FROM evalset_items WHERE set_id = ${safeInt(traces.evalSet)})`
      : `t.id IN (SELECT value FROM json_each('${JSON.stringify(traces.map(safeInt))}'))`;
  const minors = new Map<string, number>();
  for (const row of corpus.query(
    `SELECT t.python AS python, count(*) AS n FROM traces t WHERE ${where} GROUP BY t.python`,
  )) {
    const minor = String(row.python).split('.').slice(0, 2).join('.');
    minors.set(minor, (minors.get(minor) ?? 0) + Number(row.n));
  }
  if (minors.size < 2) return undefined;
  const parts = [...minors]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([v, n]) => `${v} (${n} trace${n === 1 ? '' : 's'})`);
  return `mixes Python versions: ${parts.join(', ')}; their events differ (docs/semantics.md §12)`;
}

function safeInt(n: number): number {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an id: ${n}`);
  return n;
}
