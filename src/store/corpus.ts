/**
 * The corpus: the one typed interface to a Stepscope SQLite file, used by the CLI, the
 * HTTP server and the app. Schema: docs/schema.md. Errors a person can act on are
 * CorpusError (opening, locking, permissions) or IngestError (bad input, with file:line).
 *
 * Reads and writes are two types: ReadCorpus has the methods that only read, Corpus adds
 * those that write. `openCorpus(path, {readonly: true})` gives a ReadCorpus, so a write
 * through a read-only corpus does not compile; at run time its connection is read-only and
 * every write method refuses before it starts.
 *
 * Each method is one line over a query module in queries/<domain>.ts (the only place SQL
 * lives); a new domain adds its file there and its methods here (docs/architecture.md).
 *
 * One corpus holds one better-sqlite3 connection; calls are synchronous except ingest and
 * export, which stream. Do not run queries on the same corpus while its ingest is in
 * progress (they would see the uncommitted file); open a second one instead.
 */
import type Database from 'better-sqlite3';
import type { Writable } from 'node:stream';
import type { TraceQuery, TraceRow } from '../trace/listing.js';
import type { TraceEvent } from '../trace/types.js';
import { bindConnection } from './connection.js';
import { explainSqliteError, readOnlyError } from './errors.js';
import { exportTraces } from './export.js';
import { ingestFile, ingestStream, type IngestOptions, type IngestResult } from './ingest.js';
import { openDatabase, type OpenOptions } from './open.js';
import { getEvents, iterateEvents, traceShape, type TraceShape } from './queries/events.js';
import { packedSkeleton, packedSkeletonBytes } from './queries/skeletons.js';
import { userQuery, type SqlRow } from './queries/sql.js';
import type { SkeletonWire } from '../trace/skeleton.js';
import {
  beginRead, benchmarkPrograms, hasAnnotations, iterateExportRows, iterateProgramSources, programWeights, rowSources, schemaVersion,
  type RowSource,
} from './queries/export.js';
import type { ExportFilter, ExportKind } from '../semantics/export-select.js';
import { counts, getTrace, listTraces, traceIds, type CorpusCounts, type TraceRecord } from './queries/traces.js';
import {
  countItems, deleteEvalSet, getEvalSet, getItem, insertEvalSet, itemIds, iterateItems, listEvalSets,
  type EvalSetRecord, type ItemQuery, type NewItem, type StoredItem,
} from './queries/evalsets.js';
import {
  answeredItems, checkedPredictions, countPredictions, insertPredictions, iteratePredictions, pendingChecks, setVerdicts, verdictRows,
  type NewPrediction, type PendingCheck, type CheckedPrediction, type PredictionQuery, type PredictionRecord, type VerdictRow, type VerdictUpdate,
} from './queries/predictions.js';
import { deleteRun, getRun, getRunById, insertRun, listRuns, type NewRun, type RunRecord } from './queries/runs.js';
import { itemVerdicts, type ItemVerdicts } from './queries/verdicts.js';
import {
  annotationHistory, annotationsOfPredictions, getAnnotation, getAnnotationByUid, insertTaxonomy, labelUsage, latestTaxonomy, listAnnotations,
  predictionRef, saveAnnotation, setSuggestionStatus, undoLast, type AnnotationQuery, type AnnotationRecord, type AnnotationRole, type AnnotationStatus, type HistoryEntry, type NewAnnotation,
} from './queries/annotations.js';
import { getTrajectory, insertTrajectories, iterateTrajectories, listTrajectories, type NewTrajectory, type StoredTrajectory } from './queries/trajectories.js';

export type { TraceQuery, TraceRow } from '../trace/listing.js';
export type { CorpusCounts, TraceRecord } from './queries/traces.js';
export type { TraceShape } from './queries/events.js';
export type { NewTrajectory, StoredTrajectory } from './queries/trajectories.js';
export type { SqlRow } from './queries/sql.js';
export type { RowSource } from './queries/export.js';
export type { EvalSetRecord, ItemQuery, NewItem, StoredItem } from './queries/evalsets.js';
export type { RunFormat, NewRun, RunRecord } from './queries/runs.js';
export type { ItemKeys, ItemVerdicts, Tally, VerdictCombo } from './queries/verdicts.js';
export type { NewPrediction, PendingCheck, CheckedPrediction, PredictionQuery, PredictionRecord, VerdictRow, VerdictUpdate, CheckVerdict } from './queries/predictions.js';
export type { IngestOptions, IngestResult } from './ingest.js';
export type {
  AnnotationFields, AnnotationQuery, AnnotationRecord, AnnotationRole, AnnotationSource, AnnotationStatus, HistoryEntry, NewAnnotation,
} from './queries/annotations.js';
export type { OpenOptions } from './open.js';
export { CorpusError, IngestError } from './errors.js';
export { foldVerdicts } from './queries/verdicts.js';

