/**
 * Ingesting traces (ingest.ts): what is stored and how often, the refusals (each names the
 * file, the line and what was expected, and leaves the corpus as it was), a full disk and
 * another writer's lock, standard input, the input file closed after a refusal, memory bounded
 * by the write buffer, the running hash fed in bounded pieces, and tampered traces. Each test
 * builds its own corpus and input.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { CorpusError, IngestError, openCorpus, type Corpus } from '../../src/store/corpus.js';
import { ingestFile, ingestStream } from '../../src/store/ingest.js';
import { openDatabase } from '../../src/store/open.js';
import { cleanTempDirs, jsonl, pyDumps, snapshot, tempDir, traceRecords, writeTraces, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

function fresh(): { dir: string; corpus: Corpus } {
  const dir = tempDir();
  return { dir, corpus: openCorpus(join(dir, 'c.db'), { create: true }) };
}

function eventsOf(recs: Rec[]) {
  return recs.filter((r) => r.type === 'event').map(({ type: _t, ...e }) => e);
}

async function* chunked(buf: Buffer, size: number) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
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

/** A fresh corpus opened as a bare database, for ingestFile and ingestStream themselves. */
function freshDb(opts: { busyTimeoutMs?: number } = {}): { dir: string; path: string; db: Database.Database } {
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

const count = (db: Database.Database, table: string) =>
  db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
}

describe('ingest: happy path', () => {
  it('stores every trace with its header, events and end, as written', async () => {
    const { dir, corpus } = fresh();
    const specs = [
      { name: 'a', n: 2 },
      { name: 'b', n: 5, exit: 'error' as const },
      { name: 'c', n: 0, exit: 'never' as const },
    ];
    const file = writeTraces(dir, 'three.jsonl', specs);
    const res = await corpus.ingest(file);
    const expectedEvents = specs.reduce((s, x) => s + eventsOf(traceRecords(x)).length, 0);
    expect(res).toEqual({ file, traces: 3, inserted: 3, skipped: 0, events: expectedEvents });
    expect(corpus.counts()).toEqual({ programs: 3, traces: 3, events: expectedEvents });

    const { rows } = corpus.listTraces({ sort: 'name' });
    expect(rows.map((r) => [r.name, r.exit, r.events])).toEqual([
      ['a', 'normal', 10],
      ['b', 'error', 16],
      ['c', 'never', 6],
    ]);
    const b = corpus.getTrace(rows[1].id)!;
    const [header, ...rest] = traceRecords(specs[1]);
    const end = rest[rest.length - 1];
    const { type: _h, format: _f, version: _v, ...headerFields } = header;
    const { type: _e, ...endFields } = end;
    expect(b).toMatchObject({ ...headerFields, ...endFields, id: rows[1].id, origin: file });
    expect(corpus.getEvents(b.id)).toEqual(eventsOf(traceRecords(specs[1])));
    corpus.close();
  });

  it('accepts CRLF line ends and a leading byte-order mark, storing the same trace', async () => {
    const { dir, corpus } = fresh();
    const text = jsonl(traceRecords({ name: 'crlf', n: 2 }));
    writeFileSync(join(dir, 'lf.jsonl'), text);
    writeFileSync(join(dir, 'crlf.jsonl'), '\ufeff' + text.replace(/\n/g, '\r\n'));
    expect(await corpus.ingest(join(dir, 'crlf.jsonl'))).toMatchObject({ inserted: 1 });
    expect(await corpus.ingest(join(dir, 'lf.jsonl'))).toMatchObject({ inserted: 0, skipped: 1 });
    expect(corpus.getEvents(corpus.listTraces().rows[0].id)).toEqual(eventsOf(traceRecords({ name: 'crlf', n: 2 })));
    corpus.close();
  });

  it('accepts a last line without a newline, and any split of the bytes into chunks', async () => {
    const { corpus } = fresh();
    const text = jsonl(traceRecords({ n: 3, tag: ' ünïcødé ✓ 😀' })).trimEnd();
    const bytes = Buffer.from(text.replace(/\\u([0-9a-f]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16))));
    for (const size of [1, 7, 64, 1 << 20]) {
      const res = await corpus.ingestStream(chunked(bytes, size), `chunks-${size}`);
      expect(res.traces).toBe(1);
    }
    const [t] = corpus.listTraces().rows;
    expect(corpus.getEvents(t.id).at(-1)!.locals.acc).toBe('3 ünïcødé ✓ 😀');
    expect(corpus.counts().traces).toBe(1);
    corpus.close();
  });
});

