/**
 * Samples trajectories over the traces of a corpus and stores them, one transaction per
 * trace (a failure leaves earlier traces' trajectories stored and nothing half-written).
 */
import type { Corpus } from '../store/corpus.js';
import { PAPER_POLICY, contextFor, sampleTrace, serialize, type DirectionChoice, type EntryChoice, type Policy } from '../semantics/index.js';
import { loadTrace } from './load.js';
import { trajectoryWriter } from './store.js';

export interface CorpusSampleOptions {
  seed: number;
  perTrace: number;
  direction: DirectionChoice;
  entry: EntryChoice;
  maxSteps?: number;
  policy?: Policy;
  /** Only this trace; default every trace. */
  traceId?: number;
}

export interface CorpusSampleResult {
  traces: number;
  sampled: number;
  stored: number;
  /** Already stored by an earlier run with the same settings. */
  skipped: number;
  textBytes: number;
}

export function sampleCorpus(corpus: Corpus, o: CorpusSampleOptions): CorpusSampleResult {
  const db = corpus.db;
  const ids =
    o.traceId === undefined
      ? (db.prepare('SELECT id FROM traces ORDER BY id').pluck().all() as number[])
      : [o.traceId];
  const policy = o.policy ?? PAPER_POLICY;
  const res: CorpusSampleResult = { traces: 0, sampled: 0, stored: 0, skipped: 0, textBytes: 0 };
  for (const id of ids) {
    const tr = loadTrace(corpus, id);
    // Keyed by trace name, so re-ingesting the same trace samples the same trajectories.
    const ts = sampleTrace(tr.index, { seed: o.seed, traceKey: tr.record.name, perTrace: o.perTrace, entry: o.entry, direction: o.direction, maxSteps: o.maxSteps, policy });
    const write = trajectoryWriter(db, () => tr.index);
    db.transaction(() => {
      for (const t of ts) {
        const text = serialize(tr.index, t, contextFor(t.direction, tr.record));
        const sampler = { policy, entry: o.entry, max_steps: o.maxSteps ?? null, k: t.k };
        const key = JSON.stringify([id, o.seed, sampler, t.entry, t.direction]);
        const got = write({ traceId: id, trajectory: t, text, seed: o.seed, sampler, sampleKey: key });
        res.sampled++;
        res.textBytes += Buffer.byteLength(text);
        if (got === null) res.skipped++;
        else res.stored++;
      }
    })();
    res.traces++;
  }
  return res;
}
