// What is checked before anything is sent (settings, the endpoint a user typed), which
// failures stop a run, the limiter, Ctrl+C, and Retry-After values a server may send.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { abortOnInterrupt, ModelError, resolveEndpoint, type ModelSettings } from '../../src/model/index.js';
import { Limiter } from '../../src/model/limiter.js';
import { parseRetryAfter } from '../../src/model/retry.js';
import { checkSettings } from '../../src/model/settings.js';
import { deferred } from './helpers.js';

/** The ModelError `f` throws. */
function thrown(f: () => unknown): ModelError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    return e as ModelError;
  }
  throw new Error('expected a ModelError');
}

describe('settings', () => {
  const check = (more: Record<string, unknown>) => () =>
    checkSettings({ endpoint: 'http://127.0.0.1:8000', model: 'm', ...more } as ModelSettings);

  it.each([
    [{ model: 42 }, 'no model name given: name the model the server serves (GET /v1/models lists them)'],
    [{ model: '   ' }, 'no model name given: name the model the server serves (GET /v1/models lists them)'],
    [{ temperature: Infinity }, 'temperature must be a number ≥ 0, not Infinity'],
    [{ temperature: '0.5' }, 'temperature must be a number ≥ 0, not 0.5'],
    [{ topP: 1.5 }, 'top-p must be a number in (0, 1], not 1.5'],
    [{ maxTokens: 0 }, 'max-tokens must be a whole number > 0, not 0'],
    [{ timeoutMs: 0 }, 'timeout must be a number of milliseconds from 1 to 2147483647, not 0'],
    [{ timeoutMs: -5 }, 'timeout must be a number of milliseconds from 1 to 2147483647, not -5'],
    [{ retries: -1 }, 'retries must be a whole number ≥ 0, not -1'],
    [{ maxResponseBytes: 0 }, 'the answer size limit must be a whole number of bytes > 0, not 0'],
    [{ retries: 1.5 }, 'retries must be a whole number ≥ 0, not 1.5'],
    [{ seed: 1.5 }, 'seed must be a whole number, not 1.5'],
  ])('refuses %j', (bad, message) => {
    const e = thrown(check(bad));
    expect([e.code, e.message]).toEqual(['config', message]);
  });

  it('takes the edges of each range', () => {
    expect(check({ temperature: 0, topP: 1, maxTokens: 1, timeoutMs: 1, retries: 0, seed: -3 })).not.toThrow();
  });
});

describe('the endpoint a user typed', () => {
  it.each([
    [' http://127.0.0.1:8000/v1 \n', 'http://127.0.0.1:8000/v1'],
    ['http://127.0.0.1:8000/v1//', 'http://127.0.0.1:8000/v1'],
    ['localhost:8000/v1?from=https://example.org', 'http://localhost:8000/v1'],
    ['https://api.example.org/models/debugger/v1', 'https://api.example.org/models/debugger/v1'],
    ['https://gw.example.org/chat/completions-proxy', 'https://gw.example.org/chat/completions-proxy/v1'],
    ['https://gpu.example.org/v1-team/llm', 'https://gpu.example.org/v1-team/llm/v1'],
  ])('%j → %s', (given, base) => {
    expect(resolveEndpoint(given).href).toBe(base);
  });

  it.each([
    ['   ', /^no model server endpoint given/],
    ['http://[::1', /is not a URL/],
    ['http://sk-abc123@gpu-box:8000/v1', /must not contain a user name or password/],
    ['http://gpu-box:8000/v1/chat/completions', /is the chat endpoint/],
  ])('refuses %j as a settings error', (given, message) => {
    const e = thrown(() => resolveEndpoint(given));
    expect(e.code).toBe('config');
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('sk-abc123');
  });
});

describe('which failures stop a run', () => {
  it.each([
    ['config', undefined, true],
    ['unreachable', undefined, true],
    ['http', 401, true],
    ['http', 404, true],
    ['http', 500, false],
    ['timeout', undefined, false],
    ['dropped', undefined, false],
    ['bad-response', undefined, false],
    ['aborted', undefined, false],
  ] as const)('%s %s: fatal %s', (code, status, fatal) => {
    expect(new ModelError(code, 'x', status).fatal).toBe(fatal);
  });
});

describe('the limiter', () => {
  it.each([0, 1.5, -1])('refuses a size of %s', (size) => {
    expect(() => new Limiter(size)).toThrow(`a limiter needs a whole number ≥ 1, not ${size}`);
  });

  it('runs at most `size` tasks at once, the rest in arrival order', async () => {
    const limiter = new Limiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((g, i) => limiter.run(async () => (started.push(i), g.promise)));
    await new Promise((r) => setImmediate(r));
    expect([started, limiter.running]).toEqual([[0, 1], 2]);
    gates[1].resolve();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect([started, limiter.running]).toEqual([[0, 1, 2], 2]);
    gates.forEach((g) => g.resolve());
    await Promise.all(runs);
    expect([started, limiter.running]).toEqual([[0, 1, 2, 3], 0]);
  });
});

describe('Ctrl+C', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('SIGTERM stops the run like a first SIGINT, and is let go by dispose()', () => {
    const emitter = new EventEmitter();
    const interrupt = abortOnInterrupt({ emitter, exit: () => {} });
    emitter.emit('SIGTERM');
    expect(interrupt.signal.aborted).toBe(true);
    interrupt.dispose();
    expect([emitter.listenerCount('SIGINT'), emitter.listenerCount('SIGTERM')]).toEqual([0, 0]);
  });

  it('works without an onFirst, and the second signal exits the process with 130', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const emitter = new EventEmitter();
    const interrupt = abortOnInterrupt({ emitter });
    expect(() => emitter.emit('SIGINT')).not.toThrow();
    expect([interrupt.signal.aborted, exit.mock.calls]).toEqual([true, []]);
    emitter.emit('SIGINT');
    expect(exit.mock.calls).toEqual([[130]]);
    interrupt.dispose();
  });
});

describe('Retry-After', () => {
  it('reads fractional seconds to the millisecond', () => {
    expect(parseRetryAfter('1.25')).toBe(1250);
  });

  it.each(['x5', '5 s'])('ignores %j', (value) => {
    expect(parseRetryAfter(value)).toBeUndefined();
  });
});
