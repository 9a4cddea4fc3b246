// An answer as it leaves a worker (src/api/host/answer.ts): the JSON bytes of the result, or,
// past the size limit, a `bad-input` failure that says how big it would have been and how to
// ask for less.
import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../src/contract/result.js';
import { encodeAnswer, encodeBytesAnswer, MAX_ANSWER_BYTES } from '../../src/api/host/answer.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const json = (b: Uint8Array) => JSON.parse(text(b));
/** A value whose answer is exactly `n` bytes of JSON: {"ok":true,"value":"aaa…"}. */
const ofBytes = (n: number, ch = 'a') => ok(ch.repeat(n - '{"ok":true,"value":""}'.length));

describe('an answer leaving a worker', () => {
  it('is the JSON of the result, up to and including the limit', () => {
    expect(json(encodeAnswer('getTrace', ok({ id: 1, name: 'é' })))).toEqual({ ok: true, value: { id: 1, name: 'é' } });
    expect(encodeAnswer('getEvents', ofBytes(1000), 1000).byteLength).toBe(1000);
    expect(MAX_ANSWER_BYTES).toBe(64 * 2 ** 20);
  });

  it('past the limit, is a failure naming the method, the size, the limit and how to ask for less', () => {
    expect(json(encodeAnswer('getEvents', ofBytes(1001), 1000))).toEqual(
      fail(
        'bad-input',
        'getEvents: the answer would be 1,001 bytes, over the limit of 1,000 bytes for one answer; ask for a smaller window (from, to).',
      ),
    );
    expect(json(encodeAnswer('walk', ofBytes(1001), 1000)).error.message).toMatch(
      /; walk fewer actions, or walk the whole trajectory with `stepscope replay`\.$/,
    );
    expect(json(encodeAnswer('getSkeleton', ofBytes(1001), 1000)).error.message).toMatch(
      /; read the trace in windows instead \(getEvents, `stepscope events --from --to`\)\.$/,
    );
    expect(json(encodeAnswer('listTraces', ofBytes(1001), 1000)).error.message).toMatch(
      /; ask for fewer rows \(limit\)\.$/,
    );
    expect(json(encodeAnswer('listTrajectories', ofBytes(1001), 1000)).error.message).toMatch(
      /; ask for fewer rows \(limit\)\.$/,
    );
    expect(json(encodeAnswer('getTrace', ofBytes(1001), 1000)).error.message).toMatch(/; ask for less\.$/);
  });

  it('counts bytes, not characters: text within the limit in characters but not in UTF-8 bytes is refused', () => {
    // 3 bytes per character: 400 characters of '€' are 1,200 bytes.
    const r = ok('€'.repeat(400));
    expect(JSON.stringify(r).length).toBeLessThan(1000);
    expect(json(encodeAnswer('getEvents', r, 1000)).error.message).toBe(
      `getEvents: the answer would be ${(JSON.stringify(r).length + 800).toLocaleString('en')} bytes, over the limit of 1,000 bytes for one answer; ask for a smaller window (from, to).`,
    );
    // Over the limit in characters too: the size named is still the bytes' (it was the characters').
    const long = ok('€'.repeat(1000));
    expect(json(encodeAnswer('getEvents', long, 1000)).error.message).toContain(
      `would be ${(JSON.stringify(long).length + 2000).toLocaleString('en')} bytes,`,
    );
  });

  it('words big sizes in MiB: one decimal under 10 MiB, none from 10 MiB', () => {
    expect(json(encodeAnswer('getEvents', ofBytes(1.5 * 2 ** 20), 2 ** 20)).error.message).toContain(
      'would be 1.5 MiB, over the limit of 1.0 MiB',
    );
    expect(json(encodeAnswer('getEvents', ofBytes(12 * 2 ** 20), 10 * 2 ** 20)).error.message).toContain(
      'would be 12 MiB, over the limit of 10 MiB',
    );
    expect(json(encodeAnswer('getEvents', ofBytes(2 ** 20 - 1), 1000)).error.message).toContain(
      `would be ${(2 ** 20 - 1).toLocaleString('en')} bytes`,
    );
  });

  it('a result too long to be a string at all is refused as over 512 MiB; any other failure to encode is not hidden', () => {
    const huge = {
      toJSON: () => {
        throw new RangeError('Invalid string length');
      },
    };
    expect(json(encodeAnswer('walk', ok(huge), 1000)).error.message).toBe(
      'walk: the answer would be over 512 MiB, over the limit of 1,000 bytes for one answer; walk fewer actions, or walk the whole trajectory with `stepscope replay`.',
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeAnswer('walk', ok(cyclic))).toThrow(TypeError);
  });
});

describe('an answer in its bytes form', () => {
  it("is the handler's bytes themselves when the call worked", () => {
    const v = new Uint8Array([1, 2, 3]);
    const a = encodeBytesAnswer('getSkeleton', ok(v));
    expect(a.bytes).toBe(true);
    expect(a.body).toBe(v);
  });

  it('a failure is its JSON, as the JSON form words it', () => {
    const f = fail('not-found', 'no trace 9');
    expect(encodeBytesAnswer('getSkeleton', f)).toEqual({ body: encodeAnswer('getSkeleton', f), bytes: false });
  });

  it('a value that is not bytes is an internal failure naming the method', () => {
    const a = encodeBytesAnswer('getSkeleton', ok({ events: [] }));
    expect(a.bytes).toBe(false);
    expect(json(a.body)).toEqual(fail('internal', 'getSkeleton has no bytes form'));
  });

  it('past the limit, is the same size failure as the JSON form (the limit itself still passes)', () => {
    expect(encodeBytesAnswer('getSkeleton', ok(new Uint8Array(1000)), 1000).bytes).toBe(true);
    const a = encodeBytesAnswer('getSkeleton', ok(new Uint8Array(1001)), 1000);
    expect(a.bytes).toBe(false);
    expect(json(a.body)).toEqual(
      fail(
        'bad-input',
        'getSkeleton: the answer would be 1,001 bytes, over the limit of 1,000 bytes for one answer; read the trace in windows instead (getEvents, `stepscope events --from --to`).',
      ),
    );
  });
});
