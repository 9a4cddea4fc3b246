/**
 * A corpus for the export tests, and an independent reader of what an export wrote:
 * DuckDB (its own JSON and Parquet readers, column types from DESCRIBE) and hyparquet.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus } from '../../src/store/corpus.js';
import { sampleCorpus } from '../../src/trajectories/sample-corpus.js';
import { corpusOf, cruxevalTraces, vectorTraces } from '../predictions/helpers.js';

export const CRUX_IDS = Array.from({ length: 24 }, (_, k) => `sample_${k}`);

/**
 * The vectors' programs and 24 CRUXEval tasks; two sampled trajectories per trace; a
 * next-state set `ns` with a run `half` whose odd items are answered wrongly; the
 * benchmark set `crux-out` over the CRUXEval traces.
 */
export async function exportCorpus(): Promise<{ corpus: Corpus; path: string; dir: string }> {
  const c = await corpusOf([...vectorTraces().traces, ...cruxevalTraces(CRUX_IDS)], 'stepscope-export-');
  sampleCorpus(c.corpus, { seed: 1, perTrace: 2, direction: 'both', entry: 'random', maxSteps: 12 });
  createEvalSet(c.corpus, { name: 'ns', task: 'next-state', perAction: 4, seed: 2 });
  createEvalSet(c.corpus, { name: 'crux-out', task: 'cruxeval-output' });
  const set = c.corpus.getEvalSet('ns')!;
  const answers = [...c.corpus.iterateItems(set.id)].map((it, k) =>
    JSON.stringify({ id: it.id, completion: k % 2 ? it.target.replace(/"/, '"x') + 'junk' : it.target }),
  );
  const file = join(c.dir, 'answers.jsonl');
  writeFileSync(file, answers.join('\n') + '\n');
  importPredictions(c.corpus, { file, set: 'ns', label: 'half' });
  return c;
}

export type Cell = string | number | string[] | null;
export type ReadRow = Record<string, Cell>;

/** The data files of an export, by split (from the folder itself, not the manifest). */
export function dataFiles(dir: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of readdirSync(join(dir, 'data')).sort()) {
    const split = f.replace(/-\d{5}-of-\d{5}\.\w+$/, '');
    (out[split] ??= []).push(join(dir, 'data', f));
  }
  return out;
}

/** Every row of some files read by DuckDB, in file order, and the column types DuckDB sees. */
export async function duckRead(
  files: string[],
  format: 'jsonl' | 'parquet',
): Promise<{ rows: ReadRow[]; types: Record<string, string> }> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const list = `[${files.map((f) => `'${f}'`).join(', ')}]`;
  const from = format === 'parquet' ? `read_parquet(${list})` : `read_json(${list}, format = 'newline_delimited')`;
  const types = Object.fromEntries(
    (
      (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowObjectsJson() as {
        column_name: string;
        column_type: string;
      }[]
    ).map((r) => [r.column_name, r.column_type]),
  );
  const rows = (await c.runAndReadAll(`SELECT * FROM ${from}`)).getRowObjectsJson() as ReadRow[];
  c.closeSync();
  // getRowObjectsJson gives integers as numbers when they fit; keep them numbers.
  return {
    rows: rows.map(
      (r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && types[k] === 'INTEGER' ? Number(v) : v]),
        ) as ReadRow,
    ),
    types,
  };
}

/** Every row of a Parquet file read by hyparquet. */
export async function hyparquetRead(file: string): Promise<ReadRow[]> {
  const buf = readFileSync(file);
  return (await parquetReadObjects({
    file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer,
  })) as ReadRow[];
}

export const jsonlRead = (files: string[]): ReadRow[] =>
  files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ReadRow),
  );
