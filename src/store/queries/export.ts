/**
 * What a curated export reads (src/export/, docs/export.md): one row query per kind, built
 * from a filter whose values are all bound as parameters; the user's SQL condition is
 * checked (one balanced expression, no comments or statement breaks) and the statement must
 * be one SQLite marks read-only. Export opens the corpus read-only, so SQLite refuses a
 * write whatever the text says.
 *
 * Aliases a SQL condition may use: `t` traces, `p` programs, and per kind `j` trajectories
 * (trajectories; prompt-target from trajectories), `i` evalset_items and `s` evalsets
 * (prompt-target from items, corrections), `r` runs and `pr` predictions (corrections),
 * for traces, only `t` and `p` (a trace is exported whole, every event of it).
 */
import type Database from 'better-sqlite3';
import { UserError } from '../../common/errors.js';
import type { ExportFilter, ExportKind, VerdictKey } from '../../semantics/export-select.js';
import { explainSqliteError } from '../errors.js';
import { labelConditions, labelsColumn, type LabelScope, type Sql } from './export-labels.js';

/** Where rows come from: the kind, and for prompt-target, items or trajectory steps. */
export type RowSource = 'trajectories' | 'items' | 'steps' | 'corrections' | 'traces';

interface Query {
  sql: string;
  params: unknown[];
}

const VERDICT_COLUMN: Record<VerdictKey, string> = {
  event: 'em_event',
  src: 'em_src',
  locals: 'em_locals',
  arg: 'em_arg',
  all: 'em_all',
  exec: 'exec_pass',
  alt: 'alt_pass',
  correct: 'correct',
};

/** The row sources of a kind under a filter (prompt-target: items, steps, or both). */
export function rowSources(kind: ExportKind, f: ExportFilter): RowSource[] {
  if (kind !== 'prompt-target') return [kind];
  const itemsOnly = f.set || f.run || f.verdicts;
  if (f.source === 'trajectories' && itemsOnly)
    throw notFor('set, run and verdict', 'prompt-target from trajectories (source=trajectories)');
  if (f.source) return [f.source === 'items' ? 'items' : 'steps'];
  return itemsOnly ? ['items'] : ['items', 'steps'];
}

const notFor = (keys: string, what: string) =>
  new UserError(`--select ${keys} do${keys.includes(' ') ? '' : 'es'} not apply to ${what}`, 'bad-input');

const marks = (n: number) => Array(n).fill('?').join(', ');

/** The FROM, the columns and the WHERE of one source; `weight` is how many rows one result row gives. */
interface Built {
  select: string;
  /** Bound in `select` (before the WHERE's), and in `weight` when counting. */
  selectParams: unknown[];
  weightParams: unknown[];
  from: string;
  /** Joined for the rows only, not when counting. */
  join?: string;
  where: string[];
  params: unknown[];
  order: string;
  weight: string;
}

