// A label is never refused because another program is writing (an import, a second `annotate`):
// every write over HTTP and from the CLI waits for the lock (the busy timeout, 5 s) instead of
// answering "corpus-locked" at once. A second process holds a write transaction for about a second.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { startServer, type Running } from '../../src/server/listen.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { ensureBuilt, repoRoot } from '../cli/helpers.js';
import { beforeAllOrFail } from './start-once.js';

const HOLD_MS = 1000;
let db: string;
let ids: number[];
let server: Running;

beforeAllOrFail(async () => {
  ensureBuilt();
  const { corpus, path, dir } = await corpusOf(vectorTraces().traces, 'stepscope-wait-');
  db = path;
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  const file = join(dir, 'p.jsonl');
  writeFileSync(
    file,
    [...corpus.iterateItems(set.id)].map((i) => JSON.stringify({ id: i.id, completion: 'x' })).join('\n'),
  );
  importPredictions(corpus, { file, set: 'ns', label: 'm' });
  ids = [...corpus.iteratePredictions({ setId: set.id })].map((p) => p.id);
  corpus.close();
  server = await startServer({ db, port: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close();
  cleanTempDirs();
});

/**
 * Another process takes the write lock (BEGIN IMMEDIATE, as an import does), writes, and keeps it
 * HOLD_MS; resolves once the lock is held, with the moment it will be released.
 */
async function holdWriteLock(): Promise<{ done: Promise<void> }> {
  const script = `
    const Database = require(${JSON.stringify(join(repoRoot, 'node_modules/better-sqlite3'))});
    const db = new Database(${JSON.stringify(db)});
    db.exec('BEGIN IMMEDIATE');
    db.exec("UPDATE runs SET label = label");
    process.stdout.write('held\\n');
    const until = Date.now() + ${HOLD_MS};
    while (Date.now() < until);
    db.exec('COMMIT');`;
  const p = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    p.stdout.once('data', () => resolve());
    p.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return { done };
}

const call = async (method: string, params: unknown) => {
  const r = await fetch(`${server.url}api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
  return (await r.json()) as { ok: boolean; error?: { code: string; message: string } };
};

const cli = (args: string[]) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const p = spawn(process.execPath, [join(repoRoot, 'bin/stepscope.js'), ...args]);
    let out = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (out += c));
    p.on('exit', (code) => resolve({ code, out }));
  });

/** Runs `write` while another process holds the lock: it must succeed, after the lock is released. */
async function whileLocked<T>(what: string, write: () => Promise<T>): Promise<T> {
  const held = await holdWriteLock();
  const t0 = Date.now();
  const r = await write();
  const waited = Date.now() - t0;
  await held.done;
  // It waited for the lock (a refusal comes back in a few milliseconds).
  expect(waited, `${what}: ${JSON.stringify(r)}`).toBeGreaterThan(HOLD_MS / 2);
  return r;
}

it('over HTTP, labels, a skip, an undo and a review limit wait for an import to commit', async () => {
  const target = { prediction: ids[0] };
  for (const [method, params] of [
    ['annotate', { target, annotator: 'ada', labels: ['other.other'] }],
    ['annotate', { target, annotator: 'ada', note: 'a note' }],
    ['skipAnnotation', { target: { prediction: ids[1] }, annotator: 'ada' }],
    ['undoAnnotation', { annotator: 'ada' }],
    ['setReviewQuota', { set: 'ns', run: 'm', reviews: 3, author: 'ada' }],
  ] as const) {
    const r = await whileLocked(method, () => call(method, params));
    expect(r, `${method} ${JSON.stringify(params)}`).toMatchObject({ ok: true });
  }
}, 60_000);

it('from the CLI, annotate waits for an import to commit', async () => {
  const r = await whileLocked('annotate', () =>
    cli(['annotate', '--db', db, '--prediction', String(ids[2]), '--label', 'other.other', '--annotator', 'bob']),
  );
  expect(r.out).toContain('other.other');
  expect(r.code).toBe(0);
}, 60_000);