export class ReadCorpus {
  private closed = false;

  constructor(
    readonly path: string,
    protected readonly conn: Database.Database,
  ) {
    bindConnection(this, conn);
  }

  get readonly(): boolean {
    return this.conn.readonly;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.close();
  }

  // ---- traces and events (queries/traces.ts, queries/events.ts) -------------------------

  listTraces(q: TraceQuery = {}): { total: number; rows: TraceRow[] } {
    return this.guard(() => listTraces(this.conn, q));
  }

  getTrace(id: number): TraceRecord | undefined {
    return this.guard(() => getTrace(this.conn, id));
  }

  /** Every trace id, in id order. */
  traceIds(): number[] {
    return this.guard(() => traceIds(this.conn));
  }

  counts(): CorpusCounts {
    return this.guard(() => counts(this.conn));
  }

  /** Events with fromSeq <= seq < toSeq, in seq order (one primary-key range scan). */
  getEvents(traceId: number, fromSeq = 0, toSeq = Infinity): TraceEvent[] {
    return this.guard(() => getEvents(this.conn, traceId, fromSeq, toSeq));
  }

  /** The columns that lay out a trace's trees (no values), or null when it has no events. */
  getTraceShape(traceId: number): TraceShape | null {
    return this.guard(() => traceShape(this.conn, traceId));
  }

  /**
   * The trace's packed skeleton (what getTraceShape gives, packed): the row kept at ingest,
   * else packed from the events; null when the trace has no events.
   */
  getPackedSkeleton(traceId: number): SkeletonWire | null {
    return this.guard(() => packedSkeleton(this.conn, traceId));
  }

  /** The same skeleton as bytes (skeletonBytes, src/trace/skeleton.ts): the kept row as it is. */
  getSkeletonBytes(traceId: number): Uint8Array | null {
    return this.guard(() => packedSkeletonBytes(this.conn, traceId));
  }

  /** Like getEvents, one event at a time; see queries/events.ts for the iterator rule. */
  iterateEvents(traceId: number, fromSeq = 0, toSeq = Infinity): Generator<TraceEvent> {
    return iterateEvents(this.conn, traceId, fromSeq, toSeq);
  }

  /** Writes the given traces to `out` in the trace file format. */
  export(ids: Iterable<number>, out: Writable): Promise<{ traces: number; events: number }> {
    return exportTraces(this.conn, ids, out);
  }

  // ---- trajectories (queries/trajectories.ts) ---------------------------------------------

  /** One page of a trace's trajectories, in id order. */
  listTrajectories(traceId: number, offset = 0, limit = 100): { total: number; rows: StoredTrajectory[] } {
    return this.guard(() => listTrajectories(this.conn, traceId, offset, limit));
  }

  getTrajectory(id: number): StoredTrajectory | undefined {
    return this.guard(() => getTrajectory(this.conn, id));
  }

  /** Trajectories in id order, optionally of one trace, one at a time. */
  iterateTrajectories(traceId?: number): Generator<StoredTrajectory> {
    return iterateTrajectories(this.conn, traceId);
  }

  // ---- predictions (queries/evalsets.ts, queries/runs.ts, queries/predictions.ts) ---------

  getEvalSet(name: string): EvalSetRecord | undefined {
    return this.guard(() => getEvalSet(this.conn, name));
  }

  listEvalSets(): EvalSetRecord[] {
    return this.guard(() => listEvalSets(this.conn));
  }

  /** Items of a set in order (optionally over one trace, one page), one at a time. */
  iterateItems(setId: number, q?: ItemQuery): Generator<StoredItem> {
    return iterateItems(this.conn, setId, q);
  }

  countItems(setId: number, traceId?: number): number {
    return this.guard(() => countItems(this.conn, setId, traceId));
  }

  getItem(id: number): StoredItem | undefined {
    return this.guard(() => getItem(this.conn, id));
  }

  /** The ids and keys of a set's items, to resolve what a predictions file names. */
  itemIds(setId: number): { byId: Set<number>; byKey: Map<string, number> } {
    return this.guard(() => itemIds(this.conn, setId));
  }

  getRun(setId: number, label: string): RunRecord | undefined {
    return this.guard(() => getRun(this.conn, setId, label));
  }

  getRunById(id: number): RunRecord | undefined {
    return this.guard(() => getRunById(this.conn, id));
  }

  /** Runs in id order, of one set or of all. */
  listRuns(setId?: number): RunRecord[] {
    return this.guard(() => listRuns(this.conn, setId));
  }

  /** Ids of the items the run has answered (for resuming). */
  answeredItems(runId: number): Set<number> {
    return this.guard(() => answeredItems(this.conn, runId));
  }

