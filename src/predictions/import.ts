/**
 * `stepscope predictions import`: a predictions file stored as one run of a set, in one
 * transaction after the whole file was read and checked (a bad file stores nothing).
 *
 * Idempotent: a run is keyed by (set, label) and remembers its file's sha256. The same file
 * again stores nothing; another file under an existing label is refused unless `replace`,
 * which swaps the run in the same transaction (its old predictions are deleted).
 * Execution checks are left `pending`; execute.ts runs them.
 *
 * A large file is read and scored on a second thread (import-worker.ts) while this one stores the rows it sends, in
 * the same one transaction: rows follow the file (an item's samples numbered in file order, as here), and a
 * problem found on a later line rolls back what was stored. The verdicts are the same either way.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { UserError } from '../common/errors.js';
import { isCruxevalTask } from '../semantics/index.js';
import {
  IngestError,
  type Corpus,
  type EvalSetRecord,
  type ItemTruth,
  type NewPrediction,
  type RunRecord,
} from '../store/corpus.js';
import type { ImportJob, ImportMessage } from './import-worker.js';
import { readPredictionsFile, type FileStart } from './read-file.js';
import { requireSet } from './views.js';
import { newPrediction } from './verdicts.js';

export interface ImportOptions {
  file: string;
  set: string;
  label: string;
  params?: Record<string, unknown>;
  replace?: boolean;
}

export interface ImportResult {
  run: RunRecord;
  /**
   * `stored`: a new run; `replaced`: the label's earlier run was swapped; `unchanged`: the same file was imported
   * before.
   */
  outcome: 'stored' | 'replaced' | 'unchanged';
}

/** From this size on a file is read on a second thread: starting one costs about as much as reading 1 MB. */
const THREAD_BYTES = 1 << 20;

/** `threads`: read on a second thread (default: for files of THREAD_BYTES and more, when the build has one). */
export function importPredictions(corpus: Corpus, o: ImportOptions, threads?: boolean): ImportResult {
  const set = requireSet(corpus, o.set);
  const refused = isCruxevalTask(set.task)
    ? null
    : `a CRUXEval generations file fits a CRUXEval set (cruxeval-output, cruxeval-output-breakpoint, cruxeval-input); ${JSON.stringify(set.name)} is a ${set.task} set`;
  const reader = (threads ?? fileSize(o.file) >= THREAD_BYTES) ? startReader(corpus, set, o.file, refused) : null;
  if (!reader) return importHere(corpus, o, set, refused);
  try {
    const start = reader.start();
    const existing = corpus.getRun(set.id, o.label);
    if (existing && (existing.sourceHash === start.hash || !o.replace)) {
      reader.drain(); // the file is read and checked first, as importHere does: its problems come first
      if (existing.sourceHash === start.hash) return { run: existing, outcome: 'unchanged' };
      throw labelTaken(set, o.label, existing);
    }
    const runId = corpus.saveRunRows(newRun(set, o, start), reader.batches(), existing?.id);
    return { run: corpus.getRunById(runId)!, outcome: existing ? 'replaced' : 'stored' };
  } finally {
    reader.stop();
  }
}

const newRun = (set: EvalSetRecord, o: ImportOptions, file: FileStart) => ({
  setId: set.id,
  label: o.label,
  format: file.format === 'state' ? ('state' as const) : ('cruxeval' as const),
  params: o.params ?? {},
  source: o.file,
  sourceHash: file.hash,
  hashseed: 0,
});

function labelTaken(set: EvalSetRecord, label: string, existing: RunRecord): UserError {
  const from = existing.sourceHash
    ? `imported from another file (${existing.source})`
    : `made by stepscope predict (${existing.source})`;
  return new UserError(
    `${set.name} already has a run labelled ${JSON.stringify(label)}, ${from}; give another --model label, or --replace to replace it`,
    'bad-input',
  );
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // importHere names the file and why it cannot be read
  }
}

