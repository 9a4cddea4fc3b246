// runCompletions(): the figures of its summary and progress, the checks made before any item
// is read (`stepscope predict` runs it on no items to check its settings), a run started with
// its signal already aborted, and a sink that failed while another answer was arriving.
import { describe, expect, it } from 'vitest';
import { runCompletions, type ModelSettings, type RunProgress } from '../../src/model/index.js';
import { deferred, fakeServers } from './helpers.js';

const serve = fakeServers();
const settings = (endpoint: string, more: Partial<ModelSettings> = {}): ModelSettings => ({
  endpoint,
  model: 'fake-model',
  ...more,
});
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `i${i}`, prompt: `p${i}` }));

describe('figures', () => {
  it('counts done as answered + failed, and the rate from the elapsed time it reports', async () => {
    const { url } = await serve({ default: 'ok', answers: { p2: { fault: 'status', status: 400 } } });
    const progress: RunProgress[] = [];
    const t0 = performance.now();
    const summary = await runCompletions(
      items(5),
      { settings: settings(url), concurrency: 1, onProgress: (p) => progress.push(p) },
      () => {},
    );
    const span = performance.now() - t0;
    expect(summary).toMatchObject({ outcome: 'complete', total: 5, answered: 4, failed: 1, done: 5, unanswered: 1 });
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
    expect(summary.elapsedMs).toBeGreaterThan(0);
    expect(summary.elapsedMs).toBeLessThanOrEqual(span);
    expect(summary.perSecond).toBeGreaterThan(0);
    expect(summary.perSecond).toBe((4 * 1000) / summary.elapsedMs);
  });

  it('leaves unanswered unknown when the number of items is', async () => {
    const { url } = await serve({ default: 'ok' });
    function* three() {
      yield* items(3);
    }
    const summary = await runCompletions(three(), { settings: settings(url) }, () => {});
    expect(summary).toMatchObject({ outcome: 'complete', total: null, answered: 3, unanswered: null });
  });
});

describe('before any item', () => {
  it.each([
    [{ model: '' }, {}, /^no model name given/],
    [{ endpoint: 'ftp://gpu-box/v1' }, {}, /must be an http:\/\/ or https:\/\/ URL/],
    [{ apiKeyEnv: 'NOT_SET_ANYWHERE' }, {}, /NOT_SET_ANYWHERE is not set/],
    [{}, { concurrency: 0 }, /^concurrency must be a whole number ≥ 1, not 0$/],
  ])('refuses %j %j even with no items, blaming no item', async (bad, more, message) => {
    const { url, requests } = await serve({ default: 'ok' });
    for (const list of [[], items(3)]) {
      const summary = await runCompletions(list, { settings: settings(url, bad), env: {}, ...more }, () => {});
      expect(summary).toMatchObject({ outcome: 'stopped', answered: 0, failed: 0, failures: [] });
      expect(summary.error?.code).toBe('config');
      expect(summary.error?.message).toMatch(message);
    }
    expect(requests).toHaveLength(0);
  });

  it('sends nothing when the signal is aborted before the start', async () => {
    const { url, requests } = await serve({ default: 'ok' });
    const answered: string[] = [];
    const summary = await runCompletions(
      items(4),
      { settings: settings(url), signal: AbortSignal.abort() },
      (item) => void answered.push(item.id),
    );
    expect(summary).toMatchObject({ outcome: 'aborted', answered: 0, unanswered: 4 });
    expect([answered, requests.length]).toEqual([[], 0]);
  });
});

describe('a failing sink', () => {
  it('is handed no answer that completes after it failed', async () => {
    // b's answer has arrived but is held in this process until a's sink has thrown: the
    // run's abort can no longer cancel it, so only the run's own check keeps it from the sink.
    const { url } = await serve({ answer: ({ prompt }) => prompt.toUpperCase() });
    const bArrived = deferred();
    const release = deferred();
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const res = await realFetch(input, init);
      const text = await res.text();
      if (JSON.parse(String(init?.body)).prompt === 'b') {
        bArrived.resolve();
        await release.promise;
      }
      return new Response(text, { status: res.status, headers: res.headers });
    };
    const handed: string[] = [];
    let error: unknown;
    try {
      const run = runCompletions(
        [
          { id: 'a', prompt: 'a' },
          { id: 'b', prompt: 'b' },
        ],
        { settings: settings(url), concurrency: 2 },
        async (item) => {
          handed.push(item.id);
          await bArrived.promise;
          setImmediate(() => release.resolve());
          throw new Error('disk full');
        },
      );
      error = await run.then(
        () => null,
        (e: unknown) => e,
      );
    } finally {
      globalThis.fetch = realFetch;
    }
    // The sink's own error, not a stand-in for it.
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('disk full');
    expect(handed).toEqual(['a']);
  });
});