  pendingChecks(runId: number): PendingCheck[] {
    return this.guard(() => pendingChecks(this.conn, runId));
  }

  /** Predictions of a run whose checks were made, with their statuses (seed checks). */
  checkedPredictions(runId: number): CheckedPrediction[] {
    return this.guard(() => checkedPredictions(this.conn, runId));
  }

  iteratePredictions(q: PredictionQuery): Generator<PredictionRecord> {
    return iteratePredictions(this.conn, q);
  }

  countPredictions(q: PredictionQuery): number {
    return this.guard(() => countPredictions(this.conn, q));
  }

  /** One row per prediction of a run, what scores are computed from. */
  verdictRows(runId: number): VerdictRow[] {
    return this.guard(() => verdictRows(this.conn, runId));
  }

  /** A run's verdicts summed per item, in item order (what the dashboard scores from). */
  itemVerdicts(runId: number): ItemVerdicts[] {
    return this.guard(() => itemVerdicts(this.conn, runId));
  }

  // ---- curated export (queries/export.ts; src/export/ plans and writes) -------------------

  /** Where rows of `kind` come from under the filter (refuses keys that do not apply). */
  exportSources(kind: ExportKind, f: ExportFilter): RowSource[] {
    return rowSources(kind, f);
  }

  /** Rows per program id that a source gives under the filter. */
  exportWeights(src: RowSource, f: ExportFilter): Map<number, number> {
    return this.guard(() => programWeights(this.conn, src, f));
  }

  /** The source's rows in a fixed order, one at a time. */
  iterateExportRows(src: RowSource, f: ExportFilter): IterableIterator<Record<string, unknown>> {
    return this.guard(() => iterateExportRows(this.conn, src, f));
  }

  iterateProgramSources(): IterableIterator<{ id: number; source: string }> {
    return this.guard(() => iterateProgramSources(this.conn));
  }

  /** Benchmark (CRUXEval) sets and the program ids their items are over: the leakage guard's input. */
  benchmarkPrograms(): { sets: string[]; programs: Set<number> } {
    return this.guard(() => benchmarkPrograms(this.conn));
  }

  hasAnnotations(): boolean {
    return this.guard(() => hasAnnotations(this.conn));
  }

  schemaVersion(): number {
    return this.guard(() => schemaVersion(this.conn));
  }

  /** Starts one read snapshot; call the function returned to end it. */
  beginRead(): () => void {
    return this.guard(() => beginRead(this.conn));
  }

  // ---- annotations (queries/annotations.ts) -----------------------------------------------

  /** The newest stored taxonomy version (JSON), or undefined when none was stored yet. */
  latestTaxonomy(): { version: number; body: string } | undefined {
    return this.guard(() => latestTaxonomy(this.conn));
  }

  /** Active annotations per label id. */
  labelUsage(): Map<string, number> {
    return this.guard(() => labelUsage(this.conn));
  }

  getAnnotation(target: string, annotator: string, role: AnnotationRole = 'annotator'): AnnotationRecord | undefined {
    return this.guard(() => getAnnotation(this.conn, target, annotator, role));
  }

  getAnnotationByUid(uid: string): AnnotationRecord | undefined {
    return this.guard(() => getAnnotationByUid(this.conn, uid));
  }

  listAnnotations(q?: AnnotationQuery): AnnotationRecord[] {
    return this.guard(() => listAnnotations(this.conn, q));
  }

  annotationsOfPredictions(ids: readonly number[]): AnnotationRecord[] {
    return this.guard(() => annotationsOfPredictions(this.conn, ids));
  }

  /** Where a prediction belongs (set, run, item); undefined for an unknown id. */
  predictionRef(id: number): { setId: number; runId: number; itemId: number } | undefined {
    return this.guard(() => predictionRef(this.conn, id));
  }

  annotationHistory(q?: { annotation?: number; who?: string }): HistoryEntry[] {
    return this.guard(() => annotationHistory(this.conn, q));
  }

  // ---- plain SQL (queries/sql.ts) ----------------------------------------------------------

  /** One statement a person wrote, read-only; checked now, rows as the result is iterated. */
  query(sql: string): IterableIterator<SqlRow> {
    return userQuery(this.conn, this.path, sql);
  }

  protected guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw explainSqliteError(e, this.path);
    }
  }
}

export class Corpus extends ReadCorpus {
  /** Reads one trace file ('-' for stdin) in one transaction; see ingest.ts. */
  async ingest(file: string, opts?: IngestOptions): Promise<IngestResult> {
    this.assertWritable();
    return ingestFile(this.conn, file, opts);
  }

