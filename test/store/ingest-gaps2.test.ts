/**
 * Ingest: the cases behind the mutants that timed out in the busy mutation run of src/store
 * and survived the quiet one: standard
 * input, the read stream closed after a refusal, the write buffer (memory bounded by
 * `bufferEvents` rows), the running hash fed in bounded pieces, and a byte-order mark after
 * the first line. Each test builds its own corpus and input, with small inputs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CorpusError, IngestError } from '../../src/store/errors.js';
import { ingestFile, ingestStream } from '../../src/store/ingest.js';
import { openDatabase } from '../../src/store/open.js';
import { cleanTempDirs, jsonl, pyDumps, snapshot, tempDir, traceRecords, writeTraces, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

function fresh(opts: { busyTimeoutMs?: number } = {}): { dir: string; path: string; db: Database.Database } {
  const dir = tempDir();
  const path = join(dir, 'c.db');
  return { dir, path, db: openDatabase(path, { create: true, ...opts }) };
}

function readlinkOr(p: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return ''; // closed meanwhile
  }
}

const count = (db: Database.Database, table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
}

describe('ingest: standard input', () => {
  it("'-' reads the traces from standard input", async () => {
    const { db } = fresh();
    const text = jsonl(traceRecords({ name: 'piped', n: 2 }));
    const real = Object.getOwnPropertyDescriptor(process, 'stdin')!;
    Object.defineProperty(process, 'stdin', { value: Readable.from([Buffer.from(text)]), configurable: true });
    try {
      expect(await ingestFile(db, '-')).toEqual({ file: '-', traces: 1, inserted: 1, skipped: 0, events: 10 });
    } finally {
      Object.defineProperty(process, 'stdin', real);
    }
    expect(db.prepare('SELECT name, origin FROM traces').get()).toEqual({ name: 'piped', origin: '-' });
    db.close();
  });
});

describe('ingest: the input file is closed', () => {
  // Linux: the open descriptors are listed in /proc/self/fd.
  it.skipIf(!existsSync('/proc/self/fd'))('when the corpus is locked by another writer and the file was never read', async () => {
    const { dir, path, db } = fresh({ busyTimeoutMs: 0 });
    const file = writeTraces(dir, 't.jsonl', [{ name: 'a', n: 1 }]);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const openOnFile = () => readdirSync('/proc/self/fd').filter((fd) => readlinkOr(`/proc/self/fd/${fd}`) === file).length;
    for (let i = 0; i < 20; i++) {
      const e = await rejection(ingestFile(db, file));
      expect(e).toBeInstanceOf(CorpusError);
      expect((e as CorpusError).kind).toBe('locked');
    }
    // The read streams open the file asynchronously, in Node's thread pool: reads queued
    // after them finish once those opens have run. Then each stream closes its descriptor
    // (with the bug, 20 stayed open for good).
    await Promise.all(Array.from({ length: 8 }, () => readFile(file)));
    for (let i = 0; i < 200 && openOnFile() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openOnFile()).toBe(0);
    other.exec('ROLLBACK');
    other.close();
    db.close();
  });
});

/**
 * Feeds `lines` to ingestStream in the chunks given (each a count of lines) and records, after
 * each chunk was read, how many event lines were read and how many event and trace rows the
 * ingesting connection sees (its own transaction: what was written, not yet committed).
 */
async function watch(db: Database.Database, lines: string[], chunks: number[], opts: { bufferEvents?: number } = {}) {
  const seen: { read: number; events: number; traces: number }[] = [];
  let at = 0;
  let read = 0;
  async function* gen() {
    for (const n of chunks) {
      const part = lines.slice(at, at + n);
      at += n;
      read += part.filter((l) => l.startsWith('{"type": "event"')).length;
      yield Buffer.from(part.map((l) => l + '\n').join(''));
      seen.push({ read, events: count(db, 'events'), traces: count(db, 'traces') });
    }
  }
  const result = await ingestStream(db, gen(), 'mem.jsonl', opts);
  return { seen, result };
}

const linesOf = (recs: Rec[]) => recs.map(pyDumps);

