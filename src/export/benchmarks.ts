/**
 * Which programs belong to a benchmark, by the sha256 of their source (the export's
 * `program`), so the same function recorded again, under another input or from another file,
 * is the same benchmark program (docs/export.md, "The leakage guard"). Three sources:
 * - traces recorded from a benchmark (their `meta`: `record-cruxeval` writes `task: cruxeval`;
 *   any recorder may write `benchmark: NAME`),
 * - CRUXEval evaluation sets (their items' programs),
 * - programs a person marked (`stepscope benchmark add`, stored by hash).
 */
import { createHash } from 'node:crypto';
import type { ReadCorpus } from '../store/corpus.js';

/** A program's identity for the export: sha256 (hex) of its source text. */
export const sourceHash = (source: string) => createHash('sha256').update(source).digest('hex');

export type BenchmarkOrigin = 'traces' | 'evalset' | 'marked';

/** Where each origin is described to a person (the CLI, the card, the app). */
export const ORIGIN_WORDS: Record<BenchmarkOrigin, string> = {
  traces: 'recorded from it',
  evalset: 'evaluation set',
  marked: 'marked',
};

export interface BenchmarkInfo {
  name: string;
  from: BenchmarkOrigin;
  /** Distinct programs (source hashes) it holds in the corpus. */
  programs: number;
}

export interface KnownBenchmarks {
  /** Every benchmark the corpus knows, by origin (traces, evalset, marked) then name. */
  benchmarks: BenchmarkInfo[];
  /** Per benchmark program's source hash: the indexes (into `benchmarks`) of its benchmarks. */
  byHash: Map<string, number[]>;
  /** The source hash of each program id `wanted` asked for, and of every benchmark program. */
  hashOf: Map<number, string>;
}

const ORDER: BenchmarkOrigin[] = ['traces', 'evalset', 'marked'];

/** The benchmark programs of the corpus; `wanted(id)` asks for the hashes of other programs too. */
export function knownBenchmarks(corpus: ReadCorpus, wanted: (id: number) => boolean = () => false): KnownBenchmarks {
  const byId = new Map<number, string[]>(); // program id -> "origin\0name"
  const add = (id: number, key: string) => {
    const l = byId.get(id);
    if (!l) byId.set(id, [key]);
    else if (!l.includes(key)) l.push(key);
  };
  for (const r of corpus.tracedBenchmarkPrograms()) add(r.program_id, `traces\0${r.benchmark}`);
  for (const r of corpus.evalsetBenchmarkPrograms()) add(r.program_id, `evalset\0${r.benchmark}`);
  const hashOf = new Map<number, string>();
  const members = new Map<string, Set<string>>(); // "origin\0name" -> hashes
  const join = (key: string, hash: string) => {
    let s = members.get(key);
    if (!s) members.set(key, (s = new Set()));
    s.add(hash);
  };
  for (const { id, source } of corpus.iterateProgramSources()) {
    const keys = byId.get(id);
    if (!keys && !wanted(id)) continue;
    const hash = sourceHash(source);
    hashOf.set(id, hash);
    for (const k of keys ?? []) join(k, hash);
  }
  for (const m of corpus.markedPrograms()) join(`marked\0${m.benchmark}`, m.program);
  const keys = [...members.keys()].sort((a, b) => {
    const [oa, na] = a.split('\0');
    const [ob, nb] = b.split('\0');
    const o = ORDER.indexOf(oa as BenchmarkOrigin) - ORDER.indexOf(ob as BenchmarkOrigin);
    return o || (na < nb ? -1 : na > nb ? 1 : 0);
  });
  const benchmarks: BenchmarkInfo[] = [];
  const byHash = new Map<string, number[]>();
  keys.forEach((key, k) => {
    const [from, name] = key.split('\0') as [BenchmarkOrigin, string];
    const hashes = members.get(key)!;
    benchmarks.push({ name, from, programs: hashes.size });
    for (const h of hashes) {
      const l = byHash.get(h);
      if (l) l.push(k);
      else byHash.set(h, [k]);
    }
  });
  return { benchmarks, byHash, hashOf };
}

/** `cruxeval (recorded from it), crux-out (evaluation set)`. */
export const describeBenchmarks = (list: { name: string; from: BenchmarkOrigin }[]) =>
  list.map((b) => `${b.name} (${ORIGIN_WORDS[b.from]})`).join(', ');
