/**
 * Recording a counterfactual of a stored trace (docs/semantics.md, "Counterfactuals"): the
 * trace is written out to a temporary file, `python3 -m stepscope_recorder counterfactual`
 * records its program again with the edit made (python/stepscope_recorder/counterfactual.py
 * checks the run against the origin), and the new trace is ingested and linked to its origin.
 * The corpus is reached through the few methods below (this layer does not import the store);
 * the CLI and the API handler pass their Corpus.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import {
  pythonCommand,
  warmRecorder,
  WarmRecorder,
  WarmRecorderGone,
  WarmRefusal,
  type RecordedRun,
  type RecorderAnswer,
} from './warm.js';

/** What a counterfactual is asked for: the trace, the event, the locals to set there. */
export interface CounterfactualRequest {
  trace: number;
  seq: number;
  /** name -> Python literal text (ast.literal_eval), e.g. {"x": "5", "s": "'ab'"}. */
  set: Record<string, string>;
}

/** What `stepscope counterfactual --json` prints and the API's `recordCounterfactual` returns. */
export interface CounterfactualResult extends RecordedRun {
  /** The new trace's id (an ordinary trace: getTrace, getEvents, getSkeleton serve it). */
  trace: number;
  /** The trace it was made from. */
  origin: number;
  /** False when this very counterfactual was already stored (its trace is returned). */
  inserted: boolean;
}

/** The corpus methods a counterfactual uses (src/store/corpus.ts's Corpus has them). */
export interface CounterfactualCorpus {
  getTrace(id: number): { id: number } | undefined;
  export(ids: Iterable<number>, out: Writable): Promise<unknown>;
  ingest(file: string, opts: { origin: string; onTrace: (id: number, inserted: boolean) => void }): Promise<unknown>;
  linkCounterfactual(link: {
    trace: number;
    origin: number;
    seq: number;
    set: Record<string, string>;
    first_difference: number | null;
    created: string;
  }): void;
}

/** A refusal a person can act on; `code` says whether the request or the program is at fault. */
export class CounterfactualError extends Error {
  constructor(
    message: string,
    /** 'bad-input': the request (name, literal, event); 'not-reproduced': the program differs when run again. */
    readonly kind: 'bad-input' | 'not-found' | 'not-reproduced' | 'failed',
  ) {
    super(message);
    this.name = 'CounterfactualError';
  }
}

export interface RecordOptions {
  /**
   * Record through the warm recorder (./warm.ts: a fork of a warm interpreter, recorded again
   * cold when that run does not reproduce the origin) instead of a recorder of its own. For a
   * process that records many: the API server, an evaluation set. `true`: this process's
   * recorder of the configured Python (warmRecorder()); or one the caller owns.
   */
  warm?: boolean | WarmRecorder;
  /** Told how the stored trace was recorded: warm or not, and why a warm run was not kept. */
  how?: (h: { warm: boolean; fallback: string | null }) => void;
}

/** Records the counterfactual, stores it linked to its origin; nothing is stored when refused. */
export async function recordCounterfactual(
  corpus: CounterfactualCorpus,
  req: CounterfactualRequest,
  opts: RecordOptions = {},
): Promise<CounterfactualResult> {
  if (!corpus.getTrace(req.trace)) throw new CounterfactualError(`no trace with id ${req.trace}`, 'not-found');
  const names = Object.keys(req.set);
  if (!names.length) throw new CounterfactualError('at least one local to set is required', 'bad-input');
  const dir = await mkdtemp(join(tmpdir(), 'stepscope-cf-'));
  try {
    const originFile = join(dir, 'origin.jsonl');
    const out = createWriteStream(originFile);
    await corpus.export([req.trace], out);
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const newFile = join(dir, 'counterfactual.jsonl');
    const args = ['counterfactual', originFile, '-o', newFile, '--seq', String(req.seq)];
    for (const n of names) args.push('--set', `${n}=${req.set[n]}`);
    const warm = opts.warm === true ? warmRecorder() : opts.warm || null;
    const answer = warm
      ? await viaWarmRecorder(warm, { origin: originFile, out: newFile, seq: req.seq, set: req.set }, args)
      : await runCounterfactual(args);
    opts.how?.({ warm: answer.warm === true, fallback: answer.fallback ?? null });
    let id: number | undefined;
    let inserted = false;
    await corpus.ingest(newFile, {
      origin: `counterfactual of trace ${req.trace}`,
      onTrace: (i, ins) => {
        id = i;
        inserted = ins;
      },
    });
    if (id === undefined) throw new CounterfactualError('the recorder wrote no trace', 'failed');
    corpus.linkCounterfactual({
      trace: id,
      origin: req.trace,
      seq: req.seq,
      set: answer.set,
      first_difference: answer.first_difference,
      created: new Date().toISOString(),
    });
    return {
      trace: id,
      origin: req.trace,
      seq: answer.seq,
      set: answer.set,
      first_difference: answer.first_difference,
      exit: answer.exit,
      reason: answer.reason,
      events: answer.events,
      inserted,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The warm recorder's answer; a recorder that ended before answering: a recorder of its own instead. */
async function viaWarmRecorder(
  warm: WarmRecorder,
  r: { origin: string; out: string; seq: number; set: Record<string, string> },
  args: string[],
): Promise<RecorderAnswer> {
  try {
    return await warm.request(r);
  } catch (e) {
    if (e instanceof WarmRefusal) throw new CounterfactualError(e.message, e.kind);
    if (e instanceof WarmRecorderGone) return runCounterfactual(args);
    throw e;
  }
}

/** Runs the recorder's `counterfactual` command; its one stderr line becomes the error. */
function runCounterfactual(args: string[]): Promise<RecorderAnswer> {
  return new Promise((resolve, reject) => {
    // The interpreter behind a shim when a warm recorder of this process has found it (./warm.ts).
    const { command, env } = pythonCommand();
    const child = spawn(command, ['-m', 'stepscope_recorder', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e) => reject(new CounterfactualError(`cannot start ${command}: ${e.message}`, 'failed')));
    child.on('close', (code, signal) => {
      const said =
        stderr
          .trim()
          .split('\n')
          .pop()
          ?.replace(/^stepscope_recorder: /, '')
          .replace(/; nothing written$/, '') ?? '';
      if (code === 0) {
        try {
          return resolve(JSON.parse(stdout) as RecorderAnswer);
        } catch {
          return reject(new CounterfactualError(`the recorder answered ${JSON.stringify(stdout)}`, 'failed'));
        }
      }
      if (code === 2) return reject(new CounterfactualError(said, 'bad-input'));
      if (code === 1 && /before the edit|is not the origin's state/.test(said))
        return reject(new CounterfactualError(said, 'not-reproduced'));
      reject(new CounterfactualError(said || `the recorder ended by ${signal ?? `status ${code}`}`, 'failed'));
    });
  });
}
