// What users type as an endpoint, and how long the client waits before trying again.
import { describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../../src/model/index.js';
import { backoffDelay, parseRetryAfter } from '../../src/model/retry.js';

describe('resolveEndpoint', () => {
  it.each([
    ['http://127.0.0.1:8000', 'http://127.0.0.1:8000/v1'],
    ['http://127.0.0.1:8000/', 'http://127.0.0.1:8000/v1'],
    ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1'],
    ['http://127.0.0.1:8000/v1/', 'http://127.0.0.1:8000/v1'],
    ['http://127.0.0.1:8000/v1/completions', 'http://127.0.0.1:8000/v1'],
    ['localhost:11434', 'http://localhost:11434/v1'],
    ['https://gpu.example.org/team/llm/v1', 'https://gpu.example.org/team/llm/v1'],
    ['https://gpu.example.org/team/llm', 'https://gpu.example.org/team/llm/v1'],
  ])('%s → %s', (given, base) => {
    expect(resolveEndpoint(given).href).toBe(base);
  });

  it.each([
    ['', /no model server endpoint/],
    ['ftp://host/v1', /http:\/\/ or https:\/\//],
    ['http://host:8000/v1/chat/completions', /chat endpoint.*\/v1\/completions/],
    ['http://[::1', /is not a URL/],
  ])('refuses %j with a clear message', (given, message) => {
    expect(() => resolveEndpoint(given)).toThrow(message);
  });

  it('refuses credentials in the URL without repeating the password', () => {
    let message = '';
    try {
      resolveEndpoint('http://me:hunter2@host:8000/v1');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/environment variable/);
    expect(message).not.toContain('hunter2');
  });
});

describe('backoff', () => {
  const b = { baseMs: 1000, maxMs: 30_000, maxRetryAfterMs: 120_000 };

  it('doubles the wait for each retry, jittered within [half, full]', () => {
    for (const [retry, full] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
      [4, 8000],
    ]) {
      expect(backoffDelay(retry, b, () => 0)).toBe(full / 2);
      expect(backoffDelay(retry, b, () => 1)).toBe(full);
    }
  });

  it('never waits longer than the cap', () => {
    expect(backoffDelay(10, b, () => 1)).toBe(30_000);
    expect(backoffDelay(10, b, () => 0)).toBe(15_000);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('1.5')).toBe(1500);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('reads the three HTTP date forms, and no other text as a date', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('Wednesday, 21-Oct-15 07:28:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed Oct 21 07:28:07 2015', now)).toBe(7000 - new Date(now).getTimezoneOffset() * 60_000);
    // Date.parse reads these as dates in 2001, long past: the retry would not wait at all.
    for (const v of ['-5', 'in 5', '5 5', '2015-10-21']) expect(parseRetryAfter(v, now), v).toBeUndefined();
  });
});
