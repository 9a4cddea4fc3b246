// One worker of the pool (src/api/host/slot.ts), alone, over tiny worker scripts: its heap is
// capped (a runaway load ends the worker, not the process); however it ends (an error, out of
// memory, the explorer closing), every call still waiting is answered `unavailable` in words
// that say why; one that ends before it is ready says why it could not start.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Slot } from '../../src/api/host/slot.js';
import type { WorkerConfig } from '../../src/api/host/protocol.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

/**
 * Answers each call by its method: `heap` with its heap limit in MiB; `throw` throws (the
 * worker ends with that error); `oom` ends it as Node ends a worker out of memory (the error's
 * code; a real one takes seconds of CPU); `hang` never answers.
 */
const ANSWERS = `
import { parentPort } from 'node:worker_threads';
import v8 from 'node:v8';
const answer = (id, value) => parentPort.postMessage({ type: 'answer', id, body: new TextEncoder().encode(JSON.stringify({ ok: true, value })) });
parentPort.on('message', (m) => {
  if (m.method === 'heap') answer(m.id, v8.getHeapStatistics().heap_size_limit / 2 ** 20);
  if (m.method === 'throw') throw new Error('boom');
  if (m.method === 'oom') throw Object.assign(new Error('Worker terminated due to reaching memory limit'), { code: 'ERR_WORKER_OUT_OF_MEMORY' });
});
parentPort.postMessage({ type: 'ready' });
`;

let answers: string;
let exits: string;
const slots: Slot[] = [];

beforeAllOrFail(() => {
  const dir = tempDir('stepscope-slot-');
  answers = join(dir, 'answers.mjs');
  exits = join(dir, 'exits.mjs');
  writeFileSync(answers, ANSWERS);
  writeFileSync(exits, 'process.exit(3);\n');
});
afterAll(async () => {
  await Promise.all(slots.map((s) => s.close()));
  cleanTempDirs();
});

const MiB = 2 ** 20;

/** A started slot over `file`, and the slots whose end it reported. */
function slot(file: string, cacheBytes = 64 * MiB): { s: Slot; ended: Slot[] } {
  const ended: Slot[] = [];
  const config: WorkerConfig = { path: 'unused.db', access: 'read', cacheBytes };
  const s = new Slot('trace', file, config, (dead) => ended.push(dead));
  slots.push(s);
  return { s, ended };
}

const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));
const answerOf = async (s: Slot, method: string) => json((await s.call(method, {})).body);
const stopped = (method: string, why: string) => ({
  ok: false,
  error: {
    code: 'unavailable',
    message: `${method}: the worker running it stopped (${why}); try again, a new one will start.`,
  },
});

describe('a worker slot', () => {
  it("caps its worker's heap at twice the cache budget and 512 MiB more", async () => {
    const { s } = slot(answers, 64 * MiB);
    await s.ready;
    const limit = (await answerOf(s, 'heap')).value;
    // 640 MiB for the old generation, plus the young generation's room (48 MiB on Node 20;
    // more on later versions). Uncapped, V8's default is sized to the machine (GiBs).
    expect(limit).toBeGreaterThanOrEqual(640);
    expect(limit).toBeLessThan(640 + 256);
  });

  it('answers every call waiting on a worker that failed `unavailable`, naming the error, and reports its end once', async () => {
    const { s, ended } = slot(answers);
    await s.ready;
    const [hung, thrown] = await Promise.all([answerOf(s, 'hang'), answerOf(s, 'throw')]);
    expect(hung).toEqual(stopped('hang', 'it failed: boom'));
    expect(thrown).toEqual(stopped('throw', 'it failed: boom'));
    expect(ended).toEqual([s]);
    expect(s.busy).toBe(0);
  });

  it('says a worker that ran out of memory did, and its limit', async () => {
    const { s, ended } = slot(answers, 0);
    await s.ready;
    expect(await answerOf(s, 'oom')).toEqual(stopped('oom', 'it ran out of memory (its limit is 512 MiB)'));
    expect(ended).toEqual([s]);
  });

  it('answers a call still waiting when the explorer closes with that, not with "try again"', async () => {
    const { s } = slot(answers);
    await s.ready;
    const hung = answerOf(s, 'hang');
    await s.close();
    expect(await hung).toEqual({ ok: false, error: { code: 'unavailable', message: 'hang: the explorer is closing' } });
  });

  it('says why a worker that ended before it was ready could not start', async () => {
    const { s, ended } = slot(exits);
    await expect(s.ready).rejects.toThrow('the API worker could not start: it exited with code 3');
    expect(ended).toEqual([s]);
  });
});