/** `labeled`: the corpus holds annotations (else every row's labels are `[]`, read for free). */
function build(src: RowSource, f: ExportFilter, labeled: boolean): Built {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (cond: string, ...values: unknown[]) => (where.push(cond), params.push(...values));
  const labels = (scope: LabelScope): Sql => (labeled ? labelsColumn(scope, f) : { sql: "'[]'", params: [] });
  const labelFilter = (scope: LabelScope) => {
    for (const c of labelConditions(scope, f)) add(c.sql, ...c.params);
  };
  const rowOf = (
    scope: LabelScope,
    rest: Omit<Built, 'selectParams' | 'weightParams' | 'where' | 'params' | 'weight'>,
  ): Built => {
    labelFilter(scope);
    const l = labels(scope);
    return {
      ...rest,
      select: `${rest.select}, ${l.sql} AS labels`,
      selectParams: l.params,
      weightParams: [],
      where,
      params,
      weight: '1',
    };
  };
  const given = (k: keyof ExportFilter) => f[k] !== undefined;
  const refuse = (keys: (keyof ExportFilter)[], what: string) => {
    const hit = keys.filter(given);
    if (hit.length) throw notFor(hit.map((k) => (k === 'verdicts' ? 'verdict.*' : k)).join(', '), what);
  };
  if (f.exit) add(`t.exit IN (${marks(f.exit.length)})`, ...f.exit);
  if (f.name !== undefined) add('t.name GLOB ?', f.name);
  const length = (expr: string) => {
    if (f.minLength !== undefined) add(`${expr} >= ?`, f.minLength);
    if (f.maxLength !== undefined) add(`${expr} <= ?`, f.maxLength);
  };
  const base = 'JOIN traces t ON t.id = %.trace_id JOIN programs p ON p.id = t.program_id';
  const verdicts = (alias: string) => {
    for (const [k, v] of Object.entries(f.verdicts ?? {})) add(`${alias}.${VERDICT_COLUMN[k as VerdictKey]} = ?`, v);
  };
  switch (src) {
    case 'trajectories':
    case 'steps': {
      refuse(['set', 'run', 'verdicts'], src === 'steps' ? 'prompt-target from trajectories' : '--kind trajectories');
      if (f.direction) add('j.direction = ?', f.direction);
      length('j.steps');
      const acts = f.action ? ` AND st.action IN (${marks(f.action.length)})` : '';
      if (src === 'trajectories') {
        if (f.action)
          add(`EXISTS (SELECT 1 FROM trajectory_steps st WHERE st.trajectory_id = j.id${acts})`, ...f.action);
        return rowOf('trajectories', {
          select: 'j.id, t.name, t.id AS trace, t.program_id, j.text, j.direction, j.entry, j.actions, j.exit',
          from: `trajectories j ${base.replace('%', 'j')}`,
          order: 'j.id',
        });
      }
      // One result row per trajectory, with the steps that pass the filter (actions and
      // labels are per step), each as [step, labels].
      const conds = labelConditions('steps', f);
      const stepWhere = `st.trajectory_id = j.id${acts}${conds.map((c) => ` AND ${c.sql}`).join('')}`;
      const stepParams = [...(f.action ?? []), ...conds.flatMap((c) => c.params)];
      const l = labels('steps');
      return {
        select: `j.id, t.name, t.id AS trace, t.program_id, j.text, j.direction, j.entry, j.actions, j.exit,
          (SELECT json_group_array(json_array(st.step, json(st.labels))) FROM (SELECT st.step, ${l.sql} AS labels FROM trajectory_steps st WHERE ${stepWhere} ORDER BY st.step) st) AS steps`,
        selectParams: [...l.params, ...stepParams],
        from: `trajectories j ${base.replace('%', 'j')}`,
        // The EXISTS binds the step's parameters before the other clauses'.
        where: [`EXISTS (SELECT 1 FROM trajectory_steps st WHERE ${stepWhere})`, ...where],
        params: [...stepParams, ...params],
        order: 'j.id',
        weight: `(SELECT count(*) FROM trajectory_steps st WHERE ${stepWhere})`,
        weightParams: stepParams,
      };
    }
    case 'items': {
      if (f.set) add(`s.name IN (${marks(f.set.length)})`, ...f.set);
      if (f.direction) add('i.direction = ?', f.direction);
      if (f.action) add(`i.action IN (${marks(f.action.length)})`, ...f.action);
      length('json_array_length(i.actions)');
      if (f.run || f.verdicts) {
        const conds = ['pr.item_id = i.id'];
        const vals: unknown[] = [];
        if (f.run) {
          conds.push(`r.label IN (${marks(f.run.length)})`);
          vals.push(...f.run);
        }
        for (const [k, v] of Object.entries(f.verdicts ?? {})) {
          conds.push(`pr.${VERDICT_COLUMN[k as VerdictKey]} = ?`);
          vals.push(v);
        }
        add(
          `EXISTS (SELECT 1 FROM predictions pr JOIN runs r ON r.id = pr.run_id WHERE ${conds.join(' AND ')})`,
          ...vals,
        );
      }
      return rowOf('items', {
        select:
          'i.id, s.name AS set_name, i.key, t.name, t.id AS trace, t.program_id, i.direction, i.entry, i.actions, i.action, i.prompt, i.target',
        from: `evalset_items i JOIN evalsets s ON s.id = i.set_id ${base.replace('%', 'i')}`,
        order: 'i.id',
      });
    }
    case 'corrections': {
      // Failures of runs whose completions are states (a benchmark literal is not one).
      add("r.format = 'state' AND pr.correct = 0");
      add(`(rs.step IS NULL OR rs.em_all IS NOT 1 OR EXISTS (SELECT 1 FROM annotations sa WHERE sa.prediction_id = pr.id
        AND sa.target = 'prediction:' || pr.id || '/step:' || rs.step AND sa.active = 1 AND sa.skipped = 0))`);
      if (f.run) add(`r.label IN (${marks(f.run.length)})`, ...f.run);
      if (f.set) add(`s.name IN (${marks(f.set.length)})`, ...f.set);
      if (f.direction) add('i.direction = ?', f.direction);
      if (f.action) add(`i.action IN (${marks(f.action.length)})`, ...f.action);
      length('json_array_length(i.actions)');
      verdicts('pr');
      return rowOf('corrections', {
        // A rollout's prediction gives one row per step it reached that is wrong or labelled (`rs`, `rt`: that step
        // and its truth; `earlier`: the model's states before it, from which export/rows.ts rebuilds its prompt).
        // Any other prediction has no rollout_steps: one row, `rs` null.
        select: `pr.id AS prediction, pr.sample, r.label AS model, s.name AS set_name, i.id AS item, i.key, t.name, t.id AS trace, t.program_id,
          i.direction, i.action, i.actions, i.prompt, i.target, pr.completion, rs.step, rs.completion AS step_completion,
          rt.action AS step_action, rt.target AS step_target,
          CASE WHEN rs.step IS NULL THEN NULL ELSE (SELECT json_group_array(x.completion) FROM
            (SELECT completion FROM rollout_steps e WHERE e.prediction_id = pr.id AND e.step < rs.step ORDER BY e.step) x)
          END AS earlier,
          ${['format_error', 'em_event', 'em_src', 'em_locals', 'em_arg']
            .map((c) => `CASE WHEN rs.step IS NULL THEN pr.${c} ELSE rs.${c} END AS ${c}`)
            .join(', ')}`,
        from: `predictions pr JOIN runs r ON r.id = pr.run_id JOIN evalset_items i ON i.id = pr.item_id JOIN evalsets s ON s.id = i.set_id
          LEFT JOIN rollout_steps rs ON rs.prediction_id = pr.id
          LEFT JOIN rollout_targets rt ON rt.item_id = pr.item_id AND rt.step = rs.step ${base.replace('%', 'i')}`,
        order: 'pr.id, rs.step',
      });
    }
    case 'traces': {
      refuse(['set', 'run', 'verdicts', 'action', 'direction'], '--kind traces');
      length('t.events');
      // A trace is exported whole: the filter selects traces (aliases t and p; label keys
      // over all of the trace's states and transitions), so the plan counts their events
      // without reading them. Each event row carries its own state's labels.
      labelFilter('trace');
      const l = labels('traces');
      return {
        select: `t.name, t.id AS trace, t.program_id, e.seq, e.event, e.frame, e.func, e.line, e.src, e.locals, e.arg, e.parent, ${l.sql} AS labels`,
        selectParams: l.params,
        weightParams: [],
        from: 'traces t JOIN programs p ON p.id = t.program_id',
        join: 'JOIN events e ON e.trace_id = t.id',
        where,
        params,
        order: 't.id, e.seq',
        weight: 't.events',
      };
    }
  }
}

