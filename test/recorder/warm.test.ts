/**
 * The warm recorder (src/recorder/warm.ts) as the API server and `evalset create` use it: what it
 * stores equals what a recorder of its own stores; a warm run that does not reproduce the origin
 * (forced here by the recorder's test hook, as a forked child's object address numbers may) is
 * recorded again cold and that trace stored; a recorder that dies is replaced; the interpreter
 * behind the configured executable (a pyenv shim on a user's PATH) is learnt from the first hello
 * and started directly from then on, with the environment the shim gave, for recordings too.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCounterfactual } from '../../src/recorder/counterfactual.js';
import { pythonDir, pythonExecutable } from '../../src/recorder/python.js';
import {
  closeWarmRecorders,
  pythonCommand,
  resolvedPython,
  warmRecorder,
  WarmRecorder,
} from '../../src/recorder/warm.js';
import { createWriteApi } from '../../src/api/handlers/index.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

const SRC =
  'class A:\n    pass\n\ndef f(n):\n    a = A()\n    acc = [a]\n    for i in range(n):\n        acc.append(i)\n    return acc\n';

let dir: string;
let corpus: Corpus;
let origin: number;
let seq: number;
let made = 0;
const recorders: WarmRecorder[] = [];

function record(command: string, env: NodeJS.ProcessEnv, name: string): string {
  const prog = join(dir, 'prog.py');
  writeFileSync(prog, SRC);
  const out = join(dir, `${name}.jsonl`);
  const r = spawnSync(command, ['-m', 'stepscope_recorder', 'record', prog, '-o', out, '--call', 'f(3)'], {
    env,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return out;
}

const events = (id: number) => corpus.getEvents(id);

/** A counterfactual of the origin with acc set to a new list each time (a new trace each time). */
async function edit(warm: WarmRecorder | false) {
  let how: { warm: boolean; fallback: string | null } | undefined;
  const value = `[${made++}]`;
  const r = await recordCounterfactual(
    corpus,
    { trace: origin, seq, set: { acc: value } },
    { warm, how: (h) => (how = h) },
  );
  return { r, how: how!, value };
}

function warm(): WarmRecorder {
  const w = new WarmRecorder(pythonExecutable());
  recorders.push(w);
  return w;
}

beforeAll(async () => {
  dir = tempDir('stepscope-warm-');
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  const { command, env } = pythonCommand();
  await corpus.ingest(record(command, env, 'origin'));
  origin = corpus.listTraces({ limit: 1 }).rows[0].id;
  seq = events(origin).find((e) => e.line === 8 && e.locals.i === '1')!.seq;
  expect(events(origin)[seq].locals.a).toBe('<__program__.A object at 0x1>');
});

afterAll(async () => {
  await Promise.all(recorders.map((r) => r.close()));
  await closeWarmRecorders();
  corpus.close();
  cleanTempDirs();
});

describe('the warm recorder', () => {
  it('stores what a recorder of its own stores, many times over one process', async () => {
    const w = warm();
    for (let k = 0; k < 3; k++) {
      const hot = await edit(w);
      expect(hot.how).toEqual({ warm: true, fallback: null });
      const cold = await recordCounterfactual(corpus, { trace: origin, seq, set: { acc: `[${made++}]` } });
      // The same edit made both ways is one trace (the second is found already stored) …
      const again = await recordCounterfactual(corpus, { trace: origin, seq, set: { acc: hot.value } });
      expect(again).toMatchObject({ trace: hot.r.trace, inserted: false });
      // … and the two ways agree on everything else.
      expect(hot.r.events).toBe(events(hot.r.trace).length);
      expect(events(hot.r.trace).slice(0, seq)).toEqual(events(cold.trace).slice(0, seq));
    }
    expect(w.starts).toBe(1);
  });

  it('records again cold a warm run that does not reproduce the origin, and stores the cold trace', async () => {
    process.env.STEPSCOPE_TEST_WARM_SKEW = '1';
    const w = warm();
    try {
      await w.start();
    } finally {
      delete process.env.STEPSCOPE_TEST_WARM_SKEW;
    }
    const hot = await edit(w);
    expect(hot.how.warm).toBe(false);
    expect(hot.how.fallback).toContain('event 0 differs in line');
    const cold = await recordCounterfactual(corpus, { trace: origin, seq, set: { acc: hot.value } });
    expect(cold).toMatchObject({ trace: hot.r.trace, inserted: false });
    expect(events(hot.r.trace).slice(0, seq)).toEqual(events(origin).slice(0, seq));
    expect(events(hot.r.trace)[seq].locals.acc).toBe(hot.value);
  });

  it('is replaced when it dies, and a request it held is recorded by a recorder of its own', async () => {
    const w = warm();
    await w.start();
    const first = w.pid!;
    process.kill(first, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await edit(w);
    expect(after.how.warm).toBe(true);
    expect(w.starts).toBe(2);
    expect(w.pid).not.toBe(first);
    // Killed while it records: that request is made the old way, and answered.
    const pending = edit(w);
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.kill(w.pid!, 'SIGKILL');
    const held = await pending;
    expect(events(held.r.trace)[seq].locals.acc).toBe(held.value);
  });

  it('learns the interpreter behind the configured one, and starts it directly with its environment', async () => {
    await warm().start();
    const r = resolvedPython()!;
    const real = spawnSync(pythonExecutable(), ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
    expect(r.executable).toBe(real.stdout.trim());
    const w = warm();
    await w.start();
    const argv0 = readFileSync(`/proc/${w.pid}/cmdline`, 'utf8').split('\0')[0];
    expect(argv0).toBe(r.executable);
    // A program recorded through the resolved command sees what it sees through the configured one.
    const { command, env } = pythonCommand();
    expect(command).toBe(r.executable);
    const old = process.env.PYTHONPATH;
    const plain = { ...process.env, PYTHONPATH: old ? `${pythonDir}:${old}` : pythonDir };
    const strip = (f: string) =>
      readFileSync(f, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .map((rec) => (rec.type === 'end' ? { ...rec, seconds: 0 } : rec));
    expect(strip(record(command, env, 'resolved'))).toEqual(strip(record(pythonExecutable(), plain, 'configured')));
    const seen = (cmd: string, e: NodeJS.ProcessEnv) =>
      spawnSync(cmd, ['-c', 'import os, json; print(json.dumps(dict(os.environ)))'], { env: e, encoding: 'utf8' })
        .stdout;
    const a = JSON.parse(seen(command, env)) as Record<string, string>;
    const b = JSON.parse(seen(pythonExecutable(), plain)) as Record<string, string>;
    expect(a).toEqual(b);
  });

  it("is started by the API's prepareCounterfactual, which answers at once, and then records", async () => {
    const api = createWriteApi(corpus);
    expect(() => api.prepareCounterfactual({ traceId: 9999 })).toThrow('no trace with id 9999');
    expect(api.prepareCounterfactual({ traceId: origin })).toBeNull(); // not a promise: nothing awaited
    const w = warmRecorder();
    expect(w.starts).toBe(1);
    await w.start();
    const r = await api.recordCounterfactual({ traceId: origin, seq, set: { acc: `[${made++}]` } });
    expect(r.inserted).toBe(true);
    expect(w.starts).toBe(1);
  });
});