describe('ingest: idempotency', () => {
  it('stores the same trace once, even when re-recorded with another wall time', async () => {
    const { dir, corpus } = fresh();
    const file = writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 2 },
      { name: 'b', n: 3 },
    ]);
    expect(await corpus.ingest(file)).toMatchObject({ inserted: 2, skipped: 0 });
    const before = snapshot(connectionOf(corpus));
    expect(await corpus.ingest(file)).toMatchObject({ traces: 2, inserted: 0, skipped: 2 });
    const rerun = writeTraces(dir, 'rerun.jsonl', [
      { name: 'a', n: 2, seconds: 7.5 },
      { name: 'a', n: 4 },
    ]);
    expect(await corpus.ingest(rerun)).toMatchObject({ traces: 2, inserted: 1, skipped: 1 });
    expect(corpus.counts().traces).toBe(3);
    expect(snapshot(connectionOf(corpus))).not.toBe(before);
    corpus.close();
  });

  it('recognises the same trace written in another JSON layout (compact, unescaped, keys reordered)', async () => {
    const { dir, corpus } = fresh();
    const recs = traceRecords({ name: 'layout', n: 4, tag: ' é "q"\t \\ \u0001 \u007f 😀 </>' });
    const file = join(dir, 'py.jsonl');
    writeFileSync(file, jsonl(recs));
    expect(await corpus.ingest(file)).toMatchObject({ inserted: 1 });
    const before = snapshot(connectionOf(corpus));
    const reordered = recs.map((r) => Object.fromEntries(Object.entries(r).reverse()));
    const compact = join(dir, 'compact.jsonl');
    writeFileSync(compact, reordered.map((r) => JSON.stringify(r) + '\n').join(''));
    expect(await corpus.ingest(compact)).toMatchObject({ traces: 1, inserted: 0, skipped: 1 });
    expect(snapshot(connectionOf(corpus))).toBe(before);
    // Stored the same either way: a fresh corpus fed the compact file holds equal rows.
    const other = openCorpus(join(dir, 'o.db'), { create: true });
    await other.ingest(compact);
    const rows = (c: Corpus) =>
      connectionOf(c)
        .prepare('SELECT seq, event, frame, func, line, src, locals, arg, parent, cut FROM events ORDER BY seq')
        .all();
    expect(rows(other)).toEqual(rows(corpus));
    other.close();
    corpus.close();
  });

  it('skips a duplicate longer than the write buffer without leaving rows behind', async () => {
    const { dir, corpus } = fresh();
    const file = writeTraces(dir, 'long.jsonl', [
      { name: 'long', n: 200 },
      { name: 'long', n: 200 },
    ]);
    expect(await corpus.ingest(file, { bufferEvents: 16 })).toMatchObject({ traces: 2, inserted: 1, skipped: 1 });
    const before = snapshot(connectionOf(corpus));
    expect(await corpus.ingest(file, { bufferEvents: 16 })).toMatchObject({ inserted: 0, skipped: 2 });
    expect(snapshot(connectionOf(corpus))).toBe(before);
    expect(corpus.counts()).toEqual({ programs: 1, traces: 1, events: 406 });
    corpus.close();
  });
});

