/**
 * Evaluation sets and their items (schema: src/store/migrations/004-predictions.ts). The
 * store takes items ready-made (src/predictions/ cuts them from trajectories); it only
 * reads and writes rows.
 */
import type Database from 'better-sqlite3';
import type { EvalTask, TargetFields } from '../../semantics/eval.js';
import type { Action, ActionName, Direction, ExitKind, StateKind } from '../../semantics/types.js';

export interface EvalSetRecord {
  id: number;
  name: string;
  task: EvalTask;
  /** The options it was made with (seed, per_action, direction, traces …). */
  options: Record<string, unknown>;
  items: number;
  created: string;
}

/** An item to store, in the columns' terms. */
export interface NewItem {
  /** Unique within the set: the CRUXEval task id, or e.g. `step_into/3`. */
  key: string;
  traceId: number;
  direction: Direction;
  /** Seq of the entry's call (0 = the root). */
  entry: number;
  actions: Action[];
  /** Fraction of the function's states the final jump skips (horizon sets), else null. */
  horizon: number | null;
  prompt: string;
  target: string;
  /**
   * Where the last action leads: the node of the tree walked (null for an exit), its seq, its shown kind or exit token
   * name.
   */
  targetNode: number | null;
  targetSeq: number | null;
  truth: TargetFields;
  /** For an inv_call target on a call-mode trace: the repr the call returned; else null. */
  callReturn: string | null;
  /** Rollout items: the true state after each action (steps[0] is step 1, the one prompt and target describe). */
  steps?: RolloutTarget[];
}

/** The true state after action `step` of a rollout item (table rollout_targets). */
export interface RolloutTarget {
  /** 1, 2, …: the state after the item's action number `step`. */
  step: number;
  /** That action's kind. */
  action: ActionName;
  /** The true state (or exit token) as text. */
  target: string;
  targetNode: number | null;
  targetSeq: number | null;
  truth: TargetFields;
}

export interface StoredItem extends NewItem {
  id: number;
  setId: number;
  /** Position in the set, from 0. */
  ord: number;
  /** Kind of the last action. */
  action: ActionName;
  /** The trace's name. */
  name: string;
}