  async ingestStream(chunks: AsyncIterable<Buffer>, label: string, opts?: IngestOptions): Promise<IngestResult> {
    this.assertWritable();
    return ingestStream(this.conn, chunks, label, opts);
  }

  /** Stores trajectories in one transaction; per item its new id, or null when its sample key was stored before. */
  saveTrajectories(items: Iterable<NewTrajectory>): (number | null)[] {
    this.assertWritable();
    return this.guard(() => this.conn.transaction(() => insertTrajectories(this.conn, items))());
  }

  /** Stores a set and its items in one transaction. */
  createEvalSet(name: string, task: EvalSetRecord['task'], options: unknown, items: readonly NewItem[]): EvalSetRecord {
    this.assertWritable();
    return this.guard(() => this.conn.transaction(() => insertEvalSet(this.conn, name, task, options, items))());
  }

  /** Deletes a set with its items, runs and predictions. */
  deleteEvalSet(id: number): void {
    this.assertWritable();
    this.guard(() => deleteEvalSet(this.conn, id));
  }

  /**
   * Stores a run and its predictions in one transaction (all or nothing); `replace` names a
   * run deleted in the same transaction. Returns the new run's id.
   */
  saveRun(run: NewRun, predictions: Iterable<NewPrediction>, replace?: number): number {
    this.assertWritable();
    return this.guard(() =>
      this.conn.transaction(() => {
        if (replace !== undefined) deleteRun(this.conn, replace);
        const id = insertRun(this.conn, run);
        insertPredictions(this.conn, id, predictions);
        return id;
      })(),
    );
  }

  /** Adds predictions to a run in one transaction (one item's samples, as they arrive). */
  addPredictions(runId: number, predictions: Iterable<NewPrediction>): number {
    this.assertWritable();
    return this.guard(() => this.conn.transaction(() => insertPredictions(this.conn, runId, predictions))());
  }

  /** Deletes a run and its predictions, nothing else. */
  deleteRun(id: number): void {
    this.assertWritable();
    this.guard(() => deleteRun(this.conn, id));
  }

  /** Sets execution verdicts in one transaction. */
  setVerdicts(updates: Iterable<VerdictUpdate>): void {
    this.assertWritable();
    this.guard(() => this.conn.transaction(() => setVerdicts(this.conn, updates))());
  }

  // ---- annotations: each call one transaction, committed when it returns ------------------

  /** Stores a taxonomy version (checked by the caller: src/annotate/taxonomy-diff.ts). */
  saveTaxonomy(version: number, name: string, body: string, author: string | null): void {
    this.assertWritable();
    this.guard(() => this.conn.transaction(() => insertTaxonomy(this.conn, version, name, body, author))());
  }

  /** Creates or changes annotations (one transaction for all), each change recorded in the history as `who`'s. */
  saveAnnotations(list: readonly NewAnnotation[], who: string, op: 'create' | 'import' = 'create'): AnnotationRecord[] {
    this.assertWritable();
    return this.guard(() => this.conn.transaction(() => list.map((a) => saveAnnotation(this.conn, a, who, op)))());
  }

  /**
   * Changes annotations and the status of rule suggestions in one transaction: what one
   * keystroke in the queue does. Returns the saved annotations.
   */
  saveAnnotationsWithStatus(list: readonly NewAnnotation[], statuses: readonly { id: number; status: AnnotationStatus }[], who: string): AnnotationRecord[] {
    this.assertWritable();
    return this.guard(() =>
      this.conn.transaction(() => {
        const saved = list.map((a) => saveAnnotation(this.conn, a, who));
        statuses.forEach((c) => setSuggestionStatus(this.conn, c.id, c.status));
        return saved;
      })(),
    );
  }

  /** Reverts `who`'s last change not yet undone; undefined when there is none. */
  undoAnnotation(who: string): AnnotationRecord | undefined {
    this.assertWritable();
    return this.guard(() => this.conn.transaction(() => undoLast(this.conn, who))());
  }

  /** Refuses a write on a read-only connection before it starts (SQLite would refuse it too). */
  private assertWritable(): void {
    if (this.readonly) throw readOnlyError(this.path);
  }
}

/**
 * Opens a corpus file; see OpenOptions (create, readonly, busyTimeoutMs, nativeBinding).
 * Read-only opens give the read-only type.
 */
export function openCorpus(path: string, opts: OpenOptions & { readonly: true }): ReadCorpus;
export function openCorpus(path: string, opts?: OpenOptions & { readonly?: false }): Corpus;
export function openCorpus(path: string, opts?: OpenOptions): ReadCorpus;
export function openCorpus(path: string, opts: OpenOptions = {}): ReadCorpus {
  // One class at run time: a read-only corpus still answers a write with a clear refusal.
  return new Corpus(path, openDatabase(path, opts));
}