/** The import on this thread alone. */
function importHere(corpus: Corpus, o: ImportOptions, set: EvalSetRecord, refused: string | null): ImportResult {
  // The items' true fields (not their prompts, most of a set's bytes), by id and key.
  const truths = new Map<number, ItemTruth>();
  const byKey = new Map<string, number>();
  for (const it of corpus.itemTruths(set.id)) {
    truths.set(it.id, it);
    byKey.set(it.key, it.id);
  }
  const prompts = promptsOf(corpus, set.id);
  const file = readPredictionsFile(
    o.file,
    (id) => (typeof id === 'number' ? (truths.has(id) ? id : undefined) : byKey.get(id)),
    refused,
    (prompt) => prompts().get(prompt) ?? [],
  );
  const format = file.format === 'state' ? 'state' : 'cruxeval';
  const existing = corpus.getRun(set.id, o.label);
  if (existing && existing.sourceHash === file.hash) return { run: existing, outcome: 'unchanged' };
  if (existing && !o.replace) throw labelTaken(set, o.label, existing);
  function* predictions(): Generator<NewPrediction> {
    for (const [id, texts] of file.byItem) {
      const item = truths.get(id)!;
      if (texts.length === 1) {
        yield newPrediction(item, set.task, format, 0, texts[0]);
        continue;
      }
      // k samples often repeat a completion: each distinct text is scored once (a verdict is a function of the
      // item and the text).
      const seen = new Map<string, NewPrediction>();
      for (let k = 0; k < texts.length; k++) {
        const same = seen.get(texts[k]);
        if (same) yield { ...same, sample: k, completion: texts[k] };
        else {
          const p = newPrediction(item, set.task, format, k, texts[k]);
          seen.set(texts[k], p);
          yield p;
        }
      }
    }
  }
  const runId = corpus.saveRun(newRun(set, o, file), predictions(), existing?.id);
  return { run: corpus.getRunById(runId)!, outcome: existing ? 'replaced' : 'stored' };
}

/** A set's items by prompt text, read when first asked (only files that name items by prompt need it). */
function promptsOf(corpus: Corpus, setId: number): () => Map<string, number[]> {
  let byPrompt: Map<string, number[]> | null = null;
  return () => {
    if (!byPrompt) {
      byPrompt = new Map();
      for (const it of corpus.iterateItems(setId)) byPrompt.set(it.prompt, [...(byPrompt.get(it.prompt) ?? []), it.id]);
    }
    return byPrompt;
  };
}

/** How long the reading thread may stay silent before it is taken for dead (it sends a batch every few ms). */
const SILENCE_MS = 120_000;

interface Reader {
  /** The file's format and hash (or its first problem, thrown). */
  start(): FileStart;
  /** The batches of rows to store, in file order; throws the file's first problem when it comes. */
  batches(): Generator<unknown[]>;
  /** Reads to the end for the file's problems, storing nothing. */
  drain(): void;
  stop(): void;
}

/** The compiled reading thread: beside this module, or in dist/ when this runs from the TypeScript sources (tests). */
function workerFile(): string | null {
  if (!import.meta.url.startsWith('file:')) return null;
  const here = fileURLToPath(import.meta.url);
  const file = here.endsWith('.ts')
    ? join(dirname(here), '../../dist/predictions/import-worker.js')
    : join(dirname(here), 'import-worker.js');
  return existsSync(file) ? file : null;
}

/** The reading thread over the file, or null when there is no compiled one (tests before a build). */
function startReader(corpus: Corpus, set: EvalSetRecord, file: string, refused: string | null): Reader | null {
  const url = workerFile();
  if (!url) return null;
  const signal = new SharedArrayBuffer(8);
  const flags = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const job: ImportJob = { file, task: set.task, refused, truths: corpus.itemTruthRows(set.id), port: port1, signal };
  const worker = new Worker(url, { workerData: job, transferList: [port1] });
  worker.unref();
  const prompts = promptsOf(corpus, set.id);
  let received = 0;
  let finished = false;
  const next = (): ImportMessage => {
    for (;;) {
      const got = receiveMessageOnPort(port2);
      if (got) {
        received++;
        const m = got.message as ImportMessage;
        if (m.t === 'prompts') {
          port2.postMessage([...prompts()]);
          Atomics.add(flags, 1, 1);
          Atomics.notify(flags, 1);
          continue;
        }
        if (m.t === 'error') throw new IngestError(m.file, m.line, m.detail);
        if (m.t === 'crash') throw new Error(`predictions import: the reading thread failed: ${m.message}`);
        if (m.t === 'done') finished = true;
        return m;
      }
      if (Atomics.wait(flags, 0, received, SILENCE_MS) === 'timed-out')
        throw new Error(`predictions import: the thread reading ${file} stopped answering`);
    }
  };
  return {
    start() {
      const m = next();
      if (m.t !== 'start') throw new Error(`predictions import: the reading thread sent ${m.t} first`);
      return { format: m.format, hash: m.hash };
    },
    *batches() {
      for (let m = next(); m.t !== 'done'; m = next()) if (m.t === 'rows') yield m.rows;
    },
    drain() {
      while (!finished) next();
    },
    stop() {
      port2.close();
      if (!finished) void worker.terminate();
    },
  };
}
