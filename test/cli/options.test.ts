/**
 * The CLI checks its options with the API contract's validators: both accept the same values
 * and word a wrong one alike (`expected X` / `expects X`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, dispatch } from '../../src/api/handlers/index.js';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { cli, ensureBuilt } from './helpers.js';

let db: string;

beforeAll(async () => {
  ensureBuilt();
  const dir = tempDir('stepscope-options-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3', n: 3 }]));
  c.close();
});
afterAll(cleanTempDirs);

/** What the API says a param expects, e.g. `normal, error or never`. */
async function apiExpects(method: string, params: unknown): Promise<string> {
  const c = openCorpus(db, { readonly: true });
  try {
    const r = await dispatch(createApi(c), method, params);
    if (r.ok) throw new Error(`${method} accepted ${JSON.stringify(params)}`);
    return /: expected (.*), got /.exec(r.error.message)![1];
  } finally {
    c.close();
  }
}

function cliExpects(args: string[]): string {
  const r = cli(args);
  expect(r.status, r.stderr).toBe(2);
  return /expects (.*), got '/.exec(r.stderr)![1];
}

describe('CLI options and API params', () => {
  it('refuse the same exit, sort, direction and id values with the same words', async () => {
    expect(cliExpects(['traces', '--db', db, '--exit', 'crashed'])).toBe(await apiExpects('listTraces', { exit: 'crashed' }));
    expect(cliExpects(['traces', '--db', db, '--sort', 'size'])).toBe(await apiExpects('listTraces', { sort: 'size' }));
    expect(cliExpects(['replay', '--db', db, '--trace', '1', '--direction', 'up', '--actions', 'step_into'])).toBe(
      await apiExpects('walk', { traceId: 1, direction: 'up', actions: [] }),
    );
    expect(cliExpects(['events', '--db', db, '--trace', '0'])).toBe(await apiExpects('getTrace', { id: 0 }));
  });

  it('accept the same values', () => {
    for (const exit of ['normal', 'error', 'never']) expect(cli(['traces', '--db', db, '--exit', exit]).status).toBe(0);
    for (const sort of ['id', 'name', 'events']) expect(cli(['traces', '--db', db, '--sort', sort]).status).toBe(0);
  });
});