/**
 * Checks a person's SQL condition before it is put in parentheses after WHERE: quotes
 * closed, parentheses balanced (never closing one it did not open), no `;` and no comment
 * outside quotes, so it cannot end the expression or the statement it sits in.
 */
export function checkCondition(sql: string): void {
  let depth = 0;
  const fail = (what: string) => {
    throw new UserError(
      `--select sql: ${what}; expected one condition, e.g. sql=t.events > 100 (docs/export.md)`,
      'bad-input',
    );
  };
  for (let k = 0; k < sql.length; k++) {
    const c = sql[k];
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = k + 1;
      for (; j < sql.length; j++) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) j++;
          else break;
        }
      }
      if (j >= sql.length) fail(`an unclosed ${c}`);
      k = j;
    } else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) fail('a ) that closes nothing');
    } else if (c === ';') fail('a ; (one condition only)');
    else if ((c === '-' && sql[k + 1] === '-') || (c === '/' && sql[k + 1] === '*')) fail('a comment');
  }
  if (depth !== 0) fail('an unclosed (');
  if (!sql.trim()) fail('nothing');
}

function assemble(
  db: Database.Database,
  src: RowSource,
  f: ExportFilter,
  shape: (b: Built) => Query,
): Query & { stmt: Database.Statement } {
  const b = build(src, f, hasAnnotations(db));
  const where = [...b.where];
  if (f.sql !== undefined) {
    checkCondition(f.sql);
    where.push(`(${f.sql})`);
  }
  const { sql, params } = shape({ ...b, where });
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    // A locked, damaged or unreadable corpus is thrown as SQLite gave it: the Corpus's guard
    // words it with the corpus's path (worded here, the path was empty: " is locked: …").
    if (explainSqliteError(e, '') !== e) throw e;
    throw new UserError(
      `--select sql: ${(e as Error).message} (docs/export.md lists the tables and aliases)`,
      'bad-input',
    );
  }
  if (!stmt.readonly || !stmt.reader)
    throw new UserError('--select sql: only a condition that reads can be given', 'read-only');
  return { sql, params, stmt };
}

