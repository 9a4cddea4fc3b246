// Hundreds of damaged trace files (seeded, so every run tries the same ones): each is either
// stored or refused with `FILE:LINE: …`, and a refused file leaves the corpus byte-identical.
// Never a RangeError, a TypeError or a SQLite message.
import { connectionOf } from '../../src/store/connection.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IngestError, openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, jsonl, snapshot, tempDir, traceRecords } from './fixtures.js';

afterAll(cleanTempDirs);

/** mulberry32: a tiny seeded generator, so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ',',
  ':',
  '\\',
  '\\u',
  '\\ud800',
  '\\udc00',
  '\\u0000',
  '-0',
  '1e400',
  '1.5',
  'null',
  'true',
  '\u00e9',
  '\ud83d\ude00',
  ' ',
  '\t',
  '\r',
  '\n',
  '\u2028',
  '"seq": 0, "seq": 1, ',
  '"n": "1", "n": "2", ',
  '\u0000',
];

type Mutation = (text: string, r: () => number) => string | Buffer;
const at = (text: string, r: () => number) => Math.floor(r() * (text.length + 1));
const lines = (text: string) => text.split('\n');
const MUTATIONS: Array<[string, Mutation]> = [
  [
    'delete a character',
    (t, r) => {
      const i = at(t, r);
      return t.slice(0, i) + t.slice(i + 1);
    },
  ],
  [
    'insert a piece',
    (t, r) => {
      const i = at(t, r);
      return t.slice(0, i) + PIECES[Math.floor(r() * PIECES.length)] + t.slice(i);
    },
  ],
  ['truncate', (t, r) => t.slice(0, at(t, r))],
  [
    'repeat a line',
    (t, r) => {
      const l = lines(t);
      const i = Math.floor(r() * l.length);
      l.splice(i, 0, l[i]);
      return l.join('\n');
    },
  ],
  [
    'swap two lines',
    (t, r) => {
      const l = lines(t);
      const i = Math.floor(r() * l.length);
      const j = Math.floor(r() * l.length);
      [l[i], l[j]] = [l[j], l[i]];
      return l.join('\n');
    },
  ],
  [
    'nest a value deeply',
    (t, r) => {
      const i = t.indexOf(': ', at(t, r));
      if (i < 0) return t;
      const d = 50 + Math.floor(r() * 5000);
      return `${t.slice(0, i + 2)}${'['.repeat(d)}1${']'.repeat(d)}${t.slice(i + 2).replace(/^("[^"]*"|[^,}]*)/, '')}`;
    },
  ],
  [
    'flip a byte',
    (t, r) => {
      const b = Buffer.from(t);
      if (b.length) b[Math.floor(r() * b.length)] ^= 1 << Math.floor(r() * 8);
      return b;
    },
  ],
];

describe('ingest: damaged files', () => {
  it('each of 400 damaged files is stored or refused with FILE:LINE, the corpus unchanged when refused', async () => {
    const dir = tempDir();
    const corpus = openCorpus(join(dir, 'c.db'), { create: true });
    await corpus.ingest(
      (() => {
        const f = join(dir, 'seed.jsonl');
        writeFileSync(f, jsonl(traceRecords({ name: 'seed', n: 2 })));
        return f;
      })(),
    );
    const original = jsonl([
      ...traceRecords({ name: 'a', n: 3, tag: ' é "q" 😀' }),
      ...traceRecords({ name: 'b', n: 2, exit: 'error' }),
    ]);
    const r = rng(13);
    const seen = { stored: 0, refused: 0 };
    for (let k = 0; k < 400; k++) {
      const [what, mutate] = MUTATIONS[k % MUTATIONS.length];
      let body: string | Buffer = original;
      for (let n = 1 + Math.floor(r() * 2); n > 0; n--)
        body = mutate(typeof body === 'string' ? body : body.toString('latin1'), r);
      const file = join(dir, `m${k}.jsonl`);
      writeFileSync(file, body);
      const before = snapshot(connectionOf(corpus));
      const err = await corpus.ingest(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (err === undefined) {
        seen.stored++;
        continue;
      }
      seen.refused++;
      expect(err, `${what} #${k}: ${String(err)}`).toBeInstanceOf(IngestError);
      expect((err as IngestError).message, `${what} #${k}`).toMatch(
        new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: `),
      );
      expect(snapshot(connectionOf(corpus)), `${what} #${k}`).toBe(before);
      expect(connectionOf(corpus).inTransaction).toBe(false);
    }
    // Most damage is refused; some is harmless (e.g. a flipped bit inside a repr).
    expect(seen.refused).toBeGreaterThan(250);
    expect(seen.stored + seen.refused).toBe(400);
    corpus.close();
  });
});
