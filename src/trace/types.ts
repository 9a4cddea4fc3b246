/**
 * The trace data model shared by every part of Stepscope (store, semantics, API, UI).
 * It mirrors docs/trace-format.md; keep the two in step.
 * Pure: this module must stay importable from Node and from the renderer.
 */

/** The recorded event kinds; a kind's index is its number in columnar form (the skeleton). */
export const EVENT_KINDS = ['call', 'line', 'return', 'exception'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
/** How a trace ended (its `end` record): not to be confused with the exit tokens of a trajectory. */
export const TRACE_EXITS = ['normal', 'error', 'never'] as const;
export type ExitStatus = (typeof TRACE_EXITS)[number];
export type TraceMode = 'script' | 'call';

export const TRACE_FORMAT = 'stepscope-trace';
export const TRACE_FORMAT_VERSION = 1;

/** One recorded state (one sys.settrace event). */
export interface TraceEvent {
  seq: number;
  event: EventKind;
  frame: number;
  func: string;
  line: number;
  src: string;
  /** name -> repr, in frame.f_locals order (JS keeps insertion order for identifier keys). */
  locals: Record<string, string>;
  /** return: repr or null (left by exception); exception: repr of the exception; else null. */
  arg: string | null;
  /** Seq of the parent node in the forward tree of the whole trace; null at top level. */
  parent: number | null;
  /** Names whose repr was cut; '<arg>' for arg. Absent when nothing was cut. */
  cut?: string[];
}

export interface TraceLimits {
  events: number;
  seconds: number;
  memory_mb: number;
  repr_chars: number;
}

/** The `trace` header record of a trace file. */
export interface TraceHeader {
  name: string;
  mode: TraceMode;
  python: string;
  hashseed: number;
  filename: string;
  source: string;
  call: string | null;
  context_forward: string;
  context_inverse: string;
  limits: TraceLimits;
  meta: Record<string, unknown>;
}

/** The `end` record of a trace file. */
export interface TraceEnd {
  exit: ExitStatus;
  reason: string | null;
  events: number;
  seconds: number;
  stdout_bytes?: number;
  /** Present when the recorder saw records it did not write (see docs/trace-format.md). */
  tampered?: string;
}
