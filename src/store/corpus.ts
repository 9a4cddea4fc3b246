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
 * This file only composes: each domain's methods are in corpus/<domain>.ts (traces,
 * trajectories, predictions, export, annotations, sql), one line each over a query module in
 * queries/<domain>.ts (the only place SQL lives), reads and writes apart, over corpus/base.ts.
 * A new domain adds its two files and its mixins here (docs/architecture.md).
 *
 * One corpus holds one better-sqlite3 connection; calls are synchronous except ingest and
 * export, which stream. Do not run queries on the same corpus while its ingest is in
 * progress (they would see the uncommitted file); open a second one instead.
 */
import type Database from 'better-sqlite3';
import { AnnotationReads, AnnotationWrites } from './corpus/annotations.js';
import { CorpusBase } from './corpus/base.js';
import { BenchmarkReads, BenchmarkWrites } from './corpus/benchmarks.js';
import { ExportReads } from './corpus/export.js';
import { PredictionReads, PredictionWrites } from './corpus/predictions.js';
import { SqlReads } from './corpus/sql.js';
import { TraceReads, TraceWrites } from './corpus/traces.js';
import { TrajectoryReads, TrajectoryWrites } from './corpus/trajectories.js';
import { openDatabase, type OpenOptions } from './open.js';

export type { TraceQuery, TraceRow } from '../trace/listing.js';
export type { CorpusCounts, TraceRecord } from './queries/traces.js';
export type { TraceShape } from './queries/events.js';
export type { NewTrajectory, StoredTrajectory } from './queries/trajectories.js';
export type { SqlRow } from './queries/sql.js';
export type { RowSource } from './queries/export.js';
export type { MarkedProgram, ProgramOf } from './queries/benchmarks.js';
export type { EvalSetRecord, ItemQuery, ItemTruth, NewItem, StoredItem } from './queries/evalsets.js';
export type { RunFormat, NewRun, RunRecord } from './queries/runs.js';
export type { ItemKeys, ItemVerdicts, Tally, VerdictCombo } from './queries/verdicts.js';
export type {
  NewPrediction,
  PendingCheck,
  CheckedPrediction,
  PredictionQuery,
  PredictionRecord,
  VerdictRow,
  VerdictUpdate,
  CheckVerdict,
} from './queries/predictions.js';
export type { IngestOptions, IngestResult } from './ingest.js';
export type {
  AnnotationFields,
  AnnotationQuery,
  AnnotationRecord,
  AnnotationRole,
  AnnotationSource,
  AnnotationStatus,
  HistoryEntry,
  NewAnnotation,
} from './queries/annotations.js';
export type { OpenOptions } from './open.js';
export { CorpusError, IngestError } from './errors.js';
export { foldVerdicts } from './queries/verdicts.js';

/** The methods that only read: traces and events, trajectories, predictions, export, annotations, plain SQL. */
export class ReadCorpus extends SqlReads(
  BenchmarkReads(AnnotationReads(ExportReads(PredictionReads(TrajectoryReads(TraceReads(CorpusBase)))))),
) {
  constructor(path: string, conn: Database.Database) {
    super(path, conn);
  }
}

/** A ReadCorpus and the writes; each write starts with assertWritable(). */
export class Corpus extends BenchmarkWrites(
  AnnotationWrites(PredictionWrites(TrajectoryWrites(TraceWrites(ReadCorpus)))),
) {
  constructor(path: string, conn: Database.Database) {
    super(path, conn);
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
