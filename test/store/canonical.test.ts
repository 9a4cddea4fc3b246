// Ingest is idempotent on the canonical form (docs/schema.md, "Idempotency"): what the
// content hash sees is the trace's meaning, not the bytes that spelled it. And the header
// is part of that meaning: the same events under another name, seed or meta are another trace.
import { connectionOf } from '../../src/store/connection.js';
import { isUtf8 } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, jsonl, snapshot, tempDir, traceRecords, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

const rows = (c: Corpus) =>
  connectionOf(c)
    .prepare('SELECT seq, event, frame, func, line, src, locals, arg, parent, cut FROM events ORDER BY trace_id, seq')
    .raw()
    .all();

/** The recorder's own bytes for a trace whose reprs hold a tab, non-ASCII and an emoji. */
const original = () => jsonl(traceRecords({ name: 'canon', n: 3, tag: ' \t é 😀 A' }));

/** Re-spellings of the same trace that a JSON writer other than Python's might produce. */
const variants: Array<[string, (text: string) => string]> = [
  ['"seq": -0', (t) => t.replace('"seq": 0,', '"seq": -0,')],
  [
    '"frame": -0 and "line": 7.0',
    (t) => t.replace('"frame": 0, "func": "main", "line": 7,', '"frame": -0, "func": "main", "line": 7.0,'),
  ],
  ['"parent": 1e0', (t) => t.replace(/"parent": 1}/g, '"parent": 1e0}')],
  ['\\u0009 instead of \\t', (t) => t.replace(/\\t/g, '\\u0009')],
  ['an escaped printable character (\\u0041)', (t) => t.replace(/ A"/g, ' \\u0041"')],
  ['upper-case hex escapes', (t) => t.replace(/\\u00e9/g, '\\u00E9').replace(/\\ud83d\\ude00/g, '\\uD83D\\uDE00')],
  ['raw UTF-8 instead of escapes', (t) => t.replace(/\\u00e9/g, 'é').replace(/\\ud83d\\ude00/g, '😀')],
  ['escaped printable characters in src', (t) => t.replace('"src": "def main():"', '"src": "def main\\u0028)\\u003a"')],
  ['an empty "cut" list', (t) => t.replace('"parent": null}', '"parent": null, "cut": []}')],
  ['compact separators', (t) => t.replace(/", "/g, '","').replace(/": /g, '":')],
  [
    'record keys in another order',
    (t) =>
      t
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(l) as Rec).reverse())))
        .join('\n') + '\n',
  ],
];

describe('ingest: idempotent on the canonical form', () => {
  for (const [what, respell] of variants) {
    it(`${what}: the same trace, stored once and stored alike`, async () => {
      const dir = tempDir();
      const text = original();
      const changed = respell(text);
      expect(changed, 'the variant must differ from the original bytes').not.toBe(text);
      writeFileSync(join(dir, 'a.jsonl'), text);
      writeFileSync(join(dir, 'b.jsonl'), changed);
      const corpus = openCorpus(join(dir, 'c.db'), { create: true });
      expect(await corpus.ingest(join(dir, 'a.jsonl'))).toMatchObject({ inserted: 1 });
      const before = snapshot(connectionOf(corpus));
      expect(await corpus.ingest(join(dir, 'b.jsonl'))).toMatchObject({ traces: 1, inserted: 0, skipped: 1 });
      expect(snapshot(connectionOf(corpus))).toBe(before);
      // A fresh corpus fed only the variant stores the very same rows.
      const other = openCorpus(join(dir, 'o.db'), { create: true });
      expect(await other.ingest(join(dir, 'b.jsonl'))).toMatchObject({ inserted: 1 });
      expect(rows(other)).toEqual(rows(corpus));
      other.close();
      corpus.close();
    });
  }
});

