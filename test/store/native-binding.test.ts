// openCorpus's nativeBinding option: the desktop app passes a better_sqlite3.node built for
// Electron's ABI. Here the Node build stands in for it (the only one that loads in Node).
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

const nodeBuild = resolve(import.meta.dirname, '../../node_modules/better-sqlite3/build/Release/better_sqlite3.node');

describe('nativeBinding', () => {
  it('opens and works through the binding it is given', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.db');
    const c = openCorpus(path, { create: true, nativeBinding: nodeBuild });
    await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3' }]));
    expect(c.counts()).toMatchObject({ traces: 1 });
    c.close();
    const r = openCorpus(path, { readonly: true, nativeBinding: nodeBuild });
    expect(r.listTraces().rows.map((t) => t.name)).toEqual(['sum_3']);
    r.close();
  });

  it('a binding that cannot load fails with a message naming it, before touching the corpus', () => {
    const dir = tempDir();
    const bogus = join(dir, 'nope', 'better_sqlite3.node');
    const path = join(dir, 'c.db');
    expect(() => openCorpus(path, { create: true, nativeBinding: bogus })).toThrow(
      `cannot load the SQLite module ${bogus}: Cannot find module '${bogus}'`,
    );
    // Not a shared object at all (as an Electron build would be rejected by plain Node: a load error).
    const notElf = writeTraces(dir, 'fake.node', [{ name: 'x' }]);
    expect(() => openCorpus(path, { create: true, nativeBinding: notElf })).toThrow(
      new RegExp(`^cannot load the SQLite module ${notElf}: \\S`),
    );
    expect(() => openCorpus(path, { readonly: true })).toThrow(/does not exist/);
  });
});
