/**
 * A read-only corpus cannot write: in its type (the @ts-expect-error lines below fail
 * `npm run typecheck` if a write method ever becomes callable on a ReadCorpus) and at run
 * time (the same calls are refused with a read-only error and leave the file as it was).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus, type Corpus, type ReadCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';

afterAll(cleanTempDirs);

describe('ReadCorpus and Corpus', () => {
  it('a read-only open has no write method in its type, and refuses each one at run time', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const file = writeTraces(dir, 't.jsonl', [{ name: 'a', n: 2 }]);
    const writer: Corpus = openCorpus(path, { create: true });
    await writer.ingest(file);
    writer.close();
    const before = readFileSync(path);

    const ro = openCorpus(path, { readonly: true });
    // @ts-expect-error a read-only open is not a Corpus
    const asWritable: Corpus = ro;
    expect(asWritable).toBe(ro);
    const read: ReadCorpus = ro;
    expect(read.listTraces().total).toBe(1);

    // @ts-expect-error ingest writes: not on a ReadCorpus
    await expect(ro.ingest(file)).rejects.toMatchObject({ code: 'read-only' });
    // @ts-expect-error ingestStream writes: not on a ReadCorpus
    await expect(ro.ingestStream((async function* () {})(), 'x.jsonl')).rejects.toMatchObject({ code: 'read-only' });
    // @ts-expect-error saveTrajectories writes: not on a ReadCorpus
    expect(() => ro.saveTrajectories([])).toThrow(expect.objectContaining({ code: 'read-only' }));
    expect(ro.counts().traces).toBe(1);
    ro.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
