/**
 * Builds trace files for tests, written the way Python's json.dumps writes them
 * (", " and ": " separators, non-ASCII escaped), so ingest never relies on the canonical
 * form it exports.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { expect } from 'vitest';
import { CorpusError, IngestError, openCorpus } from '../../src/store/corpus.js';

export type Rec = Record<string, unknown>;

export function pyDumps(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  return `{${Object.entries(v as Rec)
    .map(([k, x]) => `${pyDumps(k)}: ${pyDumps(x)}`)
    .join(', ')}}`;
}

export interface TraceSpec {
  name?: string;
  /** Iterations of the loop: the trace has 4 + 2 * n + 2 events. */
  n?: number;
  exit?: 'normal' | 'error' | 'never';
  seconds?: number;
  /** Extra text in every repr of `acc`, to search for. */
  tag?: string;
}

/** A call-mode trace of `f(n)` summing 0..n-1, records in file order. */
export function traceRecords(spec: TraceSpec = {}): Rec[] {
  const n = spec.n ?? 3;
  const name = spec.name ?? `sum_${n}`;
  const source = 'def f(n):\n    acc = 0\n    for i in range(n):\n        acc += i\n    return acc\n';
  const wrapper = `def main():\n    return f(${n})\n`;
  const lines = (source + '\n' + wrapper).split('\n');
  const recs: Rec[] = [
    {
      type: 'trace',
      format: 'stepscope-trace',
      version: 1,
      name,
      mode: 'call',
      python: '3.11.7',
      hashseed: 0,
      filename: '<program>',
      source,
      call: `f(${n})`,
      context_forward: source + '\n' + wrapper,
      context_inverse: source,
      limits: { events: 1000000, seconds: 10.0, memory_mb: 1024, repr_chars: 10000 },
      meta: { task: 'test', expected_output: String((n * (n - 1)) / 2), note: 'é ✓' },
    },
  ];
  let seq = 0;
  const ev = (
    event: string,
    frame: number,
    func: string,
    line: number,
    locals: Rec,
    arg: string | null,
    parent: number | null,
  ) => recs.push({ type: 'event', seq: seq++, event, frame, func, line, src: lines[line - 1], locals, arg, parent });
  const tag = spec.tag ?? '';
  ev('call', 0, 'main', 7, {}, null, null);
  ev('line', 0, 'main', 8, {}, null, null);
  ev('call', 1, 'f', 1, { n: String(n) }, null, 1);
  ev('line', 1, 'f', 2, { n: String(n) }, null, 1);
  let acc = 0;
  for (let i = 0; i < n; i++) {
    ev(
      'line',
      1,
      'f',
      3,
      i === 0 ? { n: String(n), acc: `${acc}${tag}` } : { n: String(n), acc: `${acc}${tag}`, i: String(i - 1) },
      null,
      1,
    );
    ev('line', 1, 'f', 4, { n: String(n), acc: `${acc}${tag}`, i: String(i) }, null, 1);
    acc += i;
  }
  const exit = spec.exit ?? 'normal';
  if (exit === 'error') {
    ev('exception', 1, 'f', 5, { n: String(n), acc: `${acc}${tag}` }, "ValueError('boom')", 1);
    ev('return', 1, 'f', 5, { n: String(n), acc: `${acc}${tag}` }, null, 1);
  } else {
    ev('line', 1, 'f', 5, { n: String(n), acc: `${acc}${tag}` }, null, 1);
    ev('return', 1, 'f', 5, { n: String(n), acc: `${acc}${tag}` }, String(acc), 1);
  }
  const events = seq;
  recs.push({
    type: 'end',
    exit,
    reason: exit === 'error' ? "ValueError('boom')" : exit === 'never' ? 'event limit 1000000' : null,
    events,
    seconds: spec.seconds ?? 0.001,
  });
  return recs;
}

export function jsonl(recs: Rec[]): string {
  return recs.map((r) => pyDumps(r) + '\n').join('');
}

const made: string[] = [];

/** A fresh temporary folder, removed by cleanTempDirs (call it in afterAll). */
export function tempDir(prefix = 'stepscope-store-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function writeTraces(dir: string, file: string, specs: TraceSpec[]): string {
  const path = join(dir, file);
  writeFileSync(path, specs.map((s) => jsonl(traceRecords(s))).join(''));
  return path;
}

/** A fingerprint of everything stored, to prove a failed ingest changed nothing. */
/** A corpus file (in a fresh temporary folder) holding the traces given, closed again. */
export async function corpusFileOf(prefix: string, specs: TraceSpec[]): Promise<{ dir: string; db: string }> {
  const dir = tempDir(prefix);
  const db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', specs));
  c.close();
  return { dir, db };
}

export function snapshot(db: Database.Database): string {
  const h = createHash('sha256');
  for (const t of ['programs', 'traces', 'events']) {
    h.update(`${t}:`);
    for (const row of db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).raw().iterate()) h.update(JSON.stringify(row));
  }
  return h.digest('hex');
}

export function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Writes the traces of `traceFile` into the corpus at `path`, already created at schema
 * `version`: ingested into a corpus at the latest schema (ingest writes today's columns),
 * then copied over column by column, as a corpus made by that older version would hold them.
 */
export async function seedOldCorpusFrom(path: string, version: number, dir: string, traceFile: string): Promise<void> {
  const { ingestFile } = await import('../../src/store/ingest.js');
  const { openDatabase } = await import('../../src/store/open.js');
  const { MIGRATIONS } = await import('../../src/store/migrations/index.js');
  const fresh = join(dir, `fresh-${version}-${Date.now()}.db`);
  const src = openDatabase(fresh, { create: true });
  await ingestFile(src, traceFile);
  src.close();
  const old = openDatabase(path, { migrations: MIGRATIONS.filter((m) => m.version <= version) });
  old.prepare('ATTACH DATABASE ? AS src').run(fresh);
  for (const t of ['programs', 'traces', 'events']) {
    const cols = (old.prepare(`PRAGMA main.table_info(${t})`).all() as { name: string }[])
      .map((c) => c.name)
      .join(', ');
    old.exec(`INSERT INTO main.${t} (${cols}) SELECT ${cols} FROM src.${t}`);
  }
  old.exec('DETACH DATABASE src');
  old.close();
}

/** The CorpusError opening `path` with `opts` throws; fails the test when it opens. */
export function refusedOpen(path: string, opts: Parameters<typeof openCorpus>[1]): CorpusError {
  try {
    openCorpus(path, opts).close();
  } catch (e) {
    expect(e).toBeInstanceOf(CorpusError);
    return e as CorpusError;
  }
  throw new Error(`expected ${path} to be refused`);
}

/** The lines as one chunk of a stream, each ended by a newline (what `ingestStream` reads). */
export async function* oneChunk(lines: string[]): AsyncGenerator<Buffer> {
  yield Buffer.from(lines.map((l) => l + '\n').join(''));
}

/**
 * Ingests the lines into a fresh corpus as the file `file`: the IngestError's message. Fails
 * the test when the lines are stored, or when the corpus holds a trace after the refusal.
 */
export async function refusedIngest(lines: string[], file: string): Promise<string> {
  const corpus = openCorpus(join(tempDir(), 'c.db'), { create: true });
  try {
    const e = await corpus.ingestStream(oneChunk(lines), file).then(
      () => new Error(`expected ${file} to be refused`),
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(IngestError);
    expect(corpus.counts().traces).toBe(0);
    return (e as Error).message;
  } finally {
    corpus.close();
  }
}
