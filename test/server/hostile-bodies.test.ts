// What an API body cannot do to the corpus or the server: store text that is not Unicode (a lone
// surrogate in a note or an annotator's name, which Python's sqlite3 then cannot read), or crash
// a handler with a value nested deeper than anything walks (a 500 "Maximum call stack size").
import { execFile } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWriteApi, openForWriting } from '../../src/api/handlers/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { readPredictionsFile } from '../../src/predictions/read-file.js';
import { startServer, type Running } from '../../src/server/listen.js';
import { MAX_BODY_DEPTH } from '../../src/server/body.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { ensureBuilt } from '../cli/helpers.js';
import { beforeAllOrFail } from './start-once.js';

let db: string;
let dir: string;
let ids: number[];
let server: Running;
let ipcDb: string;

beforeAllOrFail(async () => {
  ensureBuilt();
  const made = await corpusOf(vectorTraces().traces, 'stepscope-bodies-');
  ({ path: db, dir } = made);
  const { set } = createEvalSet(made.corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  const file = join(dir, 'p.jsonl');
  const items = [...made.corpus.iterateItems(set.id)];
  writeFileSync(file, items.map((i) => JSON.stringify({ id: i.id, completion: 'x' })).join('\n'));
  importPredictions(made.corpus, { file, set: 'ns', label: 'm' });
  ids = [...made.corpus.iteratePredictions({ setId: set.id })].map((p) => p.id);
  made.corpus.close();
  // The IPC test's own copy: this process holds no second connection to the served file.
  ipcDb = join(dir, 'ipc.db');
  copyFileSync(db, ipcDb);
  server = await startServer({ db, port: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close();
  cleanTempDirs();
});

/** POSTs `body` as it is (escapes and all). */
const post = async (method: string, body: string) => {
  const r = await fetch(`${server.url}api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  return { status: r.status, json: (await r.json()) as { ok: boolean; value?: unknown; error?: { message: string } } };
};

/**
 * Rows of `sql` as Python's sqlite3 reads the corpus (it refuses invalid UTF-8). Asynchronous on
 * purpose: a synchronous child blocks this process's event loop past the server's keep-alive, and
 * fetch then reuses a socket the server has just closed (ECONNRESET on the next request, seen on
 * a loaded machine).
 */
function python(sql: string, file = db): Promise<{ rows: unknown[][]; stderr: string }> {
  const code =
    'import sqlite3, sys, json\nprint(json.dumps(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()))';
  return new Promise((done) =>
    execFile('python3', ['-c', code, file, sql], { encoding: 'utf8' }, (err, stdout, stderr) =>
      done({ rows: err ? [] : (JSON.parse(stdout) as unknown[][]), stderr }),
    ),
  );
}

describe('lone surrogates over HTTP', () => {
  it('a note and an annotator name are stored spelled \\ud800, and Python reads them back', async () => {
    const r = await post(
      'annotate',
      `{"target": {"prediction": ${ids[0]}}, "annotator": "ada\\udc00", "labels": ["other.other"], "note": "n\\ud800 \\ud83d\\ude00"}`,
    );
    expect(r.json, JSON.stringify(r.json)).toMatchObject({ ok: true });
    expect(r.json.value).toMatchObject({ annotator: 'ada\\udc00', note: 'n\\ud800 \u{1f600}' });
    const got = await python('SELECT annotator, note FROM annotations');
    expect(got.stderr).toBe('');
    expect(got.rows).toEqual([['ada\\udc00', 'n\\ud800 \u{1f600}']]);
    const history = await python('SELECT who FROM annotation_history');
    expect(history.stderr).toBe('');
    expect(history.rows).toEqual([['ada\\udc00']]);
    // The same name, sent the same way, is the same annotator: their labels are replaced, not added.
    const again = await post(
      'annotate',
      `{"target": {"prediction": ${ids[0]}}, "annotator": "ada\\udc00", "note": "second"}`,
    );
    expect(again.json).toMatchObject({ ok: true });
    expect((await python('SELECT count(*) FROM annotations')).rows).toEqual([[1]]);
  });
});

describe('lone surrogates over IPC (the desktop app: structured clone carries them as they are)', () => {
  it('the write handlers spell them too', async () => {
    const corpus = openForWriting(ipcDb);
    try {
      const api = createWriteApi(corpus);
      const a = api.annotate({
        target: { prediction: ids[1] },
        annotator: 'bob\ud800',
        labels: ['other.other'],
        note: 'x\udfff',
      });
      expect(a).toMatchObject({ annotator: 'bob\\ud800', note: 'x\\udfff' });
    } finally {
      corpus.close();
    }
    const got = await python(`SELECT annotator, note FROM annotations WHERE prediction_id = ${ids[1]}`, ipcDb);
    expect(got.stderr).toBe('');
    expect(got.rows).toEqual([['bob\\ud800', 'x\\udfff']]);
  });
});

describe('values nested deeper than anything walks', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('a body nested past the limit is a 400 with a sentence, for any method', async () => {
    for (const [method, body] of [
      ['setTaxonomy', `{"taxonomy": ${deep(100_000)}, "author": "ada"}`],
      ['setTaxonomy', `{"taxonomy": {"name": ${deep(MAX_BODY_DEPTH)}}, "author": "ada"}`],
      ['annotate', `{"target": {"prediction": ${deep(5000)}}, "annotator": "ada", "labels": []}`],
    ]) {
      const r = await post(method, body);
      expect(r.status, method).toBe(400);
      expect(r.json.error!.message).toBe(
        `request body is nested deeper than ${MAX_BODY_DEPTH} levels: expected at most ${MAX_BODY_DEPTH} (no API method takes more)`,
      );
    }
  });

  it('brackets inside strings do not count', async () => {
    const r = await post('listTraces', `{"name": "${'['.repeat(1000)}"}`);
    expect(r.status).toBe(200);
    expect(r.json.ok).toBe(true);
  });

  it('in a predictions file, a deep value where an id or a completion is expected is FILE:LINE, expected …', () => {
    const file = join(dir, 'deep.jsonl');
    const n = 100_000;
    for (const [line, expected] of [
      [
        `{"id": ${deep(n)}, "completion": "a"}`,
        'expected "id" to be an item id (an integer) or an item key (a string), got a deeply nested list',
      ],
      [`{"id": 1, "completion": ${deep(n)}}`, 'expected "completion" to be a string, got a deeply nested list'],
      [
        `{"id": 1, "completions": [${'{"a":'.repeat(n)}1${'}'.repeat(n)}]}`,
        'expected "completions"[0] to be a string, got a deeply nested object',
      ],
    ]) {
      writeFileSync(file, `{"id": 1, "completion": "ok"}\n${line}\n`);
      expect(() => readPredictionsFile(file, (id) => (id === 1 ? 1 : undefined))).toThrow(`${file}:2: ${expected}`);
    }
  });
});
