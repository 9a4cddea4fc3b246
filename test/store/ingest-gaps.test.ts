/**
 * Ingest: the cases the mutation run of src/store found untested. Each test builds its own corpus and files.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { IngestError, openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, jsonl, pyDumps, snapshot, tempDir, traceRecords, writeTraces, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

function fresh(): { dir: string; corpus: Corpus } {
  const dir = tempDir();
  return { dir, corpus: openCorpus(join(dir, 'c.db'), { create: true }) };
}

async function refusal(p: Promise<unknown>): Promise<IngestError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(IngestError);
  return e as IngestError;
}

/** Ingests `text` after a seed trace; expects a refusal that changed nothing. */
async function refusedText(text: string): Promise<IngestError> {
  const { dir, corpus } = fresh();
  await corpus.ingest(writeTraces(dir, 'seed.jsonl', [{ name: 'seed', n: 1 }]));
  const before = snapshot(connectionOf(corpus));
  const file = join(dir, 'bad.jsonl');
  writeFileSync(file, text);
  const e = await refusal(corpus.ingest(file));
  expect(snapshot(connectionOf(corpus))).toBe(before);
  corpus.close();
  return e;
}

const withEnd = (recs: Rec[], extra: Rec): Rec[] => recs.map((r) => (r.type === 'end' ? { ...r, ...extra } : r));

describe('ingest: refusals name the file, the line and the problem', () => {
  it('an input that is a folder', async () => {
    const { dir, corpus } = fresh();
    const e = await refusal(corpus.ingest(dir));
    expect(e.message).toBe(`${dir}: is a folder, expected a trace file (.jsonl)`);
    expect(e.code).toBe('bad-input');
    corpus.close();
  });

  // Root may read anything: run as another user to see this one (e.g. `runuser -u nobody`).
  it.skipIf(process.getuid?.() === 0)('an input that may not be read', async () => {
    const { dir, corpus } = fresh();
    const file = writeTraces(dir, 'secret.jsonl', [{ name: 'a', n: 1 }]);
    chmodSync(file, 0o000);
    const e = await refusal(corpus.ingest(file));
    expect(e.message).toBe(`${file}: permission denied`);
    expect(corpus.counts()).toMatchObject({ traces: 0 });
    corpus.close();
  });

  it('a bad record is a bad-input error', async () => {
    const e = await refusedText('{"type": "event"}\n');
    expect(e.code).toBe('bad-input');
    expect([e.line, e.detail]).toEqual([1, 'expected a "trace" header record, got an "event" record']);
  });

  it('an "end" record before any header', async () => {
    const recs = traceRecords({ name: 'a', n: 1 });
    const e = await refusedText(jsonl([recs[recs.length - 1], ...recs]));
    expect(e.message).toMatch(/bad\.jsonl:1: expected a "trace" header record, got an "end" record$/);
  });

  it('a record of an unknown type, or without a type, is refused, not skipped', async () => {
    const recs = traceRecords({ name: 'a', n: 1 });
    const note = await refusedText(jsonl([recs[0], { type: 'note', text: 'hi' }, ...recs.slice(1)]));
    expect(note.message).toMatch(/bad\.jsonl:2: expected "type": "trace", "event" or "end", got "note"$/);
    const none = await refusedText(jsonl([recs[0], { text: 'hi' }, ...recs.slice(1)]));
    expect(none.message).toMatch(/bad\.jsonl:2: expected "type": "trace", "event" or "end", got nothing$/);
  });
});

