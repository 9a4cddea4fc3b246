// runCompletions(): many prompts, a concurrency limit, answers handed over one by one,
// stopping cleanly (Ctrl+C, a dead server, a failing sink) without losing an answer.
import { EventEmitter, getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  abortOnInterrupt,
  runCompletions,
  type Completion,
  type ModelSettings,
  type RunItem,
  type RunProgress,
} from '../../src/model/index.js';
import { closedPort, deferred, quick, fakeServers, vectorPairs, vectorTexts, type Pair } from './helpers.js';

const serve = fakeServers();
const settings = (endpoint: string, more: Partial<ModelSettings> = {}): ModelSettings => ({
  endpoint,
  model: 'fake-model',
  ...more,
});

const pairs = vectorPairs();
const target = new Map(pairs.map((p) => [p.id, p.target]));

/** A sink that keeps what it is given, as a caller committing to SQLite would. */
function store() {
  const answers = new Map<string, string[]>();
  const sink = (item: RunItem, c: Completion) => {
    if (answers.has(item.id)) throw new Error(`${item.id} delivered twice`);
    answers.set(item.id, c.texts);
  };
  return { answers, sink };
}

describe('a run', () => {
  it('answers every reference prompt with its target, each delivered once', async () => {
    const { url } = await serve({ continuations: vectorTexts() });
    const { answers, sink } = store();
    const progress: RunProgress[] = [];
    const summary = await runCompletions(
      pairs,
      { settings: settings(url), concurrency: 4, onProgress: (p) => progress.push(p) },
      sink,
    );
    expect(summary).toMatchObject({
      outcome: 'complete',
      total: pairs.length,
      answered: pairs.length,
      failed: 0,
      unanswered: 0,
      error: null,
    });
    for (const p of pairs) expect(answers.get(p.id), p.id).toEqual([p.target]);
    expect(progress.map((p) => p.done)).toEqual(pairs.map((_, i) => i + 1));
    expect(progress.at(-1)).toMatchObject({ total: pairs.length, answered: pairs.length, inFlight: 0 });
  });

  it('pulls items lazily from a generator, k samples each', async () => {
    const { url } = await serve({ answer: ({ prompt, sample }) => `${prompt.length}:${sample}` });
    const pulled: number[] = [];
    function* items() {
      for (let i = 0; i < 12; i++) {
        pulled.push(i);
        yield { id: `i${i}`, prompt: 'x'.repeat(i + 1) };
      }
    }
    const { answers, sink } = store();
    const summary = await runCompletions(
      items(),
      { settings: settings(url), samples: 3, total: 12, concurrency: 2 },
      sink,
    );
    expect(summary).toMatchObject({ outcome: 'complete', total: 12, answered: 12, samplesMode: 'native' });
    expect(answers.get('i4')).toEqual(['5:0', '5:1', '5:2']);
    expect(pulled).toHaveLength(12);
  });

  it.each([
    ['n taken', {}, 1],
    ['n ignored: samples as separate requests', { ignoreN: true }, 3],
  ])('never has more requests in flight than the concurrency (%s)', async (_, mode, samples) => {
    const C = 3;
    // Counted in this process, from fetch() to the end of the body: requests the run has
    // out at once, whatever the network does.
    let out = 0;
    let most = 0;
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      most = Math.max(most, ++out);
      try {
        const res = await realFetch(...args);
        return new Response(await res.text(), { status: res.status, headers: res.headers });
      } finally {
        out--;
      }
    };
    // The server holds requests until C of them wait together, so a run that sends more
    // than C has them all out at once.
    let held: (() => void)[] = [];
    try {
      const { url } = await serve({
        ...mode,
        answer: ({ prompt }) =>
          new Promise<string>((answer) => {
            held.push(() => answer(prompt.toUpperCase()));
            if (held.length === C) {
              const go = held;
              held = [];
              go.forEach((f) => f());
            }
          }),
      });
      const items = Array.from({ length: 9 }, (_, i) => ({ id: `i${i}`, prompt: `p${i}` }));
      const { answers, sink } = store();
      const summary = await runCompletions(items, { settings: settings(url), concurrency: C, samples }, sink);
      expect(summary.answered).toBe(9);
      expect(answers.get('i7')).toEqual(Array(samples).fill('P7'));
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(most).toBe(C);
  });
  it('leaves nothing attached to the caller’s signal (a long run must not grow)', async () => {
    const { url } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 500, times: 3 }] });
    const ctl = new AbortController();
    const items = Array.from({ length: 30 }, (_, i) => ({ id: `i${i}`, prompt: `p${i}` }));
    const summary = await runCompletions(
      items,
      { settings: settings(url), concurrency: 4, signal: ctl.signal, backoff: quick },
      () => {},
    );
    expect(summary).toMatchObject({ answered: 30, retries: 3 });
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(0);
  });

  it('counts completions that stopped at max tokens', async () => {
    const cut = JSON.stringify({
      choices: [{ index: 0, text: '<|line_sep|><|arg_sep|>{"n": "1', finish_reason: 'length' }],
    });
    const { url } = await serve({ default: 'ok', faults: [{ fault: 'raw', body: cut, times: 2 }] });
    const items = Array.from({ length: 5 }, (_, i) => ({ id: `i${i}`, prompt: `p${i}` }));
    const { answers, sink } = store();
    const summary = await runCompletions(items, { settings: settings(url), concurrency: 1 }, sink);
    expect(summary).toMatchObject({ outcome: 'complete', answered: 5, truncated: 2 });
    expect(answers.get('i0')).toEqual(['<|line_sep|><|arg_sep|>{"n": "1']);
  });
});

