// The web mode under a big trace: other clients are answered while it loads, and what a
// request may ask for is capped with errors that say the limit and how to get more.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WALK_ACTIONS } from '../../src/contract/index.js';
import { encodeAnswer } from '../../src/api/host/index.js';
import { startServer, type Running } from '../../src/server/listen.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs, corpusFileOf } from '../store/fixtures.js';
import { answerOf } from '../api/call.js';

let server: Running;
let tight: Running;

beforeAll(async () => {
  ensureBuilt();
  // Trace 1: 100,006 events; trace 2: 10.
  const { dir, db } = await corpusFileOf('stepscope-big-', [
    { name: 'big', n: 50_000 },
    { name: 'small', n: 2 },
  ]);
  server = await startServer({ db, port: 0, uiDir: join(dir, 'no-ui') });
  tight = await startServer({ db, port: 0, uiDir: join(dir, 'no-ui'), cacheBytes: 4 * 2 ** 20 });
}, 300_000);
afterAll(async () => {
  await server?.close();
  await tight?.close();
  cleanTempDirs();
});

const post = async <M extends string>(base: string, method: M, params: unknown) =>
  answerOf<M>(
    await fetch(`${base}api/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(params),
    }),
  );

describe('a big trace loading', () => {
  it('does not hold up other clients: many small requests are answered before it is', async () => {
    // The small trace is held by a worker first: its calls must not queue behind the big load.
    expect((await post(server.url, 'getSkeleton', { traceId: 2 })).ok).toBe(true);
    let loaded = false;
    const big = post(server.url, 'getSkeleton', { traceId: 1 }).then((r) => ((loaded = true), r));
    // One small request after another until the big one lands. In one thread they would all
    // wait for it (at most the first, sent before the load began, could come back first).
    let answered = 0;
    const smalls: [string, unknown][] = [
      ['listTraces', {}],
      ['getTrace', { id: 1 }],
      ['getEvents', { traceId: 1, from: 0, to: 50 }],
      ['getSkeleton', { traceId: 2 }],
      ['walk', { traceId: 2, direction: 'forward', actions: ['step_into', 'step_over'] }],
    ];
    while (!loaded && answered < 400) {
      const [m, p] = smalls[answered % smalls.length];
      const r = await post(server.url, m, p);
      expect(r.ok, m).toBe(true);
      if (!loaded) answered++;
    }
    const sk = await big;
    expect(sk.ok && sk.value.count).toBe(100_006);
    expect(answered).toBeGreaterThanOrEqual(4);
  });
});

describe('caps', () => {
  it(`walks at most ${MAX_WALK_ACTIONS} actions, and says how to walk more`, async () => {
    const ok = await post(server.url, 'walk', {
      traceId: 1,
      direction: 'forward',
      actions: Array(MAX_WALK_ACTIONS).fill('step_into'),
    });
    expect(ok.ok).toBe(true);
    for (const n of [MAX_WALK_ACTIONS + 1, 500_000]) {
      const r = await post(server.url, 'walk', {
        traceId: 1,
        direction: 'forward',
        actions: Array(n).fill('step_into'),
      });
      expect(r).toEqual({
        ok: false,
        error: {
          code: 'bad-input',
          message: `walk.actions: expected at most 20,000 actions per walk (walk a longer trajectory with \`stepscope replay\`, which has no limit), got an array of ${n} items`,
        },
      });
    }
  });

  it('refuses a trace over the memory budget with the budget and how to raise it', async () => {
    const r = await post(tight.url, 'getSkeleton', { traceId: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('unavailable');
    expect(r.error.message).toMatch(
      /^trace 1 has 100,006 events, about \d+ MiB in memory: over the 4 MiB this explorer may hold\. Start it with a larger budget \(`stepscope serve --cache-mb N`\), or read the trace in windows/,
    );
    expect((await post(tight.url, 'getSkeleton', { traceId: 2 })).ok).toBe(true);
  });

  it('refuses an answer over the size limit with the limit and how to ask for less', () => {
    const answer = (m: string, value: unknown) =>
      JSON.parse(new TextDecoder().decode(encodeAnswer(m, { ok: true, value }, 1000)));
    expect(answer('getEvents', 'x'.repeat(900)).ok).toBe(true);
    expect(answer('getEvents', 'x'.repeat(1000))).toEqual({
      ok: false,
      error: {
        code: 'bad-input',
        message:
          'getEvents: the answer would be 1,022 bytes, over the limit of 1,000 bytes for one answer; ask for a smaller window (from, to).',
      },
    });
    // Counted in UTF-8 bytes, not characters.
    expect(answer('walk', 'é'.repeat(600)).error.message).toMatch(
      /^walk: the answer would be .*walk fewer actions, or walk the whole trajectory with `stepscope replay`\.$/,
    );
  });
});
