/**
 * `corpus.query` (src/store/queries/sql.ts, what `stepscope sql` runs): only statements that
 * return rows and only read; a write refused with the kind `read-only`, a bad statement with
 * SQLite's own words and the kind `bad-input`, and the corpus left as it was. Each test builds
 * its own small corpus (Stryker's per-test coverage does not see beforeAll fixtures).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/common/errors.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

async function corpusFile(): Promise<string> {
  const dir = tempDir();
  const path = join(dir, 'c.db');
  const c = openCorpus(path, { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'one', n: 1 },
      { name: 'two', n: 2 },
    ]),
  );
  c.close();
  return path;
}

/** The error `f` throws: its class, kind and words. */
function refusal(f: () => unknown): { user: boolean; code: unknown; message: string } {
  try {
    f();
  } catch (e) {
    return { user: e instanceof UserError, code: (e as UserError).code, message: (e as Error).message };
  }
  throw new Error('not refused');
}

const names = (c: Corpus) => [...c.query('SELECT name FROM traces ORDER BY id')].map((r) => r.name);

describe('corpus.query on a writable corpus', () => {
  it('runs a query and yields its rows', async () => {
    const c = openCorpus(await corpusFile());
    expect(names(c)).toEqual(['one', 'two']);
    c.close();
  });

  it('refuses a statement that returns no rows, before it runs', async () => {
    const c = openCorpus(await corpusFile());
    expect(refusal(() => c.query('DELETE FROM traces'))).toEqual({
      user: true,
      code: 'bad-input',
      message: 'only queries that return rows can run here (the corpus is opened read-only)',
    });
    expect(names(c)).toEqual(['one', 'two']);
    c.close();
  });

  it('refuses a write that returns rows (RETURNING), before it runs', async () => {
    const c = openCorpus(await corpusFile());
    expect(refusal(() => c.query('DELETE FROM traces RETURNING id'))).toEqual({
      user: true,
      code: 'read-only',
      message: 'only statements that read can run here',
    });
    expect(names(c)).toEqual(['one', 'two']);
    c.close();
  });

  it("refuses a statement SQLite cannot prepare with SQLite's words, as bad input", async () => {
    const c = openCorpus(await corpusFile());
    expect(refusal(() => c.query('SELEC name FROM traces'))).toEqual({
      user: true,
      code: 'bad-input',
      message: 'near "SELEC": syntax error',
    });
    expect(refusal(() => c.query('SELECT nope FROM traces'))).toEqual({
      user: true,
      code: 'bad-input',
      message: 'no such column: nope',
    });
    c.close();
  });

  it('refuses an error met while the rows are read, as bad input', async () => {
    const c = openCorpus(await corpusFile());
    // json() of text that is not JSON fails at run time, on the first row, not when prepared.
    const rows = c.query('SELECT json(name) FROM traces');
    expect(refusal(() => [...rows])).toEqual({ user: true, code: 'bad-input', message: 'malformed JSON' });
    c.close();
  });

  it("passes on an error that is not SQLite's unchanged (an empty statement)", async () => {
    const c = openCorpus(await corpusFile());
    const r = refusal(() => c.query(''));
    expect(r.user).toBe(false);
    expect(r.message).toMatch(/no statements/);
    c.close();
  });
});

describe('corpus.query on a read-only corpus', () => {
  it('lets SQLite refuse a write that returns rows, with its words and the kind read-only', async () => {
    const path = await corpusFile();
    const c = openCorpus(path, { readonly: true });
    const rows = c.query('DELETE FROM traces RETURNING id');
    expect(refusal(() => [...rows])).toEqual({
      user: true,
      code: 'read-only',
      message: 'attempt to write a readonly database',
    });
    c.close();
    const w = openCorpus(path);
    expect(names(w)).toEqual(['one', 'two']);
    w.close();
  });

  it('still refuses a statement that returns no rows, as bad input', async () => {
    const c = openCorpus(await corpusFile(), { readonly: true });
    expect(refusal(() => c.query('CREATE TABLE x (a)'))).toMatchObject({ user: true, code: 'bad-input' });
    c.close();
  });
});