describe('stopping', () => {
  /**
   * Ten items from a generator; the first four are answered, the rest stall until the run is
   * stopped. Resolves once four answers are in and two requests hang.
   */
  async function halfAnsweredRun(signal: AbortSignal) {
    const items: Pair[] = pairs.slice(0, 10);
    const stalled = items.slice(4).map((p) => p.prompt);
    const twoStalled = deferred();
    let stalls = 0;
    const server = await serve({
      answer: ({ prompt }) => {
        if (!stalled.includes(prompt)) return target.get(items.find((p) => p.prompt === prompt)!.id)!;
        if (++stalls === 2) twoStalled.resolve();
        return new Promise<string>(() => {});
      },
    });
    const source = { pulled: 0, closed: false };
    function* generate() {
      try {
        for (const p of items) {
          source.pulled++;
          yield p;
        }
      } finally {
        source.closed = true;
      }
    }
    const { answers, sink } = store();
    const fourAnswered = deferred();
    const options = {
      settings: settings(server.url, { timeoutMs: 600_000 }),
      concurrency: 2,
      total: items.length,
      signal,
    };
    const run = runCompletions(generate(), options, (item, c) => {
      sink(item, c);
      if (answers.size === 4) fourAnswered.resolve();
    });
    await Promise.all([fourAnswered.promise, twoStalled.promise]);
    return { items, answers, run, server, source };
  }

  it('on abort: requests in flight are cancelled, every answer already in is kept, and a second run finishes the rest', async () => {
    const ctl = new AbortController();
    const { items, answers, run, server, source } = await halfAnsweredRun(ctl.signal);
    ctl.abort();
    const summary = await run;
    expect(summary).toMatchObject({ outcome: 'aborted', answered: 4, failed: 0, unanswered: 6, error: null });
    expect([...answers.keys()].sort()).toEqual(
      items
        .slice(0, 4)
        .map((p) => p.id)
        .sort(),
    );
    for (const [id, texts] of answers) expect(texts).toEqual([target.get(id)]);
    expect(server.requests).toHaveLength(6); // 4 answered + 2 stalled; none started after the abort
    expect(source).toEqual({ pulled: 6, closed: true }); // the rest was never read, and the source was closed
    await server.close();

    // Resumption: the caller leaves out what it already has.
    const healthy = await serve({ continuations: vectorTexts() });
    const rest = items.filter((p) => !answers.has(p.id));
    const again = await runCompletions(
      rest,
      { settings: settings(healthy.url) },
      (item, c) => void answers.set(item.id, c.texts),
    );
    expect(again).toMatchObject({ outcome: 'complete', answered: 6 });
    expect(healthy.requests).toHaveLength(6);
    for (const p of items) expect(answers.get(p.id), p.id).toEqual([p.target]);
  });

  it('on Ctrl+C: the first stops the run cleanly, a second quits with 130', async () => {
    const emitter = new EventEmitter();
    const exits: number[] = [];
    let told = 0;
    const interrupt = abortOnInterrupt({ emitter, exit: (code) => void exits.push(code), onFirst: () => told++ });
    const { answers, run } = await halfAnsweredRun(interrupt.signal);
    emitter.emit('SIGINT');
    const summary = await run;
    expect(summary.outcome).toBe('aborted');
    expect(answers.size).toBe(4);
    expect([told, exits]).toEqual([1, []]);
    emitter.emit('SIGINT');
    expect(exits).toEqual([130]);
    interrupt.dispose();
    expect(emitter.listenerCount('SIGINT')).toBe(0);
  });

  it('waits for a sink that is still committing when the run is aborted', async () => {
    const { url } = await serve({ default: 'ok' });
    const inSink = deferred();
    const commit = deferred();
    const ctl = new AbortController();
    const committed: string[] = [];
    let settled = false;
    const run = runCompletions(
      [
        { id: 'a', prompt: 'a' },
        { id: 'b', prompt: 'b' },
      ],
      { settings: settings(url), concurrency: 1, signal: ctl.signal },
      async (item) => {
        inSink.resolve();
        await commit.promise;
        committed.push(item.id);
      },
    ).then((s) => ((settled = true), s));
    await inSink.promise;
    ctl.abort();
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    commit.resolve();
    const summary = await run;
    expect(committed).toEqual(['a']);
    expect(summary).toMatchObject({ outcome: 'aborted', answered: 1, unanswered: 1 });
  });

  it('stops at once, without trying every item, when the server is down', async () => {
    const port = await closedPort();
    const items = Array.from({ length: 50 }, (_, i) => ({ id: `i${i}`, prompt: `p${i}` }));
    const { answers, sink } = store();
    const summary = await runCompletions(
      items,
      { settings: settings(`http://127.0.0.1:${port}`, { retries: 1 }), concurrency: 2, backoff: quick },
      sink,
    );
    expect(summary.outcome).toBe('stopped');
    expect(summary.error?.code).toBe('unreachable');
    expect(summary.error?.message).toMatch(
      new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${port}/v1/completions: connection refused`),
    );
    expect(summary.failures.length).toBeLessThanOrEqual(2);
    expect(summary.unanswered).toBe(50);
    expect(answers.size).toBe(0);
  });

  it('goes on past an item the server refuses, and lists it', async () => {
    const items = pairs.slice(0, 6);
    const { url } = await serve({
      continuations: vectorTexts(),
      answers: { [items[2].prompt]: { fault: 'status', status: 400, body: { error: { message: 'prompt too long' } } } },
    });
    const { answers, sink } = store();
    const told: string[] = [];
    const onFailure = (item: RunItem, e: Error) => told.push(`${item.id}: ${e.message}`);
    const summary = await runCompletions(items, { settings: settings(url), concurrency: 1, onFailure }, sink);
    expect(summary).toMatchObject({ outcome: 'complete', answered: 5, failed: 1, unanswered: 1 });
    expect(told).toEqual([`${items[2].id}: the server answered HTTP 400 for ${url}/v1/completions: prompt too long`]);
    expect(summary.failures.map((f) => [f.id, f.error.status])).toEqual([[items[2].id, 400]]);
    expect(answers.has(items[2].id)).toBe(false);
    expect(answers.get(items[3].id)).toEqual([items[3].target]);
  });

  it('stops after too many failures in a row', async () => {
    const { url, requests } = await serve({ default: 'ok', faults: [{ fault: 'status', status: 500, times: 1000 }] });
    const items = Array.from({ length: 40 }, (_, i) => ({ id: `i${i}`, prompt: `p${i}` }));
    const summary = await runCompletions(
      items,
      { settings: settings(url, { retries: 0 }), concurrency: 1, maxFailuresInARow: 3 },
      () => {},
    );
    expect(summary.outcome).toBe('stopped');
    expect(summary.error?.message).toMatch(
      /^stopped after 3 failures in a row; the last: the server answered HTTP 500/,
    );
    expect(summary.failed).toBe(3);
    expect(requests).toHaveLength(3);
  });

  it('refuses bad settings without sending anything', async () => {
    const { url, requests } = await serve({ default: 'ok' });
    const summary = await runCompletions(
      [{ id: 'a', prompt: 'a' }],
      { settings: settings(url, { apiKeyEnv: 'NOT_SET_ANYWHERE' }), env: {} },
      () => {},
    );
    expect(summary).toMatchObject({ outcome: 'stopped', answered: 0, unanswered: 1 });
    expect(summary.error?.code).toBe('config');
    expect(requests).toHaveLength(0);
  });

  it('rethrows the sink’s error once the requests in flight have settled, and hands over nothing more', async () => {
    const server = await serve({ default: 'ok' });
    const items = Array.from({ length: 20 }, (_, i) => ({ id: `i${i}`, prompt: `p${i}` }));
    let calls = 0;
    const run = runCompletions(items, { settings: settings(server.url), concurrency: 4 }, () => {
      if (++calls === 3) throw new Error('disk full');
    });
    await expect(run).rejects.toThrow('disk full');
    expect(calls).toBe(3);
    expect(server.stats.inFlight).toBe(0);
    expect(server.requests.length).toBeLessThan(20);
  });
});
