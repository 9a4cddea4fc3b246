/**
 * Which annotations an exported row carries, and the label filters, in SQL (docs/export.md,
 * "Labels"): the rows' `labels` column, the filters and the plan's counts all use these
 * strings, so a row is counted, filtered and labeled by one definition.
 *
 * The labels a target counts: its adjudicator's final labels when an adjudicator settled it;
 * otherwise the union of the people's current labels (active, not skipped). A pre-label
 * rule's suggestion counts only through a person who gave its label, so a rejected (or
 * never reviewed) suggestion adds nothing. `annotator=NAME` counts that annotator's labels
 * alone (for `rule:NAME`, its suggestions that were not rejected).
 *
 * Which targets a row carries (alias `a` is the annotation; the row's aliases as in
 * export.ts): a correction its prediction; a prompt-target item its predictions (of the runs
 * `run=` names, else of any run) and the state it asks for (its target); a trajectory step the transition it asks for
 * (the state before it and its action) and the state it leads to; a trajectory every state it
 * shows and every transition it takes; a trace event its state and the transitions from it.
 */
import type { ExportFilter } from '../../semantics/export-select.js';

export interface Sql {
  sql: string;
  params: unknown[];
}

/** The annotation's action is `action` (a breakpoint's annotation may name its line after a space). */
const actionIs = (action: string) =>
  `(a.action = ${action} OR substr(a.action, 1, length(${action}) + 1) = ${action} || ' ')`;
/** The state a trajectory shows before its step `step` (j.states lists them in order). */
const stateBefore = (step: string) => `json_extract(j.states, '$[' || ${step} || ']')`;

const marks = (n: number) => Array(n).fill('?').join(', ');

/** The item's predictions whose annotations an item row carries. */
function itemPredictions(f: ExportFilter): Sql {
  const runs = f.run ? ` AND pi.run_id IN (SELECT ri.id FROM runs ri WHERE ri.label IN (${marks(f.run.length)}))` : '';
  return { sql: `SELECT pi.id FROM predictions pi WHERE pi.item_id = i.id${runs}`, params: f.run ?? [] };
}

/** Per row source (and `trace`: a whole trace, what a traces export filters by); `%ITEM%` is itemPredictions. */
const ROW_TARGETS = {
  // A rollout step's row carries that step's labels; any other correction, its whole prediction's.
  corrections: `a.prediction_id = pr.id AND a.target = 'prediction:' || pr.id || CASE WHEN rs.step IS NULL THEN ''
    ELSE '/step:' || rs.step END`,
  items: '(a.prediction_id IN (%ITEM%) OR (a.trace_id = i.trace_id AND a.seq = i.target_seq AND a.action IS NULL))',
  steps: `(a.trace_id = j.trace_id AND ((a.action IS NULL AND a.seq = st.target_seq) OR (a.seq = ${stateBefore('st.step')} AND ${actionIs('st.action')})))`,
  trajectories: `(a.trace_id = j.trace_id AND ((a.action IS NULL AND a.seq IN (SELECT value FROM json_each(j.states)))
    OR (a.action IS NOT NULL AND EXISTS (SELECT 1 FROM trajectory_steps ts WHERE ts.trajectory_id = j.id AND a.seq = ${stateBefore('ts.step')} AND ${actionIs('ts.action')}))))`,
  traces: '(a.trace_id = t.id AND a.seq = e.seq)',
  trace: 'a.trace_id = t.id',
} as const;
export type LabelScope = keyof typeof ROW_TARGETS;

const SETTLED =
  "EXISTS (SELECT 1 FROM annotations b WHERE b.target = a.target AND b.role = 'adjudicator' AND b.active = 1 AND b.skipped = 0)";

/** The counted labels (`jl.value`) of the annotations a row of `scope` carries, plus `extra`. */
function labelRows(scope: LabelScope, f: ExportFilter, extra = ''): Sql {
  const who =
    f.annotator === undefined
      ? `(a.role = 'adjudicator' OR (a.source = 'person' AND NOT ${SETTLED}))`
      : "a.annotator = ? AND a.status IS NOT 'rejected'";
  const item = itemPredictions(f);
  const target = ROW_TARGETS[scope];
  return {
    sql: `SELECT jl.value AS label FROM annotations a, json_each(a.labels) jl WHERE a.active = 1 AND a.skipped = 0 AND ${who} AND ${target.replace('%ITEM%', item.sql)}${extra}`,
    params: [...(f.annotator === undefined ? [] : [f.annotator]), ...(target.includes('%ITEM%') ? item.params : [])],
  };
}

/** The row's labels as a JSON array, sorted and each once (so re-exports are byte-identical). */
export function labelsColumn(scope: LabelScope, f: ExportFilter): Sql {
  const r = labelRows(scope, f);
  return {
    sql: `(SELECT json_group_array(label) FROM (SELECT DISTINCT label FROM (${r.sql}) ORDER BY label))`,
    params: r.params,
  };
}

/** The conditions the label keys and `annotator` put on a row of `scope` (none without them). */
export function labelConditions(scope: LabelScope, f: ExportFilter): Sql[] {
  const out: Sql[] = [];
  const among = (labels: string[]) => ({ extra: ` AND jl.value IN (${marks(labels.length)})`, values: labels });
  const rows = (labels?: string[]) => {
    const m = labels && among(labels);
    const r = labelRows(scope, f, m?.extra);
    return { sql: r.sql, params: [...r.params, ...(m?.values ?? [])] };
  };
  // With an annotator, only rows that annotator labeled.
  if (f.annotator !== undefined) out.push(wrap('EXISTS', rows()));
  if (f.labelsAny) out.push(wrap('EXISTS', rows(f.labelsAny)));
  if (f.labelsNone) out.push(wrap('NOT EXISTS', rows(f.labelsNone)));
  if (f.labelsAll) {
    const all = [...new Set(f.labelsAll)];
    const r = rows(all);
    out.push({ sql: `(SELECT count(DISTINCT label) FROM (${r.sql})) = ?`, params: [...r.params, all.length] });
  }
  return out;
}

const wrap = (op: string, r: Sql): Sql => ({ sql: `${op} (${r.sql})`, params: r.params });
