import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { IngestError, openCorpus, type Corpus } from '../../src/store/corpus.js';
import { jsonl, pyDumps, snapshot, tempDir, traceRecords, writeTraces, type Rec, cleanTempDirs } from './fixtures.js';

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

describe('ingest: happy path', () => {
  it('stores every trace with its header, events and end, as written', async () => {
    const { dir, corpus } = fresh();
    const specs = [{ name: 'a', n: 2 }, { name: 'b', n: 5, exit: 'error' as const }, { name: 'c', n: 0, exit: 'never' as const }];
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
    const file = writeTraces(dir, 't.jsonl', [{ name: 'a', n: 2 }, { name: 'b', n: 3 }]);
    expect(await corpus.ingest(file)).toMatchObject({ inserted: 2, skipped: 0 });
    const before = snapshot(connectionOf(corpus));
    expect(await corpus.ingest(file)).toMatchObject({ traces: 2, inserted: 0, skipped: 2 });
    const rerun = writeTraces(dir, 'rerun.jsonl', [{ name: 'a', n: 2, seconds: 7.5 }, { name: 'a', n: 4 }]);
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
    const rows = (c: Corpus) => connectionOf(c).prepare('SELECT seq, event, frame, func, line, src, locals, arg, parent, cut FROM events ORDER BY seq').all();
    expect(rows(other)).toEqual(rows(corpus));
    other.close();
    corpus.close();
  });

  it('skips a duplicate longer than the write buffer without leaving rows behind', async () => {
    const { dir, corpus } = fresh();
    const file = writeTraces(dir, 'long.jsonl', [{ name: 'long', n: 200 }, { name: 'long', n: 200 }]);
    expect(await corpus.ingest(file, { bufferEvents: 16 })).toMatchObject({ traces: 2, inserted: 1, skipped: 1 });
    const before = snapshot(connectionOf(corpus));
    expect(await corpus.ingest(file, { bufferEvents: 16 })).toMatchObject({ inserted: 0, skipped: 2 });
    expect(snapshot(connectionOf(corpus))).toBe(before);
    expect(corpus.counts()).toEqual({ programs: 1, traces: 1, events: 406 });
    corpus.close();
  });
});

describe('export', () => {
  it('round-trips: re-ingesting an export stores nothing new, a fresh corpus gets the same traces', async () => {
    const { dir, corpus } = fresh();
    await corpus.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 2 }, { name: 'b', n: 30, exit: 'error', tag: ' "q" \\ é' }]));
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
    const original = readFileSync(join(dir, 't.jsonl'), 'utf8').split('\n').filter((l) => l.startsWith('{"type": "event"'));
    const exported = readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith('{"type": "event"'));
    expect(exported).toEqual(original);
    // The export of the copy is byte-identical: the canonical form is stable.
    const again = new PassThrough();
    const parts2: Buffer[] = [];
    again.on('data', (b: Buffer) => parts2.push(b));
    await other.export(other.listTraces().rows.map((r) => r.id), again);
    expect(Buffer.concat(parts2).toString()).toBe(readFileSync(out, 'utf8'));
    other.close();
    corpus.close();
  });
});

describe('ingest: bad input is reported with file and line, and changes nothing', () => {
  const good = () => traceRecords({ name: 'good', n: 3 });
  const cases: Array<{ what: string; text: () => string | Buffer; line: number; message: string; maxLineBytes?: number }> = [
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
        return Buffer.concat([Buffer.from(lines.slice(0, 3).join('\n') + '\n'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), Buffer.from(lines.slice(4).join('\n'))]);
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
      message: 'expected an "end" record after this line: the trace "good" from line {start} has no "end" (the file looks truncated)',
    },
    {
      what: 'a next trace before the end',
      text: () => jsonl([...good().slice(0, -1), ...good()]),
      line: 14,
      message: 'expected an "event" or "end" record, got a "trace" header: the trace "good" from line {start} has no "end" record',
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
      text: () => jsonl(good()).replace('"locals": {"n": "3", "acc": "0", "i": "0"}', '"locals": {"n": "3", "acc": "0", "n": "4"}'),
      line: 7,
      message: 'duplicate key "n" in "locals": expected each key once',
    },
    {
      what: 'a local named twice, once through an escape',
      text: () => jsonl(good()).replace('"locals": {"n": "3", "acc": "0", "i": "0"}', '"locals": {"n": "3", "acc": "0", "\\u006e": "4"}'),
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
      text: () => jsonl(good()).replace('"arg": null, "parent": 1}', `"arg": ${'{"a": '.repeat(100000)}null${'}'.repeat(100000)}, "parent": 1}`),
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
    await expect(corpus.ingest(join(dir, 'absent.jsonl'))).rejects.toThrow(`${join(dir, 'absent.jsonl')}: no such file`);
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
    writeFileSync(join(dir, 'plain.jsonl'), jsonl(base.map((r) => (r.type === 'end' ? { ...r, reason: 'trace tampered with' } : r))));
    expect(await corpus.ingest(join(dir, 'marked.jsonl'))).toMatchObject({ inserted: 1 });
    expect(await corpus.ingest(join(dir, 'plain.jsonl'))).toMatchObject({ inserted: 1 });
    const [a, b] = connectionOf(corpus).prepare('SELECT id, tampered FROM traces ORDER BY id').all() as Array<{ id: number; tampered: string | null }>;
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
    writeFileSync(join(dir, 'bad.jsonl'), jsonl(tampered(traceRecords({ n: 1 })).map((r) => (r.type === 'end' ? { ...r, tampered: true } : r))));
    await expect(corpus.ingest(join(dir, 'bad.jsonl'))).rejects.toThrow(`${join(dir, 'bad.jsonl')}:10: expected "tampered" to be a string, got true`);
    expect(corpus.counts().traces).toBe(0);
    corpus.close();
  });
});
