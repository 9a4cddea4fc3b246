// `stepscope predict` against a hostile model server: what ends up in the corpus. No API key
// (from the endpoint's query, or echoed by the server), no invalid UTF-8 (Python's sqlite3 reads
// the corpus), no part of an answer over the size limit; and a --timeout Node's timers can count.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { openCorpus, type StoredItem } from '../../src/store/corpus.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { cli as cliSync, ensureBuilt, repoRoot } from './helpers.js';

const KEY = 'sk-live-0123456789abcdef';
let path: string;
let items: StoredItem[];
let model: Server;
let url: string;
/** Requests per prompt. */
const asked = new Map<string, number>();

beforeAll(async () => {
  ensureBuilt();
  const made = await corpusOf(vectorTraces().traces, 'stepscope-predict-secrets-');
  path = made.path;
  const { set } = createEvalSet(made.corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 1 });
  items = [...made.corpus.iterateItems(set.id)].slice(0, 4);
  made.corpus.close();
  // Item 0's answer is 2 MiB (over --max-response-mb 1); every other answer echoes the
  // Authorization header and holds a lone surrogate escape.
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const prompt = (JSON.parse(raw) as { prompt: string }).prompt;
      asked.set(prompt, (asked.get(prompt) ?? 0) + 1);
      const text = prompt === items[0].prompt ? 'x'.repeat(2 * 2 ** 20) : `auth=${req.headers.authorization} \\ud800!`;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"choices": [{"index": 0, "text": "${text}", "finish_reason": "stop"}], "model": "m"}`);
    });
  });
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(model.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await new Promise((r) => model?.close(r));
  cleanTempDirs();
});

/** The command to its end, asynchronously (the model server runs in this process). */
const predict = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn(
      process.execPath,
      [join(repoRoot, 'bin/stepscope.js'), 'predict', '--db', path, '--set', 'ns', '--model', 'm', ...args],
      { cwd: repoRoot, env },
    );
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (status) => resolve({ status, stdout, stderr }));
  });

describe('stepscope predict --timeout', () => {
  it('is in seconds: 0 and more than Node can count are refused in those words, before anything is sent', async () => {
    for (const [t, shown] of [
      ['0', "'0'"],
      ['2147484', "'2147484'"],
      ['-1', "'-1'"],
    ]) {
      const r = await predict(['--endpoint', url, '--timeout', t]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(
        `stepscope: predict: --timeout is in seconds, more than 0 and at most 2147483 (about 24 days), got ${shown}`,
      );
      expect(r.stderr).not.toContain('milliseconds');
    }
    expect(asked.size).toBe(0);
  });
});

describe('stepscope predict against a hostile server', () => {
  it('stores no key, no invalid UTF-8 and nothing of an answer over the limit', async () => {
    const r = await predict(
      ['--endpoint', `${url}/v1?api_key=${KEY}&x=1`, '--label', 'hostile', '--max-response-mb', '1', '--timeout', '30'],
      { ...process.env, STEPSCOPE_API_KEY: KEY },
    );
    // The over-long answer fails its item, once, saying why; the others are stored.
    expect(r.stderr).toContain('is over the limit of 1 MiB: it was not read further and nothing of it was kept');
    expect(r.stderr).toContain('1 items have no answer yet');
    expect(asked.get(items[0].prompt)).toBe(1);
    expect(r.status).toBe(1);

    const c = openCorpus(path, { readonly: true });
    let stored: string[];
    try {
      const set = c.getEvalSet('ns')!;
      const run = c.getRun(set.id, 'hostile')!;
      expect(run.source).toBe(`${url}/v1?api_key=***&x=1`);
      const preds = [...c.iteratePredictions({ setId: set.id, runId: run.id })];
      expect(preds.some((p) => p.itemId === items[0].id)).toBe(false);
      stored = preds.map((p) => p.completion);
    } finally {
      c.close();
    }
    expect(stored.length).toBeGreaterThan(0);
    for (const text of stored) expect(text).toBe('auth=Bearer *** \\ud800!');

    // The key is nowhere in the file, and Python reads every completion back as stored.
    const py = spawnSync(
      'python3',
      [
        '-c',
        'import sqlite3, sys, json\n' +
          'c = sqlite3.connect(sys.argv[1])\n' +
          'print(json.dumps([r[0] for r in c.execute("SELECT completion FROM predictions p JOIN runs r ' +
          "ON r.id = p.run_id WHERE r.label = 'hostile'\")]))",
        path,
      ],
      { encoding: 'utf8' },
    );
    expect(py.stderr).toBe('');
    expect(JSON.parse(py.stdout)).toEqual(stored);
    const dump = spawnSync(
      'python3',
      ['-c', 'import sys; print(open(sys.argv[1], "rb").read().count(b"0123456789abcdef"))', path],
      {
        encoding: 'utf8',
      },
    );
    expect(dump.stdout.trim()).toBe('0');

    // `runs` shows the endpoint without the key, in its table and in --json.
    for (const args of [[], ['--json']]) {
      const out = cliSync(['runs', '--db', path, ...args]);
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout).toContain('api_key=***');
      expect(out.stdout).not.toContain(KEY);
    }
  }, 120_000);
});
