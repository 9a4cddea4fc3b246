// getSkeleton's bytes form over HTTP (Accept: application/octet-stream), what the explorer's
// tree worker fetches: the same skeleton as the JSON method for CRUXEval's traces and a
// trace cut by the event limit, also where the corpus keeps no packed row; the API's refusals
// (a bad id, a missing token) in the API's JSON shape.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSkeleton, decodeSkeletonBytes, type SkeletonWire } from '../../src/contract/index.js';
import { startServer, type Running } from '../../src/server/listen.js';
import { openCorpus } from '../../src/store/corpus.js';
import { cruxevalRecording } from '../semantics/helpers.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';

let db: string;
let bare: string;
let served: Running;
let servedBare: Running;
let locked: Running;
let ids: number[];
let cutId: number;

beforeAll(async () => {
  const dir = tempDir('stepscope-skeleton-bytes-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(cruxevalRecording());
  await c.ingest(writeTraces(dir, 'cut.jsonl', [{ name: 'cut_by_limit', n: 40, exit: 'never' }]));
  ids = c.traceIds();
  cutId = c.listTraces({ search: 'cut_by_limit' }).rows[0].id;
  c.close();
  // The same corpus without its kept skeletons (as if the rows were dropped): read from the events.
  bare = join(dir, 'bare.db');
  const raw = new Database(db, { readonly: true });
  await raw.backup(bare);
  raw.close();
  const w = new Database(bare);
  w.exec('DELETE FROM trace_skeletons');
  w.close();
  [served, servedBare, locked] = await Promise.all([
    startServer({ db, port: 0 }),
    startServer({ db: bare, port: 0 }),
    startServer({ db, port: 0, token: 'sekrit-token-2' }),
  ]);
}, 600_000);
afterAll(async () => {
  await Promise.all([served?.close(), servedBare?.close(), locked?.close()]);
  cleanTempDirs();
});

const post = (base: string, traceId: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}api/getSkeleton`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ traceId }),
  });
const BYTES = { Accept: 'application/octet-stream' };

async function viaJson(base: string, id: number) {
  const r = (await (await post(base, id)).json()) as { ok: boolean; value: SkeletonWire };
  expect(r.ok).toBe(true);
  return decodeSkeleton(r.value);
}

async function viaBytes(base: string, id: number) {
  const res = await post(base, id, BYTES);
  expect(res.headers.get('content-type')).toBe('application/octet-stream');
  return decodeSkeletonBytes(new Uint8Array(await res.arrayBuffer()));
}

const plain = (s: ReturnType<typeof decodeSkeleton>) => ({
  ...s,
  kind: [...s.kind],
  parent: [...s.parent],
  frame: [...s.frame],
  line: [...s.line],
  func: [...s.func],
});

describe('getSkeleton as bytes', () => {
  it('decodes to the JSON skeleton on CRUXEval traces and a trace cut by the event limit', async () => {
    expect(ids.length).toBe(801);
    // Every 4th task (200 of the 800: all shapes of CRUXEval, in a quarter of the requests) and the cut trace.
    for (const id of [...ids.filter((_, j) => j % 4 === 0), cutId])
      expect(plain(await viaBytes(served.url, id)), `trace ${id}`).toEqual(plain(await viaJson(served.url, id)));
    const cut = await viaBytes(served.url, cutId);
    expect(cut.count).toBeGreaterThan(80);
  }, 300_000);

  it('is the same where the corpus keeps no packed skeleton (packed from the events)', async () => {
    for (const id of [ids[0], ids[400], cutId])
      expect(plain(await viaBytes(servedBare.url, id))).toEqual(plain(await viaJson(served.url, id)));
  });

  it('refuses an unknown or malformed id in the API JSON shape', async () => {
    const res = await post(served.url, 999_999, BYTES);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ ok: false, error: { code: 'not-found', message: 'no trace with id 999999' } });
    const bad = (await (await post(served.url, 'x', BYTES)).json()) as { ok: boolean; error: { code: string } };
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });

  it('needs the token like every API call', async () => {
    const res = await post(locked.url, ids[0], BYTES);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const ok = await post(locked.url, ids[0], { ...BYTES, Authorization: 'Bearer sekrit-token-2' });
    expect(ok.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('a method without a bytes form answers its JSON as before', async () => {
    const res = await fetch(`${served.url}api/getTrace`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...BYTES },
      body: JSON.stringify({ id: ids[0] }),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });
});
