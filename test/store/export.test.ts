/**
 * Exporting traces (export.ts): an export ingests back as the same traces, byte for byte in
 * the recorder's layout; an unknown id is refused before anything is written; a slow reader
 * is waited for. Each test builds its own corpus.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, jsonl, tempDir, traceRecords, writeTraces, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

function fresh(): { dir: string; corpus: Corpus } {
  const dir = tempDir();
  return { dir, corpus: openCorpus(join(dir, 'c.db'), { create: true }) };
}

async function exported(corpus: Corpus, ids: number[]): Promise<string> {
  const sink = new PassThrough();
  const parts: Buffer[] = [];
  sink.on('data', (b: Buffer) => parts.push(b));
  await corpus.export(ids, sink);
  return Buffer.concat(parts).toString();
}

describe('export: the round trip', () => {
  it('round-trips: re-ingesting an export stores nothing new, a fresh corpus gets the same traces', async () => {
    const { dir, corpus } = fresh();
    await corpus.ingest(
      writeTraces(dir, 't.jsonl', [
        { name: 'a', n: 2 },
        { name: 'b', n: 30, exit: 'error', tag: ' "q" \\ é' },
      ]),
    );
    const ids = corpus.listTraces().rows.map((r) => r.id);
    const out = join(dir, 'export.jsonl');
    const sink = new PassThrough();
    const parts: Buffer[] = [];
    sink.on('data', (b: Buffer) => parts.push(b));
    expect(await corpus.export(ids, sink)).toEqual({ traces: 2, events: 10 + 66 });
    writeFileSync(out, Buffer.concat(parts));
    expect(await corpus.ingest(out)).toMatchObject({ traces: 2, inserted: 0, skipped: 2 });

    const other = openCorpus(join(dir, 'other.db'), { create: true });
    expect(await other.ingest(out)).toMatchObject({ inserted: 2 });
    for (const id of ids) {
      const a = corpus.getTrace(id)!;
      const b = other.getTrace(other.listTraces({ search: a.name }).rows[0].id)!;
      expect({ ...b, id: 0, origin: '', created: '' }).toEqual({ ...a, id: 0, origin: '', created: '' });
      expect(other.getEvents(b.id)).toEqual(corpus.getEvents(id));
    }
    // Event lines come out exactly as the recorder's layout wrote them.
    const original = readFileSync(join(dir, 't.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"type": "event"'));
    const exported = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"type": "event"'));
    expect(exported).toEqual(original);
    // The export of the copy is byte-identical: the canonical form is stable.
    const again = new PassThrough();
    const parts2: Buffer[] = [];
    again.on('data', (b: Buffer) => parts2.push(b));
    await other.export(
      other.listTraces().rows.map((r) => r.id),
      again,
    );
    expect(Buffer.concat(parts2).toString()).toBe(readFileSync(out, 'utf8'));
    other.close();
    corpus.close();
  });
});

describe('export: what is written, and when', () => {
  it('an id with no trace is refused by number, before anything is written', async () => {
    const { corpus } = fresh();
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (b: Buffer) => (written += b.toString()));
    const e = (await corpus.export([999], sink).then(
      () => undefined,
      (x: unknown) => x,
    )) as { code?: string; message?: string };
    expect([e.code, e.message]).toEqual(['not-found', 'no trace with id 999']);
    expect(written).toBe('');
    corpus.close();
  });

  it('keeps stdout_bytes in the end record, so a re-ingest into an empty corpus keeps it too', async () => {
    const { dir, corpus } = fresh();
    const recs: Rec[] = traceRecords({ name: 'a', n: 2 }).map((r) =>
      r.type === 'end' ? { ...r, stdout_bytes: 42 } : r,
    );
    const file = join(dir, 't.jsonl');
    writeFileSync(file, jsonl(recs));
    await corpus.ingest(file);
    const text = await exported(corpus, [corpus.listTraces().rows[0].id]);
    const end = text.trimEnd().split('\n').pop()!;
    expect(JSON.parse(end)).toMatchObject({ type: 'end', stdout_bytes: 42 });
    // The original file's lines, byte for byte (the fixture writes the canonical form).
    expect(text).toBe(readFileSync(file, 'utf8'));
    corpus.close();
  });

  it('waits for a slow reader instead of stopping (back-pressure)', async () => {
    const { dir, corpus } = fresh();
    const file = join(dir, 't.jsonl');
    writeFileSync(file, jsonl(traceRecords({ name: 'a', n: 20 })));
    await corpus.ingest(file);
    const parts: string[] = [];
    // A tiny buffer and an asynchronous write: every write() asks the exporter to wait for 'drain'.
    const slow = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, done) {
        parts.push(chunk.toString());
        setImmediate(done);
      },
    });
    expect(await corpus.export([corpus.listTraces().rows[0].id], slow)).toEqual({ traces: 1, events: 46 });
    expect(parts.join('')).toBe(readFileSync(file, 'utf8'));
    corpus.close();
  });
});
