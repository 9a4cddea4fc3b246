/**
 * Samples trajectories over the traces of a corpus and stores them, one transaction per
 * trace (a failure leaves earlier traces' trajectories stored and nothing half-written).
 * With `unique`, a trajectory whose serialized text is already stored (by an earlier run or
 * earlier in this one: short programs give the same walk from many draws) is dropped, so
 * training data holds each text once.
 */
import { createHash } from 'node:crypto';
import {
  PAPER_POLICY,
  contextFor,
  sampleTrace,
  serialize,
  stateKind,
  stateSeqs,
  type DirectionChoice,
  type EntryChoice,
  type Policy,
  type Trajectory,
  type TreeIndex,
} from '../semantics/index.js';
import type { Corpus, NewTrajectory } from '../store/corpus.js';
import { loadTrace } from './load.js';

export interface CorpusSampleOptions {
  seed: number;
  /** Trajectories per entry and direction (per trace with `entry: 'root'` or `'random'` and one direction). */
  perTrace: number;
  direction: DirectionChoice;
  entry: EntryChoice;
  maxSteps?: number;
  policy?: Policy;
  /** Only this trace; default every trace. */
  traceId?: number;
  /** Drop trajectories whose serialized text is already stored. */
  unique?: boolean;
}

export interface CorpusSampleResult {
  traces: number;
  sampled: number;
  stored: number;
  /** Already stored by an earlier run with the same settings. */
  skipped: number;
  /** Dropped by `unique`: the same text as a stored trajectory. */
  duplicates: number;
  textBytes: number;
}

export function sampleCorpus(corpus: Corpus, o: CorpusSampleOptions): CorpusSampleResult {
  const ids = o.traceId === undefined ? corpus.traceIds() : [o.traceId];
  const policy = o.policy ?? PAPER_POLICY;
  const res: CorpusSampleResult = { traces: 0, sampled: 0, stored: 0, skipped: 0, duplicates: 0, textBytes: 0 };
  const digest = (text: string) => createHash('sha256').update(text).digest('base64');
  // Read before any transaction of this run starts: the texts as they were, then this run's own.
  const seen = o.unique ? new Set(Array.from(corpus.trajectoryTexts(), digest)) : null;
  for (const id of ids) {
    const tr = loadTrace(corpus, id);
    // Keyed by trace name, so re-ingesting the same trace samples the same trajectories.
    const ts = sampleTrace(tr.index, {
      seed: o.seed,
      traceKey: tr.record.name,
      perTrace: o.perTrace,
      entry: o.entry,
      direction: o.direction,
      maxSteps: o.maxSteps,
      policy,
    });
    // A generator: the store takes one trajectory's text at a time, inside its transaction.
    const rows = function* () {
      for (const t of ts) {
        const text = serialize(tr.index, t, contextFor(t.direction, tr.record));
        if (seen) {
          const d = digest(text);
          if (seen.has(d)) {
            res.sampled++;
            res.duplicates++;
            continue;
          }
          seen.add(d);
        }
        const sampler = { policy, entry: o.entry, max_steps: o.maxSteps ?? null, k: t.k };
        res.textBytes += Buffer.byteLength(text);
        yield toStored(
          tr.index,
          id,
          t,
          text,
          o.seed,
          sampler,
          JSON.stringify([id, o.seed, sampler, t.entry, t.direction]),
        );
      }
    };
    for (const got of corpus.saveTrajectories(rows())) {
      res.sampled++;
      if (got === null) res.skipped++;
      else res.stored++;
    }
    res.traces++;
  }
  return res;
}

/** A trajectory in the store's terms: states as seqs, and where each action leads. */
function toStored(
  index: TreeIndex,
  traceId: number,
  t: Trajectory,
  text: string,
  seed: number | null,
  sampler: unknown,
  sampleKey: string | null,
): NewTrajectory {
  const seqs = stateSeqs(t);
  return {
    traceId,
    direction: t.direction,
    entry: t.entry,
    actions: t.actions,
    states: seqs,
    lineCalls: t.direction === 'inverse' ? t.states.flatMap((id, k) => (id & 1 ? [k] : [])) : [],
    exit: t.exit,
    text,
    seed,
    sampler,
    sampleKey,
    targets: t.actions.map((_, k) =>
      t.states[k + 1] === undefined
        ? { seq: null, kind: t.exit! }
        : { seq: seqs[k + 1], kind: stateKind(index, t.direction, t.states[k + 1]) },
    ),
  };
}
