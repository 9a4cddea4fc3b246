/**
 * Corpora of real recorded traces for the predictions tests: the reference vectors'
 * programs (docs/semantics.md §9), chosen CRUXEval tasks, or all 800 of them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { tempDir } from '../store/fixtures.js';
import { cruxevalPath, cruxevalRecording, readTraces, readVectors, record, type Trace } from '../semantics/helpers.js';

import type { Vector } from '../semantics/helpers.js';
export type { Vector };
export const vectors = readVectors;

/** A trace file of the given traces (the recorder's records, as JSON Lines). */
export function traceFile(dir: string, traces: Trace[]): string {
  const path = join(dir, 'traces.jsonl');
  const lines: string[] = [];
  for (const t of traces) {
    lines.push(JSON.stringify(t.header));
    for (const e of t.events) lines.push(JSON.stringify({ type: 'event', ...e }));
    lines.push(JSON.stringify(t.end));
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** Writes each text given to a new numbered file in dir (g0.json, g1.json …) and returns its path. */
export function fileWriter(dir: string, name: string, ext: string): (text: string) => string {
  let n = 0;
  return (text) => {
    const p = join(dir, `${name}${n++}.${ext}`);
    writeFileSync(p, text);
    return p;
  };
}

export async function corpusOf(
  traces: Trace[],
  prefix = 'stepscope-pred-',
): Promise<{ corpus: Corpus; path: string; dir: string }> {
  const dir = tempDir(prefix);
  const path = join(dir, 'c.db');
  const corpus = openCorpus(path, { create: true });
  await corpus.ingest(traceFile(dir, traces));
  return { corpus, path, dir };
}

/** The vectors' programs, each recorded once, in the order the vectors name them (trace ids 1, 2 …). */
export function vectorTraces(): { traces: Trace[]; traceOf: (v: Vector) => number } {
  const keys: string[] = [];
  const traces: Trace[] = [];
  for (const v of vectors()) {
    const key = v.source + '\0' + v.call;
    if (keys.includes(key)) continue;
    keys.push(key);
    traces.push(record(v.source, v.call));
  }
  return { traces, traceOf: (v) => keys.indexOf(v.source + '\0' + v.call) + 1 };
}

/** The recorded CRUXEval traces of these task ids (from the cached recording of all 800). */
export function cruxevalTraces(ids?: readonly string[]): Trace[] {
  const all = readTraces(cruxevalRecording());
  return ids ? all.filter((t) => ids.includes(t.header.name)) : all;
}

export interface Task {
  id: string;
  code: string;
  input: string;
  output: string;
}

export const cruxevalTasks = (): Task[] =>
  readFileSync(cruxevalPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

export { tempDir };
