// The desktop app's API process, under plain Node: main's client (main/api-client.ts) and the
// process's side (src/api/host/api-process.ts) talking over a fake port that copies every
// message as Electron's would, with the real worker pool and corpus behind it.
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApiProcess } from '../../src/api/host/index.js';
import type { PoolOptions } from '../../src/api/host/pool.js';
import type { FromApiProcess, ToApiProcess } from '../../src/api/host/protocol.js';
import { openCorpus } from '../../src/store/corpus.js';
import { ApiClient, type ApiProcess } from '../../main/api-client.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';

let dir: string;
let db: string;
let other: string;

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir('stepscope-api-process-');
  db = join(dir, 'a.db');
  other = join(dir, 'b.db');
  for (const [path, name] of [
    [db, 'sum_3'],
    [other, 'other'],
  ]) {
    const c = openCorpus(path, { create: true });
    await c.ingest(writeTraces(dir, `${name}.jsonl`, [{ name }]));
    c.close();
  }
  writeFileSync(join(dir, 'not-a-corpus.db'), 'hello');
});
afterAll(cleanTempDirs);

/** An API process in this one: messages cross as structured clones, a turn of the event loop later. */
class FakeProcess extends EventEmitter implements ApiProcess {
  private readonly inbox: ((m: ToApiProcess) => void)[] = [];
  private dead = false;
  sent: ToApiProcess[] = [];

  constructor() {
    super();
    const toMain = (m: FromApiProcess) => {
      const copy = structuredClone(m);
      setImmediate(() => this.dead || this.emit('message', copy));
    };
    serveApiProcess({ postMessage: toMain, onMessage: (f) => this.inbox.push(f) });
  }

  postMessage(m: ToApiProcess): void {
    this.sent.push(m);
    const copy = structuredClone(m);
    setImmediate(() => this.inbox.forEach((f) => f(copy)));
  }

  /** Ends it as a crash would: nothing more reaches main but `exit` (its pool is closed behind the scenes). */
  kill(): boolean {
    this.dead = true;
    this.inbox.forEach((f) => f({ type: 'close', id: 0 }));
    setImmediate(() => this.emit('exit', 9));
    return true;
  }
}

function client(): { api: ApiClient; forks: FakeProcess[] } {
  const forks: FakeProcess[] = [];
  const api = new ApiClient(() => {
    const p = new FakeProcess();
    forks.push(p);
    return p;
  });
  return { api, forks };
}

const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe("the API process and main's client", () => {
  it('before any corpus is open, calls say so', async () => {
    const { api } = client();
    expect(json(await api.call('listTraces', {}))).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'no corpus is open (File › Open Corpus…)' },
    });
    api.close();
  });

  it('opens a corpus and answers calls from it, validated as the server validates them', async () => {
    const { api } = client();
    await api.open(db);
    expect(json(await api.call('listTraces', {})).value.rows[0].name).toBe('sum_3');
    expect(json(await api.call('getSkeleton', { traceId: 1 })).value.count).toBe(12);
    expect(json(await api.call('getTrace', { id: 'x' })).error.message).toMatch(/^getTrace\.id: expected an integer/);
    expect(json(await api.call('dropAll', {})).error).toEqual({
      code: 'bad-input',
      message: 'unknown API method "dropAll"',
    });
    api.close();
  });

  it("a file that cannot be opened is refused with the store's words and leaves the open corpus served", async () => {
    const { api } = client();
    await api.open(db);
    await expect(api.open(join(dir, 'not-a-corpus.db'))).rejects.toMatchObject({ code: 'not-corpus' });
    expect(json(await api.call('listTraces', {})).value.rows[0].name).toBe('sum_3');
    await api.open(other);
    expect(json(await api.call('listTraces', {})).value.rows[0].name).toBe('other');
    api.close();
  });

  it('when the API process dies, waiting calls are answered and the next call starts another on the same corpus', async () => {
    const { api, forks } = client();
    await api.open(other);
    const waiting = api.call('getSkeleton', { traceId: 1 });
    forks[0].kill();
    expect(json(await waiting)).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message: 'getSkeleton: the API process stopped (exit code 9); try again, a new one will start',
      },
    });
    expect(json(await api.call('listTraces', {})).value.rows[0].name).toBe('other');
    expect(forks).toHaveLength(2);
    expect(forks[1].sent[0]).toMatchObject({ type: 'open', path: other });
    api.close();
  });
});

/**
 * The API process's side alone, over a port that keeps what it posts: the protocol's messages
 * as they are, and the pool behind each corpus seen through the fake API's `holdOn`, a call
 * that stays in flight (until a file that is never written appears, five seconds) unless its
 * pool is closed under it.
 */
function raw(options: Omit<PoolOptions, 'path'> = {}) {
  const inbox: FromApiProcess[] = [];
  let send: (m: ToApiProcess) => void = () => {};
  // Every reply() waiting is woken by each message, and looks for its own.
  const waiting: (() => void)[] = [];
  const wakeAll = () => waiting.splice(0).forEach((w) => w());
  serveApiProcess({ postMessage: (m) => (inbox.push(m), wakeAll()), onMessage: (f) => (send = f) }, options);
  let id = 0;
  /** The message answering request `want`. */
  const reply = async (want: number): Promise<FromApiProcess> => {
    for (;;) {
      const at = inbox.findIndex((m) => m.id === want);
      if (at >= 0) return inbox.splice(at, 1)[0];
      await new Promise<void>((r) => waiting.push(r));
    }
  };
  return {
    open: (path: string) => (send({ type: 'open', id: ++id, path }), reply(id)),
    close: () => (send({ type: 'close', id: ++id }), reply(id)),
    call: async (method: string, params: unknown) => {
      send({ type: 'call', id: ++id, method, params });
      const m = await reply(id);
      return m.type === 'answer' ? json(m.body) : m;
    },
  };
}

const fakeApi = async (): Promise<PoolOptions['api']> => {
  const file = resolve(import.meta.dirname, '../api/fixtures/pool-api.mjs');
  return { file, module: (await import(file)).apiModule };
};

describe("the API process's messages", () => {
  it('replacing the corpus closes the pool that served the one before: a call still running on it is answered unavailable at once', async () => {
    const p = raw({ api: await fakeApi() });
    expect(await p.open(db)).toEqual({ type: 'done', id: 1 });
    const held = p.call('holdOn', { traceId: 1, file: join(dir, 'never-written') });
    expect(await p.open(other)).toEqual({ type: 'done', id: 3 });
    expect(await held).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    await p.close();
  });

  it('close: done, the pool closed under a running call, and calls after it told no corpus is open', async () => {
    const p = raw({ api: await fakeApi() });
    await p.open(db);
    const held = p.call('holdOn', { traceId: 1, file: join(dir, 'never-written') });
    expect(await p.close()).toEqual({ type: 'done', id: 3 });
    expect(await held).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(await p.call('who', {})).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'no corpus is open (File › Open Corpus…)' },
    });
    // Closing with nothing open is done too.
    expect(await p.close()).toEqual({ type: 'done', id: 5 });
  });

  it("a corpus that fails to open for another reason than the store's: `failed`, internal, in words that say what was being done", async () => {
    const p = raw({ workerFile: join(dir, 'no-such-worker.js') });
    const m = await p.open(db);
    expect(m).toMatchObject({ type: 'failed', id: 1, error: { code: 'internal' } });
    expect((m as Extract<FromApiProcess, { type: 'failed' }>).error.message).toMatch(
      /^cannot open the corpus: the API worker could not start: .*no-such-worker\.js/,
    );
  });
});
