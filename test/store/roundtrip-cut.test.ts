/**
 * Ingest → export → ingest with cut values (reprs over the repr limit, their names in `cut`,
 * `<arg>` for a cut return value): nothing of the cut is lost or reordered on the way, the
 * export re-ingests as already stored, and a fresh corpus gets the same trace.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, jsonl, tempDir, traceRecords, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

const LIMIT = 10;
/** A repr cut as the recorder cuts it (docs/trace-format.md): first LIMIT characters, then the count. */
const cutRepr = (full: string) => `${full.slice(0, LIMIT)}…<cut ${full.length - LIMIT} chars>`;

/** sum_4 with `acc` cut from its third loop line on, and the return value cut too. */
function cutTrace(): Rec[] {
  const recs = traceRecords({ name: 'cut_sum', n: 4 });
  (recs[0].limits as Rec).repr_chars = LIMIT;
  let loops = 0;
  for (const r of recs) {
    if (r.type !== 'event') continue;
    const locals = r.locals as Record<string, string>;
    if (r.event === 'line' && r.line === 3 && ++loops < 3) continue;
    if ('acc' in locals && loops >= 3) {
      locals.acc = cutRepr(`[${locals.acc}] * 1000 + 'é'`.repeat(2));
      r.cut = ['acc'];
    }
    if (r.event === 'return') {
      r.arg = cutRepr(`${r.arg}${'0'.repeat(25)}`);
      r.cut = ['acc', '<arg>'];
    }
  }
  return recs;
}

async function exported(corpus: Corpus, ids: number[]): Promise<string> {
  const sink = new PassThrough();
  const parts: Buffer[] = [];
  sink.on('data', (b: Buffer) => parts.push(b));
  await corpus.export(ids, sink);
  return Buffer.concat(parts).toString('utf8');
}

const eventLines = (text: string) => text.split('\n').filter((l) => l.startsWith('{"type": "event"'));

describe('round trip with cut values', () => {
  it('keeps every cut name and cut repr, in the recorder layout and in any other layout', async () => {
    const dir = tempDir('stepscope-cut-');
    const recs = cutTrace();
    const events = recs.filter((r) => r.type === 'event').map(({ type: _t, ...e }) => e);
    expect(events.filter((e) => e.cut).length).toBeGreaterThan(3);
    const canonical = join(dir, 'canonical.jsonl');
    writeFileSync(canonical, jsonl(recs));
    // The same records as compact JSON with raw UTF-8: not the recorder's layout, so every
    // event line takes the full parser instead of the fast path.
    const compact = join(dir, 'compact.jsonl');
    writeFileSync(compact, recs.map((r) => JSON.stringify(r) + '\n').join(''));

    for (const file of [canonical, compact]) {
      const corpus = openCorpus(join(dir, `${file === canonical ? 'a' : 'b'}.db`), { create: true });
      expect(await corpus.ingest(file)).toMatchObject({ inserted: 1 });
      const id = corpus.listTraces().rows[0].id;
      expect(corpus.getEvents(id)).toEqual(events);
      expect(corpus.getTrace(id)!.limits.repr_chars).toBe(LIMIT);

      // The export is the recorder's layout, line for line, cut included.
      const out = await exported(corpus, [id]);
      expect(eventLines(out)).toEqual(eventLines(readFileSync(canonical, 'utf8')));
      expect(out).toContain('"cut": ["acc", "<arg>"]}');
      const outFile = join(dir, 'export.jsonl');
      writeFileSync(outFile, out);
      expect(await corpus.ingest(outFile)).toMatchObject({ inserted: 0, skipped: 1 });

      const fresh = openCorpus(join(dir, `${file === canonical ? 'a' : 'b'}-copy.db`), { create: true });
      expect(await fresh.ingest(outFile)).toMatchObject({ inserted: 1 });
      const copy = fresh.listTraces().rows[0].id;
      expect(fresh.getEvents(copy)).toEqual(events);
      expect(await exported(fresh, [copy])).toBe(out);
      fresh.close();
      corpus.close();
    }
  });

  it('tells a trace with a cut apart from the same trace without it', async () => {
    const dir = tempDir('stepscope-cut-');
    const corpus = openCorpus(join(dir, 'c.db'), { create: true });
    const withCut = cutTrace();
    const without = withCut.map((r) => {
      if (r.type !== 'event' || !r.cut) return r;
      const { cut: _c, ...rest } = r;
      return rest;
    });
    writeFileSync(join(dir, 'with.jsonl'), jsonl(withCut));
    writeFileSync(join(dir, 'without.jsonl'), jsonl(without));
    expect(await corpus.ingest(join(dir, 'with.jsonl'))).toMatchObject({ inserted: 1 });
    expect(await corpus.ingest(join(dir, 'without.jsonl'))).toMatchObject({ inserted: 1 });
    const [a, b] = corpus.listTraces().rows.map((r) => r.id);
    expect(corpus.getEvents(a).some((e) => e.cut)).toBe(true);
    expect(corpus.getEvents(b).some((e) => e.cut)).toBe(false);
    corpus.close();
  });
});
