// The packed skeleton of getSkeleton (src/trace/skeleton.ts): base64 checked against
// Node's own codec, integer columns of every width (and negative parents) round-trip.
import { describe, expect, it } from 'vitest';
import { decodeSkeleton, decodeSkeletonBytes, encodeSkeleton, skeletonBytes } from '../../src/contract/index.js';
import { fromBase64, packInts, skeletonWireFromBytes, toBase64, unpackInts } from '../../src/trace/skeleton.js';

describe('packed skeleton columns', () => {
  it('base64 agrees with Node for every length remainder and byte value', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 256, 10_001]) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 131 + 7) & 255);
      const s = toBase64(b);
      expect(s).toBe(Buffer.from(b).toString('base64'));
      expect(Array.from(fromBase64(s))).toEqual(Array.from(b));
    }
  });

  it('packs each column in as few bytes as its range needs and unpacks it exactly', () => {
    const cases: [number[], number][] = [
      [[0, 1, 2, 3, 1, 0], 1],
      [[-1, 0, 5, -1, 254], 1],
      [[-1, 0, 300, 65_000], 2],
      [[-1, 70_000, 2_000_000_000, 0], 4],
    ];
    for (const [v, bytes] of cases) {
      const p = packInts(v);
      expect(p.bytes).toBe(bytes);
      expect(Array.from(unpackInts(p, v.length))).toEqual(v);
    }
  });

  it('a skeleton survives encode, JSON and decode', () => {
    const n = 70_000;
    const sk = {
      count: n,
      kind: Array.from({ length: n }, (_, i) => i % 4),
      parent: Array.from({ length: n }, (_, i) => (i % 3 ? i - 1 : -1)),
      frame: Array.from({ length: n }, (_, i) => i >> 4),
      line: Array.from({ length: n }, (_, i) => 1 + (i % 500)),
      func: Array.from({ length: n }, (_, i) => i % 2),
      funcs: ['<module>', 'f'],
    };
    const back = decodeSkeleton(JSON.parse(JSON.stringify(encodeSkeleton(sk))));
    for (const k of ['kind', 'parent', 'frame', 'line', 'func'] as const) expect(Array.from(back[k])).toEqual(sk[k]);
    expect(back.funcs).toEqual(sk.funcs);
    expect(back.count).toBe(n);
  });

  it('the bytes form holds the same columns as the JSON form, for every width and odd lengths', () => {
    for (const n of [0, 1, 3, 5_001]) {
      const sk = {
        count: n,
        kind: Array.from({ length: n }, (_, i) => i % 4),
        parent: Array.from({ length: n }, (_, i) => (i % 3 ? i - 1 : -1)),
        frame: Array.from({ length: n }, (_, i) => i % 7),
        line: Array.from({ length: n }, (_, i) => 1 + (i % 300)),
        func: Array.from({ length: n }, (_, i) => (i * 2_654_435_761) % 2_000_000_000),
        funcs: ['<module>', 'f', 'é ✓ "q"'],
      };
      const w = encodeSkeleton(sk);
      const back = decodeSkeletonBytes(skeletonBytes(w, (s) => Buffer.from(s, 'base64')));
      for (const k of ['kind', 'parent', 'frame', 'line', 'func'] as const)
        expect(Array.from(back[k]), `${k} of ${n}`).toEqual(sk[k]);
      expect(back.funcs).toEqual(sk.funcs);
      expect(back.count).toBe(n);
      // A copy at an odd offset of a bigger buffer (as a fetch may hand it over) reads the same.
      const bytes = skeletonBytes(w);
      const shifted = new Uint8Array(bytes.length + 1);
      shifted.set(bytes, 1);
      expect(Array.from(decodeSkeletonBytes(shifted.subarray(1)).line)).toEqual(sk.line);
      // The bytes (what the corpus keeps) give back the JSON form exactly, with either base64 encoder.
      expect(skeletonWireFromBytes(bytes)).toEqual(w);
      expect(
        skeletonWireFromBytes(shifted.subarray(1), (b) =>
          Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'),
        ),
      ).toEqual(w);
    }
  });

  it('refuses bytes that are not a packed skeleton, or cut short', () => {
    expect(() =>
      decodeSkeletonBytes(new TextEncoder().encode('{"ok":false,"error":{}} and more bytes than a header')),
    ).toThrow(/not a packed skeleton/);
    const sk = {
      count: 10,
      kind: Array(10).fill(1),
      parent: Array(10).fill(-1),
      frame: Array(10).fill(0),
      line: Array(10).fill(3),
      func: Array(10).fill(0),
      funcs: ['f'],
    };
    const bytes = skeletonBytes(encodeSkeleton(sk));
    expect(() => decodeSkeletonBytes(bytes.subarray(0, bytes.length - 8))).toThrow(
      /cut short or damaged in its func column/,
    );
  });
});