describe('ingest: bad input is reported with file and line, and changes nothing', () => {
  const good = () => traceRecords({ name: 'good', n: 3 });
  const cases: Array<{
    what: string;
    text: () => string | Buffer;
    line: number;
    message: string;
    maxLineBytes?: number;
  }> = [
    {
      what: 'a gap in seq',
      text: () => jsonl(good().filter((r) => r.seq !== 5 && r.seq !== 6)),
      line: 7,
      message: 'expected "seq": 5, got 7',
    },
    {
      what: 'invalid UTF-8',
      text: () => {
        const lines = jsonl(good()).split('\n');
        return Buffer.concat([
          Buffer.from(lines.slice(0, 3).join('\n') + '\n'),
          Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
          Buffer.from(lines.slice(4).join('\n')),
        ]);
      },
      line: 4,
      message: 'invalid UTF-8: expected the file to be UTF-8 text',
    },
    {
      what: 'a truncated last line',
      text: () => jsonl(good()).slice(0, -25),
      line: 14,
      message: 'the last line is cut off (no newline at the end and not complete JSON): the file looks truncated',
    },
    {
      what: 'an unknown format version',
      text: () => jsonl([{ ...good()[0], version: 2 }, ...good().slice(1)]),
      line: 1,
      message: 'unknown version 2: expected "version": 1 (this Stepscope reads trace format version 1)',
    },
    {
      what: 'a missing end record',
      text: () => jsonl(good().slice(0, -1)),
      line: 13,
      message:
        'expected an "end" record after this line: the trace "good" from line {start} has no "end" (the file looks truncated)',
    },
    {
      what: 'a next trace before the end',
      text: () => jsonl([...good().slice(0, -1), ...good()]),
      line: 14,
      message:
        'expected an "event" or "end" record, got a "trace" header: the trace "good" from line {start} has no "end" record',
    },
    {
      what: 'an unknown event kind',
      text: () => jsonl(good().map((r) => (r.seq === 2 ? { ...r, event: 'jump' } : r))),
      line: 4,
      message: 'expected "event": "call", "line", "return" or "exception", got "jump"',
    },
    {
      what: 'a misspelt field',
      text: () => jsonl(good().map((r) => (r.seq === 3 ? { ...r, local: {} } : r))),
      line: 5,
      message: 'unexpected field "local" in an event record',
    },
    {
      what: 'a locals value that is not a repr string',
      text: () => jsonl(good().map((r) => (r.seq === 3 ? { ...r, locals: { n: 3 } } : r))),
      line: 5,
      message: 'expected "locals" to map names to repr strings, got "n": 3',
    },
    {
      what: 'an event whose parent is itself (recorder layout: the fast path hands it to the full check)',
      text: () => jsonl(good().map((r) => (r.seq === 2 ? { ...r, parent: 2 } : r))),
      line: 4,
      message: 'expected "parent" to be null or the seq of an earlier event (0 to 1), got 2',
    },
    {
      what: 'an event whose parent is a later event',
      text: () => jsonl(good().map((r) => (r.seq === 2 ? { ...r, parent: 3 } : r))),
      line: 4,
      message: 'expected "parent" to be null or the seq of an earlier event (0 to 1), got 3',
    },
    {
      what: 'a wrong event count in end',
      text: () => jsonl(good().map((r) => (r.type === 'end' ? { ...r, events: 99 } : r))),
      line: 14,
      message: 'expected "events": 12 (the number of event records in this trace), got 99',
    },
    {
      what: 'an event before any header',
      text: () => jsonl(good().slice(1)),
      line: 1,
      message: 'expected a "trace" header record, got an "event" record',
    },
    {
      what: 'not JSON',
      text: () => jsonl(good()).replace('"type": "event", "seq": 1,', '"type": event, "seq": 1,'),
      line: 3,
      message: 'expected a JSON object, got invalid JSON',
    },
    {
      what: 'an empty file',
      text: () => '',
      line: 1,
      message: 'expected a "trace" header record, got an empty file',
    },
    {
      what: 'a blank line',
      text: () => jsonl(good()).replace('\n', '\n\n'),
      line: 2,
      message: 'expected a JSON record, got an empty line',
    },
    {
      what: 'a local named twice (recorder layout, so the fast path sees it first)',
      text: () =>
        jsonl(good()).replace(
          '"locals": {"n": "3", "acc": "0", "i": "0"}',
          '"locals": {"n": "3", "acc": "0", "n": "4"}',
        ),
      line: 7,
      message: 'duplicate key "n" in "locals": expected each key once',
    },
    {
      what: 'a local named twice, once through an escape',
      text: () =>
        jsonl(good()).replace(
          '"locals": {"n": "3", "acc": "0", "i": "0"}',
          '"locals": {"n": "3", "acc": "0", "\\u006e": "4"}',
        ),
      line: 7,
      message: 'duplicate key "n" in "locals": expected each key once',
    },
    {
      what: 'a record field given twice',
      text: () => jsonl(good()).replace('{"type": "event", "seq": 2,', '{"type": "event", "seq": 2, "seq": 2,'),
      line: 4,
      message: 'duplicate key "seq" in the record: expected each key once',
    },
    {
      what: 'a meta key given twice in the header',
      text: () => jsonl(good()).replace('"meta": {"task": "test",', '"meta": {"task": "test", "task": "other",'),
      line: 1,
      message: 'duplicate key "task" in "meta": expected each key once',
    },
    {
      what: 'JSON nested 2,500 deep in the header meta',
      text: () => jsonl(good()).replace('"meta": {', `"meta": {"deep": ${'['.repeat(2500)}${']'.repeat(2500)}, `),
      line: 1,
      message: 'JSON nested deeper than 100 levels: expected at most 100',
    },
    {
      what: 'JSON nested 100,000 deep in an event',
      text: () =>
        jsonl(good()).replace(
          '"arg": null, "parent": 1}',
          `"arg": ${'{"a": '.repeat(100000)}null${'}'.repeat(100000)}, "parent": 1}`,
        ),
      line: 4,
      message: 'JSON nested deeper than 100 levels: expected at most 100',
    },
    {
      what: 'an unterminated deep line at the end of the file',
      text: () => jsonl(good()) + '['.repeat(5000),
      line: 15,
      message: 'JSON nested deeper than 100 levels: expected at most 100',
    },
    {
      what: 'a line longer than the limit',
      text: () => jsonl(good().map((r) => (r.seq === 4 ? { ...r, locals: { big: 'x'.repeat(5000) } } : r))),
      line: 6,
      message: 'line is longer than 4096 bytes, the longest record this reader accepts',
      maxLineBytes: 4096,
    },
  ];

  for (const c of cases) {
    it(c.what, async () => {
      const { dir, corpus } = fresh();
      await corpus.ingest(writeTraces(dir, 'seed.jsonl', [{ name: 'seed', n: 4 }]));
      const before = snapshot(connectionOf(corpus));
      const counts = corpus.counts();
      // A good trace first: it must be rolled back along with the bad one.
      const other = jsonl(traceRecords({ name: 'first', n: 1 }));
      const firstLines = other.split('\n').length - 1;
      const file = join(dir, 'bad.jsonl');
      const body = c.text();
      writeFileSync(file, c.what === 'an empty file' ? '' : Buffer.concat([Buffer.from(other), Buffer.from(body)]));
      const line = c.what === 'an empty file' ? c.line : c.line + firstLines;
      const err = await corpus.ingest(file, { maxLineBytes: c.maxLineBytes }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(IngestError);
      const message = c.message.replace('{start}', String(1 + firstLines));
      const prefix = `${file}:${line}: ${message}`;
      expect((err as IngestError).message.slice(0, prefix.length)).toBe(prefix);
      expect(snapshot(connectionOf(corpus))).toBe(before);
      expect(corpus.counts()).toEqual(counts);
      expect(connectionOf(corpus).inTransaction).toBe(false);
      corpus.close();
    });
  }

  it('a missing input file is named', async () => {
    const { dir, corpus } = fresh();
    await expect(corpus.ingest(join(dir, 'absent.jsonl'))).rejects.toThrow(
      `${join(dir, 'absent.jsonl')}: no such file`,
    );
    corpus.close();
  });

  it('a huge line is refused without reading it whole', async () => {
    const { corpus } = fresh();
    // 200 MB of one line, generated lazily: the reader must stop at the limit.
    let produced = 0;
    async function* huge() {
      yield Buffer.from(pyDumps(traceRecords()[0]) + '\n{"type": "event", "locals": {"x": "');
      const block = Buffer.alloc(1 << 20, 0x61);
      for (let i = 0; i < 200; i++) {
        produced += block.length;
        yield block;
      }
    }
    await expect(corpus.ingestStream(huge(), 'huge.jsonl', { maxLineBytes: 8 << 20 })).rejects.toThrow(
      'huge.jsonl:2: line is longer than 8 MiB, the longest record this reader accepts',
    );
    expect(produced).toBeLessThan(10 << 20);
    expect(corpus.counts().traces).toBe(0);
    corpus.close();
  });
});

describe('ingest: files and records that are not a trace are refused, naming file and line', () => {
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
    const text =
      recs
        .slice(0, -1)
        .map((r) => pyDumps(r) + '\n')
        .join('') +
      pyDumps(end) +
      '\n';
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
    expect([e.kind, e.code, e.message]).toEqual([
      'io',
      'unavailable',
      `${join(dir, 'c.db')}: database or disk is full`,
    ]);
    expect(db.inTransaction).toBe(false);
    expect(snapshot(db)).toBe(before);
    db.pragma('max_page_count = 1073741823');
    expect(await corpus.ingest(big)).toMatchObject({ inserted: 1 });
    corpus.close();
  });
});