describe('ingest: the write buffer (memory is bounded by bufferEvents rows)', () => {
  it('with bufferEvents 8: nothing is written before the 8th event, the 8 are written when it is read', async () => {
    const { db } = fresh();
    const lines = linesOf(traceRecords({ name: 'a', n: 10 })); // 26 events
    const { seen, result } = await watch(db, lines, lines.map(() => 1), { bufferEvents: 8 });
    expect(result).toMatchObject({ inserted: 1, events: 26 });
    // seen[k]: after line k + 1; line 1 is the header, line k + 1 the k-th event.
    expect(seen.slice(0, 8).map((s) => [s.read, s.events, s.traces])).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((r) => [r, 0, 0]));
    expect(seen[8]).toEqual({ read: 8, events: 8, traces: 1 });
    expect(count(db, 'events')).toBe(26);
    db.close();
  });

  it('a duplicate that ends within the buffer writes no row at all', async () => {
    const { db } = fresh();
    const lines = linesOf(traceRecords({ name: 'a', n: 2 })); // 10 events
    await watch(db, lines, [lines.length], { bufferEvents: 16 });
    const before = snapshot(db);
    const { seen, result } = await watch(db, lines, lines.map(() => 1), { bufferEvents: 16 });
    expect(result).toMatchObject({ inserted: 0, skipped: 1 });
    expect(seen.every((s) => s.events === 10 && s.traces === 1)).toBe(true);
    expect(snapshot(db)).toBe(before);
    db.close();
  });

  it('by default 4096 events are held back, and written when the 4096th is read', async () => {
    const { db } = fresh();
    const lines = linesOf(traceRecords({ name: 'long', n: 2047 })); // 4100 events
    // The header and 4095 events, then the 4096th, then the other 4, then the end record.
    const { seen } = await watch(db, lines, [4096, 1, 4, 1]);
    expect(seen.map((s) => [s.read, s.events])).toEqual([
      [4095, 0],
      [4096, 4096],
      [4100, 4096],
      [4100, 4100],
    ]);
    expect(count(db, 'events')).toBe(4100);
    db.close();
  });
});

describe('ingest: the running hash is fed in bounded pieces, not the whole trace at the end', () => {
  it('no piece holds more than 64 KiB and one line, even after a line longer than 64 KiB', async () => {
    const { dir, db } = fresh();
    const recs = traceRecords({ name: 'long', n: 100, tag: 'x'.repeat(1000) });
    // The fourth event gets a 70 kB local: one line longer than the 64 KiB piece.
    const big = recs.findIndex((r) => r.type === 'event' && r.seq === 3);
    recs[big] = { ...recs[big], locals: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`v${i}`, 'y'.repeat(7000)])) };
    const lines = linesOf(recs);
    const longest = Math.max(...lines.map((l) => l.length));
    expect(longest).toBeGreaterThan(65536);
    const file = join(dir, 't.jsonl');
    writeFileSync(file, lines.map((l) => l + '\n').join(''));
    const update = vi.spyOn(Object.getPrototypeOf(createHash('sha256')), 'update');
    let pieces: number[];
    try {
      expect(await ingestFile(db, file)).toMatchObject({ inserted: 1 });
      pieces = update.mock.calls.map((c) => String(c[0]).length);
    } finally {
      update.mockRestore();
    }
    const total = lines.reduce((n, l) => n + l.length + 1, 0);
    expect(total).toBeGreaterThan(4 * 65536);
    expect(pieces.length).toBeGreaterThan(3);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(65536 + longest + 1);
    db.close();
  });
});

describe('ingest: a byte-order mark', () => {
  it('after the first line is not skipped: the line is refused as invalid JSON and nothing is stored', async () => {
    const { dir, db } = fresh();
    const lines = linesOf(traceRecords({ name: 'a', n: 1 }));
    lines[2] = '\ufeff' + lines[2];
    const file = join(dir, 'bom.jsonl');
    writeFileSync(file, lines.map((l) => l + '\n').join(''));
    const e = await rejection(ingestFile(db, file));
    expect(e).toBeInstanceOf(IngestError);
    expect([(e as IngestError).line, (e as IngestError).detail]).toEqual([3, expect.stringMatching(/^expected a JSON object, got invalid JSON/)]);
    expect(count(db, 'traces')).toBe(0);
    db.close();
  });
});