/** Stores a set and its items; call inside a transaction. A set of that name must not exist. */
export function insertEvalSet(
  db: Database.Database,
  name: string,
  task: EvalTask,
  options: unknown,
  items: readonly NewItem[],
): EvalSetRecord {
  const created = new Date().toISOString();
  const r = db
    .prepare('INSERT INTO evalsets (name, task, options, items, created) VALUES (?, ?, ?, ?, ?)')
    .run(name, task, JSON.stringify(options), items.length, created);
  const setId = Number(r.lastInsertRowid);
  const ins =
    db.prepare(`INSERT INTO evalset_items (set_id, ord, key, trace_id, direction, entry, actions, action, horizon, prompt, target,
    target_node, target_seq, target_kind, target_src, target_locals, target_arg, call_return) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  items.forEach((it, ord) => {
    const t = it.truth;
    const row = ins.run(
      setId,
      ord,
      it.key,
      it.traceId,
      it.direction,
      it.entry,
      JSON.stringify(it.actions),
      // A rollout's row describes its step 1, which follows its first action.
      (it.steps ? it.actions[0] : it.actions[it.actions.length - 1]).action,
      it.horizon,
      it.prompt,
      it.target,
      it.targetNode,
      it.targetSeq,
      t.event,
      t.src ?? null,
      t.locals === undefined ? null : JSON.stringify(t.locals),
      t.arg === undefined ? null : JSON.stringify(t.arg),
      it.callReturn,
    );
    if (it.steps) insertRolloutTargets(db, Number(row.lastInsertRowid), it.steps);
  });
  return getEvalSet(db, name)!;
}

interface SetRow {
  id: number;
  name: string;
  task: EvalTask;
  options: string;
  items: number;
  created: string;
}

const setOf = (r: SetRow): EvalSetRecord => ({ ...r, options: JSON.parse(r.options) });

export function getEvalSet(db: Database.Database, name: string): EvalSetRecord | undefined {
  const r = db.prepare('SELECT id, name, task, options, items, created FROM evalsets WHERE name = ?').get(name) as
    SetRow | undefined;
  return r && setOf(r);
}

export function listEvalSets(db: Database.Database): EvalSetRecord[] {
  return (db.prepare('SELECT id, name, task, options, items, created FROM evalsets ORDER BY id').all() as SetRow[]).map(
    setOf,
  );
}

/** Deletes a set with its items, runs and predictions (cascade). */
export function deleteEvalSet(db: Database.Database, id: number): void {
  db.prepare('DELETE FROM evalsets WHERE id = ?').run(id);
}

/** An item as ITEM_COLUMNS select it (snake_case, JSON as text); itemOf makes it a StoredItem. */
export interface ItemSqlRow {
  id: number;
  set_id: number;
  ord: number;
  key: string;
  trace_id: number;
  name: string;
  direction: Direction;
  entry: number;
  actions: string;
  action: ActionName;
  horizon: number | null;
  prompt: string;
  target: string;
  target_node: number | null;
  target_seq: number | null;
  target_kind: StateKind | ExitKind;
  target_src: string | null;
  target_locals: string | null;
  target_arg: string | null;
  call_return: string | null;
}

export const ITEM_COLUMNS = `i.id, i.set_id, i.ord, i.key, i.trace_id, t.name, i.direction, i.entry, i.actions, i.action, i.horizon,
  i.prompt, i.target, i.target_node, i.target_seq, i.target_kind, i.target_src, i.target_locals, i.target_arg, i.call_return`;

/** The true fields of a stored target (an item's, or a rollout step's): its columns, parsed. */
function truthOf(r: Pick<ItemSqlRow, 'target_kind' | 'target_src' | 'target_locals' | 'target_arg'>): TargetFields {
  const truth: TargetFields = { event: r.target_kind };
  if (r.target_src !== null) truth.src = r.target_src;
  if (r.target_locals !== null) truth.locals = JSON.parse(r.target_locals);
  if (r.target_arg !== null) truth.arg = JSON.parse(r.target_arg);
  return truth;
}

export function itemOf(r: ItemSqlRow): StoredItem {
  const truth = truthOf(r);
  return {
    id: r.id,
    setId: r.set_id,
    ord: r.ord,
    key: r.key,
    traceId: r.trace_id,
    name: r.name,
    direction: r.direction,
    entry: r.entry,
    actions: JSON.parse(r.actions),
    action: r.action,
    horizon: r.horizon,
    prompt: r.prompt,
    target: r.target,
    targetNode: r.target_node,
    targetSeq: r.target_seq,
    truth,
    callReturn: r.call_return,
  };
}

export interface ItemQuery {
  /** Only items over this trace. */
  traceId?: number;
  offset?: number;
  limit?: number;
}

/** Items of a set in order, one at a time (constant memory). */
export function* iterateItems(db: Database.Database, setId: number, q: ItemQuery = {}): Generator<StoredItem> {
  const where = q.traceId === undefined ? '' : 'AND i.trace_id = ?';
  const stmt = db.prepare(`SELECT ${ITEM_COLUMNS} FROM evalset_items i JOIN traces t ON t.id = i.trace_id
    WHERE i.set_id = ? ${where} ORDER BY i.ord LIMIT ? OFFSET ?`);
  const args: unknown[] = [setId, ...(q.traceId === undefined ? [] : [q.traceId]), q.limit ?? -1, q.offset ?? 0];
  for (const r of stmt.iterate(...args) as IterableIterator<ItemSqlRow>) yield itemOf(r);
}

export function countItems(db: Database.Database, setId: number, traceId?: number): number {
  const sql = `SELECT count(*) FROM evalset_items WHERE set_id = ?${traceId === undefined ? '' : ' AND trace_id = ?'}`;
  return db
    .prepare(sql)
    .pluck()
    .get(...(traceId === undefined ? [setId] : [setId, traceId])) as number;
}

export function getItem(db: Database.Database, id: number): StoredItem | undefined {
  const r = db
    .prepare(`SELECT ${ITEM_COLUMNS} FROM evalset_items i JOIN traces t ON t.id = i.trace_id WHERE i.id = ?`)
    .get(id) as ItemSqlRow | undefined;
  return r && itemOf(r);
}

/** item id and key → item id, for resolving the ids a predictions file names. */
export function itemIds(db: Database.Database, setId: number): { byId: Set<number>; byKey: Map<string, number> } {
  const rows = db.prepare('SELECT id, key FROM evalset_items WHERE set_id = ?').all(setId) as {
    id: number;
    key: string;
  }[];
  return { byId: new Set(rows.map((r) => r.id)), byKey: new Map(rows.map((r) => [r.key, r.id])) };
}

/** What scoring a completion needs of an item: no prompt, no target text (they are most of a set's bytes). */
export interface ItemTruth {
  id: number;
  key: string;
  truth: TargetFields;
  callReturn: string | null;
}

/** The items of a set in order, with their true fields only. */
export function itemTruths(db: Database.Database, setId: number): ItemTruth[] {
  const rows = db
    .prepare(
      `SELECT id, key, target_kind, target_src, target_locals, target_arg, call_return FROM evalset_items
      WHERE set_id = ? ORDER BY ord`,
    )
    .raw()
    .all(setId) as [
    number,
    string,
    TargetFields['event'],
    string | null,
    string | null,
    string | null,
    string | null,
  ][];
  return rows.map(([id, key, event, src, locals, arg, callReturn]) => {
    const truth: TargetFields = { event };
    if (src !== null) truth.src = src;
    if (locals !== null) truth.locals = JSON.parse(locals);
    if (arg !== null) truth.arg = JSON.parse(arg);
    return { id, key, truth, callReturn };
  });
}

function insertRolloutTargets(db: Database.Database, itemId: number, steps: readonly RolloutTarget[]): void {
  const ins = db.prepare(`INSERT INTO rollout_targets (item_id, step, action, target, target_node, target_seq,
    target_kind, target_src, target_locals, target_arg) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const s of steps) {
    const t = s.truth;
    ins.run(
      itemId,
      s.step,
      s.action,
      s.target,
      s.targetNode,
      s.targetSeq,
      t.event,
      t.src ?? null,
      t.locals === undefined ? null : JSON.stringify(t.locals),
      t.arg === undefined ? null : JSON.stringify(t.arg),
    );
  }
}

/** The true steps of rollout items, by item id, in step order (items without steps are absent). */
export function rolloutTargets(db: Database.Database, itemIds: readonly number[]): Map<number, RolloutTarget[]> {
  const out = new Map<number, RolloutTarget[]>();
  const stmt = db.prepare(`SELECT item_id, step, action, target, target_node, target_seq, target_kind, target_src,
    target_locals, target_arg FROM rollout_targets WHERE item_id = ? ORDER BY step`);
  for (const id of itemIds) {
    const rows = stmt.all(id) as {
      item_id: number;
      step: number;
      action: ActionName;
      target: string;
      target_node: number | null;
      target_seq: number | null;
      target_kind: StateKind | ExitKind;
      target_src: string | null;
      target_locals: string | null;
      target_arg: string | null;
    }[];
    if (!rows.length) continue;
    out.set(
      id,
      rows.map((r) => {
        const truth = truthOf(r);
        return {
          step: r.step,
          action: r.action,
          target: r.target,
          targetNode: r.target_node,
          targetSeq: r.target_seq,
          truth,
        };
      }),
    );
  }
  return out;
}