describe('ingest: what is stored', () => {
  it('a trace longer than the write buffer keeps its stdout_bytes', async () => {
    const { dir, corpus } = fresh();
    const file = join(dir, 't.jsonl');
    writeFileSync(file, jsonl(withEnd(traceRecords({ name: 'long', n: 3 }), { stdout_bytes: 123 })));
    expect(await corpus.ingest(file, { bufferEvents: 1 })).toMatchObject({ inserted: 1 });
    expect(corpus.getTrace(corpus.listTraces().rows[0].id)?.stdout_bytes).toBe(123);
    corpus.close();
  });

  it('the stored hash of a long trace is sha256 of its canonical header, events and end without seconds', async () => {
    const { dir, corpus } = fresh();
    // About 200 kB of canonical text: the running hash is fed in several pieces.
    const recs = traceRecords({ name: 'long', n: 300, tag: 'x'.repeat(300) });
    const file = join(dir, 't.jsonl');
    writeFileSync(file, jsonl(recs)); // the fixture writes the canonical (recorder's) form
    await corpus.ingest(file);
    const { seconds: _s, ...end } = recs[recs.length - 1];
    const text = recs.slice(0, -1).map((r) => pyDumps(r) + '\n').join('') + pyDumps(end) + '\n';
    expect(text.length).toBeGreaterThan(3 * 65536);
    const stored = connectionOf(corpus).prepare('SELECT hash FROM traces').pluck().all();
    expect(stored).toEqual([createHash('sha256').update(text).digest('hex')]);
    corpus.close();
  });

  it('reports progress as the bytes read so far, ending at the file size', async () => {
    const { dir, corpus } = fresh();
    const file = writeTraces(dir, 't.jsonl', [{ name: 'a', n: 5 }]);
    const seen: number[] = [];
    await corpus.ingest(file, { onProgress: (b) => seen.push(b) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((b, i) => b > (seen[i - 1] ?? 0))).toBe(true);
    expect(seen[seen.length - 1]).toBe(statSync(file).size);
    corpus.close();
  });
});

describe('ingest: a full disk', () => {
  it('is reported as an I/O error naming the corpus, which is left as it was and still usable', async () => {
    const { dir, corpus } = fresh();
    await corpus.ingest(writeTraces(dir, 'seed.jsonl', [{ name: 'seed', n: 1 }]));
    const db = connectionOf(corpus);
    const before = snapshot(db);
    // The corpus may not grow past two more pages: SQLite answers SQLITE_FULL, as on a full disk.
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
    const big = writeTraces(dir, 'big.jsonl', [{ name: 'big', n: 200, tag: 'x'.repeat(300) }]);
    const e = (await corpus.ingest(big).then(
      () => undefined,
      (x: unknown) => x,
    )) as { kind?: string; code?: string; message?: string };
    expect([e.kind, e.code, e.message]).toEqual(['io', 'unavailable', `${join(dir, 'c.db')}: database or disk is full`]);
    expect(db.inTransaction).toBe(false);
    expect(snapshot(db)).toBe(before);
    db.pragma('max_page_count = 1073741823');
    expect(await corpus.ingest(big)).toMatchObject({ inserted: 1 });
    corpus.close();
  });
});

describe('ingest: transactions', () => {
  it('refused for another writer\'s lock, stores nothing even if the lock is gone before the file is read', async () => {
    const { dir, corpus } = fresh();
    const path = join(dir, 'c.db');
    const file = writeTraces(dir, 'a.jsonl', [{ name: 'a', n: 1 }]);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const c = openCorpus(path, { busyTimeoutMs: 20 });
    const pending = c.ingest(file).then(
      () => undefined,
      (x: unknown) => x,
    );
    // The file is read asynchronously: the other writer finishes meanwhile.
    other.exec('ROLLBACK');
    other.close();
    const e = (await pending) as { kind?: string; message?: string };
    expect([e.kind, e.message]).toEqual(['locked', `${path} is locked: another program is writing to it. Try again when it has finished.`]);
    expect(c.counts()).toMatchObject({ traces: 0 });
    c.close();
    corpus.close();
  });

  it('an error after which SQLite has already rolled the transaction back is reported as is', async () => {
    const { dir, corpus } = fresh();
    const db = connectionOf(corpus);
    // A stand-in for the errors SQLite answers by rolling back the whole transaction itself
    // (a full disk or an I/O error may): a temporary trigger, not part of the corpus file.
    db.exec("CREATE TEMP TRIGGER refuse BEFORE INSERT ON traces BEGIN SELECT RAISE(ROLLBACK, 'refused by the test trigger'); END");
    const e = (await corpus.ingest(writeTraces(dir, 'a.jsonl', [{ name: 'a', n: 1 }])).then(
      () => undefined,
      (x: unknown) => x,
    )) as Error;
    expect(e.message).toBe('refused by the test trigger');
    expect(db.inTransaction).toBe(false);
    db.exec('DROP TRIGGER refuse');
    expect(await corpus.ingest(join(dir, 'a.jsonl'))).toMatchObject({ inserted: 1 });
    corpus.close();
  });
});