describe('ingest: transactions', () => {
  it("refused for another writer's lock, stores nothing even if the lock is gone before the file is read", async () => {
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
    expect([e.kind, e.message]).toEqual([
      'locked',
      `${path} is locked: another program is writing to it. Try again when it has finished.`,
    ]);
    expect(c.counts()).toMatchObject({ traces: 0 });
    c.close();
    corpus.close();
  });

  it('an error after which SQLite has already rolled the transaction back is reported as is', async () => {
    const { dir, corpus } = fresh();
    const db = connectionOf(corpus);
    // A stand-in for the errors SQLite answers by rolling back the whole transaction itself
    // (a full disk or an I/O error may): a temporary trigger, not part of the corpus file.
    db.exec(
      "CREATE TEMP TRIGGER refuse BEFORE INSERT ON traces BEGIN SELECT RAISE(ROLLBACK, 'refused by the test trigger'); END",
    );
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

describe('ingest: standard input', () => {
  it("'-' reads the traces from standard input", async () => {
    const { db } = freshDb();
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
  it.skipIf(!existsSync('/proc/self/fd'))(
    'when the corpus is locked by another writer and the file was never read',
    async () => {
      const { dir, path, db } = freshDb({ busyTimeoutMs: 0 });
      const file = writeTraces(dir, 't.jsonl', [{ name: 'a', n: 1 }]);
      const other = new Database(path);
      other.exec('BEGIN IMMEDIATE');
      const openOnFile = () =>
        readdirSync('/proc/self/fd').filter((fd) => readlinkOr(`/proc/self/fd/${fd}`) === file).length;
      for (let i = 0; i < 20; i++) {
        const e = await rejection(ingestFile(db, file));
        expect(e).toBeInstanceOf(CorpusError);
        expect((e as CorpusError).kind).toBe('locked');
      }
      // The read streams open the file asynchronously, in Node's thread pool: reads queued
      // after them finish once those opens have run. Then each stream closes its descriptor
      // (a stream never closed would keep its descriptor for good).
      await Promise.all(Array.from({ length: 8 }, () => readFile(file)));
      for (let i = 0; i < 200 && openOnFile() > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(openOnFile()).toBe(0);
      other.exec('ROLLBACK');
      other.close();
      db.close();
    },
  );
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
    const { db } = freshDb();
    const lines = linesOf(traceRecords({ name: 'a', n: 10 })); // 26 events
    const { seen, result } = await watch(
      db,
      lines,
      lines.map(() => 1),
      { bufferEvents: 8 },
    );
    expect(result).toMatchObject({ inserted: 1, events: 26 });
    // seen[k]: after line k + 1; line 1 is the header, line k + 1 the k-th event.
    expect(seen.slice(0, 8).map((s) => [s.read, s.events, s.traces])).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((r) => [r, 0, 0]),
    );
    expect(seen[8]).toEqual({ read: 8, events: 8, traces: 1 });
    expect(count(db, 'events')).toBe(26);
    db.close();
  });

  it('a duplicate that ends within the buffer writes no row at all', async () => {
    const { db } = freshDb();
    const lines = linesOf(traceRecords({ name: 'a', n: 2 })); // 10 events
    await watch(db, lines, [lines.length], { bufferEvents: 16 });
    const before = snapshot(db);
    const { seen, result } = await watch(
      db,
      lines,
      lines.map(() => 1),
      { bufferEvents: 16 },
    );
    expect(result).toMatchObject({ inserted: 0, skipped: 1 });
    expect(seen.every((s) => s.events === 10 && s.traces === 1)).toBe(true);
    expect(snapshot(db)).toBe(before);
    db.close();
  });

  it('by default 4096 events are held back, and written when the 4096th is read', async () => {
    const { db } = freshDb();
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
    const { dir, db } = freshDb();
    const recs = traceRecords({ name: 'long', n: 100, tag: 'x'.repeat(1000) });
    // The fourth event gets a 70 kB local: one line longer than the 64 KiB piece.
    const big = recs.findIndex((r) => r.type === 'event' && r.seq === 3);
    recs[big] = {
      ...recs[big],
      locals: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`v${i}`, 'y'.repeat(7000)])),
    };
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
    const { dir, db } = freshDb();
    const lines = linesOf(traceRecords({ name: 'a', n: 1 }));
    lines[2] = '\ufeff' + lines[2];
    const file = join(dir, 'bom.jsonl');
    writeFileSync(file, lines.map((l) => l + '\n').join(''));
    const e = await rejection(ingestFile(db, file));
    expect(e).toBeInstanceOf(IngestError);
    expect([(e as IngestError).line, (e as IngestError).detail]).toEqual([
      3,
      expect.stringMatching(/^expected a JSON object, got invalid JSON/),
    ]);
    expect(count(db, 'traces')).toBe(0);
    db.close();
  });
});

describe('ingest from a stream', () => {
  it('reads a file stream the same as a path', async () => {
    const { dir, corpus } = fresh();
    const file = writeTraces(dir, 't.jsonl', [{ n: 6 }]);
    const res = await corpus.ingestStream(createReadStream(file), 'stdin');
    expect(res).toMatchObject({ file: 'stdin', traces: 1, inserted: 1 });
    corpus.close();
  });
});

describe('tampered traces', () => {
  const tampered = (recs: Rec[], text = 'a message the recorder did not send (no token), after 9 events') =>
    recs.map((r) => (r.type === 'end' ? { ...r, exit: 'never', reason: 'trace tampered with', tampered: text } : r));

  it('keep their mark through ingest, the API record and export, and are not the unmarked trace', async () => {
    const { dir, corpus } = fresh();
    const base = traceRecords({ name: 'forged', n: 3, exit: 'never' });
    const marked = tampered(base);
    writeFileSync(join(dir, 'marked.jsonl'), jsonl(marked));
    writeFileSync(
      join(dir, 'plain.jsonl'),
      jsonl(base.map((r) => (r.type === 'end' ? { ...r, reason: 'trace tampered with' } : r))),
    );
    expect(await corpus.ingest(join(dir, 'marked.jsonl'))).toMatchObject({ inserted: 1 });
    expect(await corpus.ingest(join(dir, 'plain.jsonl'))).toMatchObject({ inserted: 1 });
    const [a, b] = connectionOf(corpus).prepare('SELECT id, tampered FROM traces ORDER BY id').all() as Array<{
      id: number;
      tampered: string | null;
    }>;
    expect([a.tampered, b.tampered]).toEqual(['a message the recorder did not send (no token), after 9 events', null]);
    expect(corpus.getTrace(a.id)!.tampered).toBe(a.tampered);
    expect(corpus.getTrace(b.id)!.tampered).toBeUndefined();

    const sink = new PassThrough();
    const parts: Buffer[] = [];
    sink.on('data', (c: Buffer) => parts.push(c));
    await corpus.export([a.id], sink);
    const lines = Buffer.concat(parts).toString().trimEnd().split('\n');
    expect(lines.at(-1)).toBe(pyDumps({ ...marked.at(-1), seconds: 0.001 }));
    writeFileSync(join(dir, 'export.jsonl'), lines.join('\n') + '\n');
    expect(await corpus.ingest(join(dir, 'export.jsonl'))).toMatchObject({ inserted: 0, skipped: 1 });
    corpus.close();
  });

  it('a mark that is not a string is refused', async () => {
    const { dir, corpus } = fresh();
    writeFileSync(
      join(dir, 'bad.jsonl'),
      jsonl(tampered(traceRecords({ n: 1 })).map((r) => (r.type === 'end' ? { ...r, tampered: true } : r))),
    );
    await expect(corpus.ingest(join(dir, 'bad.jsonl'))).rejects.toThrow(
      `${join(dir, 'bad.jsonl')}:10: expected "tampered" to be a string, got true`,
    );
    expect(corpus.counts().traces).toBe(0);
    corpus.close();
  });
});
