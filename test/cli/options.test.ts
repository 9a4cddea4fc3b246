/**
 * The CLI checks its options with the API contract's validators: both accept the same values
 * and word a wrong one alike (`expected X` / `expects X`).
 */
import { copyFileSync } from 'node:fs';
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
    expect(cliExpects(['traces', '--db', db, '--exit', 'crashed'])).toBe(
      await apiExpects('listTraces', { exit: 'crashed' }),
    );
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

describe('integer options', () => {
  /** The one line of stderr, after checking it is a usage error (exit 2) and one line. */
  function refusal(args: string[]): string {
    const r = cli(args);
    expect(r.status, `${args.join(' ')}: ${r.stdout}`).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    return lines[0];
  }

  it('refuse what is not plain decimal digits, naming the option, in one line', () => {
    for (const text of ['1e3', '0x10', '1.0', ' 7', '', '1_000', 'Infinity', '10 ']) {
      expect(refusal(['traces', '--db', db, '--limit', text]), text).toBe(
        `stepscope: traces: --limit expects an integer, got '${text}'`,
      );
    }
  });

  it('refuse numbers out of range with the range, never rounded or passed to SQLite', () => {
    expect(refusal(['traces', '--db', db, '--limit', '99999999999999999999'])).toBe(
      "stepscope: traces: --limit expects an integer from 0 to 9007199254740991, got '99999999999999999999'",
    );
    expect(refusal(['traces', '--db', db, '--offset', '9007199254740993'])).toMatch(
      /--offset expects an integer from 0 to 9007199254740991/,
    );
    expect(refusal(['events', '--db', db, '--trace', '1', '--to', '1e400'])).toBe(
      "stepscope: events: --to expects an integer, got '1e400'",
    );
    expect(refusal(['serve', '--db', db, '--port', '65536'])).toBe(
      "stepscope: serve: --port expects an integer from 0 to 65535, got '65536'",
    );
  });

  it('refuse a negative limit in both spellings with the range, and accept a negative seed', () => {
    expect(refusal(['traces', '--db', db, '--limit', '-5'])).toBe(
      "stepscope: traces: --limit expects an integer, 0 or more, got '-5'",
    );
    expect(refusal(['traces', '--db', db, '--limit=-5'])).toBe(
      "stepscope: traces: --limit expects an integer, 0 or more, got '-5'",
    );
    expect(refusal(['events', '--db', db, '--trace', '-1'])).toBe(
      "stepscope: events: --trace expects an integer, 1 or more, got '-1'",
    );
    const copy = join(tempDir('stepscope-seed-'), 'c.db');
    copyFileSync(db, copy);
    const r = cli(['sample', '--db', copy, '--seed', '-3', '--max-steps', '2']);
    expect(r.status, r.stderr).toBe(0);
  });

  it('accept plain digits, with a sign', () => {
    expect(cli(['traces', '--db', db, '--limit', '1']).status).toBe(0);
    expect(cli(['traces', '--db', db, '--limit', '+1']).status).toBe(0);
    expect(cli(['traces', '--db', db, '--limit', '007']).status).toBe(0);
  });
});