const whereOf = (w: string[]) => (w.length ? `WHERE ${w.join(' AND ')}` : '');

/** Rows per program id that `src` gives under the filter (the plan's input). */
export function programWeights(db: Database.Database, src: RowSource, f: ExportFilter): Map<number, number> {
  const q = assemble(db, src, f, (b) => ({
    sql: `SELECT t.program_id AS program_id, sum(${b.weight}) AS weight FROM ${b.from} ${whereOf(b.where)} GROUP BY t.program_id`,
    params: [...b.weightParams, ...b.params],
  }));
  const out = new Map<number, number>();
  for (const r of q.stmt.iterate(...q.params) as IterableIterator<{ program_id: number; weight: number }>)
    out.set(r.program_id, r.weight);
  return out;
}

/** The rows of `src`, in a fixed order, one at a time (raw columns; src/export/ shapes them). */
export function iterateExportRows(
  db: Database.Database,
  src: RowSource,
  f: ExportFilter,
): IterableIterator<Record<string, unknown>> {
  const q = assemble(db, src, f, (b) => ({
    sql: `SELECT ${b.select} FROM ${b.from} ${b.join ?? ''} ${whereOf(b.where)} ORDER BY ${b.order}`,
    params: [...b.selectParams, ...b.params],
  }));
  return q.stmt.iterate(...q.params) as IterableIterator<Record<string, unknown>>;
}

/** Every program's id and source text (a program's split is decided by its source's hash). */
export function iterateProgramSources(db: Database.Database): IterableIterator<{ id: number; source: string }> {
  return db.prepare('SELECT id, source FROM programs ORDER BY id').iterate() as IterableIterator<{
    id: number;
    source: string;
  }>;
}

/** Whether label filters can be answered: the corpus holds annotations. */
export function hasAnnotations(db: Database.Database): boolean {
  const table =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'annotations'").get() !== undefined;
  return table && db.prepare('SELECT 1 FROM annotations LIMIT 1').get() !== undefined;
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Holds one read snapshot across the plan and the writing (WAL: writers go on meanwhile). */
export function beginRead(db: Database.Database): () => void {
  db.exec('BEGIN');
  db.prepare('SELECT 1 FROM programs LIMIT 1').get(); // a deferred transaction takes its snapshot at the first read
  return () => {
    if (db.inTransaction) db.exec('COMMIT');
  };
}
