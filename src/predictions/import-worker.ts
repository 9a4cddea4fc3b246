/**
 * The reading thread of `predictions import` (import.ts starts it for large files): reads and checks the file,
 * scores each completion and sends the rows to store, in file order, in batches of one INSERT statement
 * (queries/predictions.ts), while the main thread stores the batches before it. No database here.
 *
 * Messages to the main thread (ImportMessage), each followed by a notify on `signal[0]`: `start` (format and
 * hash, before any row), `rows`, then `done` or `error` (an IngestError's parts, or a crash). A line naming its
 * item by prompt asks for the set's prompts once (`prompts`) and waits on `signal[1]` for the answer.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import type { EvalTask } from '../semantics/index.js';
import { IngestError } from '../store/errors.js';
import { itemTruth, type ItemTruth, type ItemTruthRow } from '../store/queries/evalsets.js';
import { predictionValues, ROW_WIDTH, ROWS_PER_STATEMENT } from '../store/queries/predictions.js';
import { scanPredictionsFile, type FileStart } from './read-file.js';
import { newPrediction } from './verdicts.js';

export interface ImportJob {
  file: string;
  task: EvalTask;
  /** Why CRUXEval's own files do not fit the set, or null (read-file.ts). */
  refused: string | null;
  truths: ItemTruthRow[];
  port: MessagePort;
  signal: SharedArrayBuffer;
}

export type ImportMessage =
  | ({ t: 'start' } & FileStart)
  | { t: 'rows'; rows: unknown[] }
  | { t: 'prompts' }
  | { t: 'done' }
  | { t: 'error'; file: string; line: number; detail: string }
  | { t: 'crash'; message: string };

const job = workerData as ImportJob;
const signal = new Int32Array(job.signal);

function send(m: ImportMessage) {
  job.port.postMessage(m);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

try {
  const truths = new Map<number, ItemTruth>();
  const byKey = new Map<string, number>();
  for (const row of job.truths) {
    const it = itemTruth(row);
    truths.set(it.id, it);
    byKey.set(it.key, it.id);
  }
  let prompts: Map<string, number[]> | null = null;
  const byPrompt = (prompt: string) => {
    if (!prompts) {
      const asked = Atomics.load(signal, 1);
      send({ t: 'prompts' });
      Atomics.wait(signal, 1, asked);
      prompts = new Map(receiveMessageOnPort(job.port)!.message as [string, number[]][]);
    }
    return prompts.get(prompt) ?? [];
  };
  let format: 'state' | 'cruxeval' = 'state';
  const full = ROWS_PER_STATEMENT * ROW_WIDTH;
  let rows: unknown[] = new Array(full);
  let at = 0;
  // Samples of an item, and its distinct texts scored so far: k samples often repeat a completion, and a
  // verdict is a function of the item and the text. Lines of one item usually follow each other.
  const samples = new Map<number, number>();
  let current = -1;
  const seen = new Map<string, number>(); // text → where its row starts in `rows`, while that batch is current
  scanPredictionsFile(
    job.file,
    (id) => (typeof id === 'number' ? (truths.has(id) ? id : undefined) : byKey.get(id)),
    job.refused,
    byPrompt,
    (start) => {
      format = start.format === 'state' ? 'state' : 'cruxeval';
      send({ t: 'start', ...start });
    },
    (id, texts) => {
      if (id !== current) {
        current = id;
        seen.clear();
      }
      const item = truths.get(id)!;
      let k = samples.get(id) ?? 0;
      for (const text of texts) {
        const same = seen.get(text);
        if (same !== undefined) {
          for (let c = 0; c < ROW_WIDTH; c++) rows[at + c] = rows[same + c];
          rows[at + 1] = k;
          at += ROW_WIDTH;
        } else {
          seen.set(text, at);
          at = predictionValues(newPrediction(item, job.task, format, k, text), rows, at);
        }
        k++;
        if (at === full) {
          send({ t: 'rows', rows });
          rows = new Array(full);
          at = 0;
          seen.clear();
        }
      }
      samples.set(id, k);
    },
  );
  if (at > 0) send({ t: 'rows', rows: rows.slice(0, at) });
  send({ t: 'done' });
} catch (e) {
  if (e instanceof IngestError) send({ t: 'error', file: e.file, line: e.line, detail: e.detail });
  else send({ t: 'crash', message: (e as Error)?.stack ?? String(e) });
}