describe('ingest: the header is part of a trace', () => {
  it('stores the same events under another name, hash seed, meta, Python or limits as separate traces', async () => {
    const dir = tempDir();
    const base = traceRecords({ name: 'same', n: 2 });
    const withHeader = (patch: Rec) => jsonl([{ ...base[0], ...patch }, ...base.slice(1)]);
    const files = [
      jsonl(base),
      withHeader({ name: 'renamed' }),
      withHeader({ hashseed: 7 }),
      withHeader({ meta: { ...(base[0].meta as Rec), note: 'other' } }),
      withHeader({ python: '3.12.1' }),
      withHeader({ limits: { ...(base[0].limits as Rec), events: 99 } }),
    ];
    const corpus = openCorpus(join(dir, 'c.db'), { create: true });
    for (const [i, text] of files.entries()) {
      writeFileSync(join(dir, `${i}.jsonl`), text);
      expect(await corpus.ingest(join(dir, `${i}.jsonl`)), `file ${i}`).toMatchObject({ inserted: 1, skipped: 0 });
    }
    expect(corpus.counts()).toMatchObject({ programs: 1, traces: files.length });
    const seeds = corpus.listTraces({ limit: 10 }).rows.map((r) => corpus.getTrace(r.id)!.hashseed);
    expect(seeds.sort()).toEqual([0, 0, 0, 0, 0, 7]);
    corpus.close();
  });
});

describe('ingest: lone surrogates', () => {
  /** Every TEXT value of every table, as the bytes SQLite holds. */
  const storedTexts = (c: Corpus) => {
    const out: Buffer[] = [];
    for (const t of ['programs', 'traces', 'events']) {
      const cols = (connectionOf(c).prepare(`PRAGMA table_info(${t})`).all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
      for (const row of connectionOf(c)
        .prepare(`SELECT ${cols.map((n) => `CAST(${n} AS BLOB)`).join(', ')} FROM ${t}`)
        .raw()
        .all()) {
        for (const v of row as unknown[]) if (Buffer.isBuffer(v)) out.push(v);
      }
    }
    return out;
  };
  const exported = async (c: Corpus) => {
    const parts: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (b: Buffer) => parts.push(b));
    await c.export(
      c.listTraces().rows.map((r) => r.id),
      sink,
    );
    return Buffer.concat(parts).toString('utf8');
  };

  // What another writer (or an earlier recorder) may produce: \ud800 escapes with no partner,
  // in every kind of string a trace holds.
  const lone = (t: string) =>
    t
      .replace('"name": "canon"', '"name": "canon\\ud800"')
      .replace('"note": "', '"note": "\\udfff ')
      .replace(/"func": "f"/g, '"func": "f\\udc80"')
      // eslint-disable-next-line no-regex-spaces -- the source line as the trace has it
      .replace(/"src": "    return acc"/g, '"src": "    return acc  # \\ud800"')
      .replace(/"acc": "/g, '"acc": "\\udbff')
      .replace('"arg": "3"', '"arg": "\\ud83d"');

  it('are stored spelt out as \\udxxx (valid UTF-8), and export, re-ingest and a fresh corpus agree byte for byte', async () => {
    const dir = tempDir();
    const text = lone(original());
    writeFileSync(join(dir, 'lone.jsonl'), text);
    const corpus = openCorpus(join(dir, 'c.db'), { create: true });
    expect(await corpus.ingest(join(dir, 'lone.jsonl'))).toMatchObject({ inserted: 1 });
    for (const b of storedTexts(corpus)) expect(isUtf8(b), b.toString('latin1')).toBe(true);
    const [row] = corpus.listTraces().rows;
    expect(row.name).toBe('canon\\ud800');
    const events = corpus.getEvents(row.id);
    expect(events.at(-1)!.arg).toBe('\\ud83d');
    expect(events.at(-1)!.func).toBe('f\\udc80');
    expect(events.at(-1)!.src).toBe('    return acc  # \\ud800');
    expect(events.at(-1)!.locals.acc).toBe('\\udbff3 \t é 😀 A'); // the emoji, a real pair, stays
    expect(
      connectionOf(corpus)
        .prepare("SELECT json_extract(locals, '$.acc') FROM events WHERE seq = ?")
        .pluck()
        .get(events.length - 1),
    ).toBe('\\udbff3 \t é 😀 A');

    const out = await exported(corpus);
    expect(out).toContain('"arg": "\\\\ud83d"');
    writeFileSync(join(dir, 'export.jsonl'), out);
    const before = snapshot(connectionOf(corpus));
    expect(await corpus.ingest(join(dir, 'export.jsonl'))).toMatchObject({ inserted: 0, skipped: 1 });
    expect(snapshot(connectionOf(corpus))).toBe(before);
    const other = openCorpus(join(dir, 'o.db'), { create: true });
    expect(await other.ingest(join(dir, 'export.jsonl'))).toMatchObject({ inserted: 1 });
    expect(rows(other)).toEqual(rows(corpus));
    expect(await exported(other)).toBe(out);
    other.close();
    corpus.close();
  });
});
