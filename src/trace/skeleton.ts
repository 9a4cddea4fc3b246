/**
 * The packed skeleton of a trace, as it crosses the API (getSkeleton): its columns as packed
 * little-endian integers, 1, 2 or 4 bytes a value as the column's range needs. Two forms of
 * the same packing: the JSON wire form (each column in base64, so 272,000 events are about
 * 1.8 MB that JSON parses as a handful of strings, not a million numbers) and the bytes form
 * (skeletonBytes, 1.3 MB), which the corpus keeps (table `trace_skeletons`, written at ingest)
 * and the web mode's explorer fetches. Pure: the store packs (encodeSkeleton, skeletonBytes),
 * the server, the renderer and the tests unpack (decodeSkeleton, decodeSkeletonBytes) into
 * typed arrays.
 */

/**
 * The shape of a whole trace without its values: enough to lay out both state trees.
 * kind: the index into EVENT_KINDS (0 call, 1 line, 2 return, 3 exception); parent: -1 for
 * the top level; line: into the forward context; func: index into `funcs`.
 */
export interface Skeleton {
  count: number;
  kind: ArrayLike<number>;
  parent: ArrayLike<number>;
  frame: ArrayLike<number>;
  line: ArrayLike<number>;
  func: ArrayLike<number>;
  funcs: string[];
}

/** One packed column: value = stored unsigned integer + min. */
export interface PackedInts {
  bytes: 1 | 2 | 4;
  min: number;
  data: string;
}

export interface SkeletonWire {
  count: number;
  kind: PackedInts;
  parent: PackedInts;
  frame: PackedInts;
  line: PackedInts;
  func: PackedInts;
  funcs: string[];
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) CODE[ALPHABET.charCodeAt(i)] = i;
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

export function toBase64(b: Uint8Array): string {
  // Four character codes per three bytes into a buffer, turned into text a slice at a time
  // (fromCharCode over a few thousand codes): far faster than appending characters.
  const parts: string[] = [];
  const codes = new Uint16Array(8192);
  let k = 0;
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    codes[k++] = ALPHABET_CODES[n >> 18];
    codes[k++] = ALPHABET_CODES[(n >> 12) & 63];
    codes[k++] = i + 1 < b.length ? ALPHABET_CODES[(n >> 6) & 63] : 61;
    codes[k++] = i + 2 < b.length ? ALPHABET_CODES[n & 63] : 61;
    if (k === codes.length) {
      parts.push(String.fromCharCode.apply(null, codes as unknown as number[]));
      k = 0;
    }
  }
  parts.push(String.fromCharCode.apply(null, codes.subarray(0, k) as unknown as number[]));
  return parts.join('');
}

export function fromBase64(s: string): Uint8Array {
  let len = (s.length / 4) * 3;
  if (s.endsWith('==')) len -= 2;
  else if (s.endsWith('=')) len -= 1;
  const out = new Uint8Array(len);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    const n =
      (CODE[s.charCodeAt(i)] << 18) |
      (CODE[s.charCodeAt(i + 1)] << 12) |
      ((CODE[s.charCodeAt(i + 2)] & 63) << 6) |
      (CODE[s.charCodeAt(i + 3)] & 63);
    out[o++] = n >> 16;
    if (o < len) out[o++] = (n >> 8) & 255;
    if (o < len) out[o++] = n & 255;
  }
  return out;
}

export function packInts(v: ArrayLike<number>): PackedInts {
  let min = 0;
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    if (v[i] < min) min = v[i];
    if (v[i] > max) max = v[i];
  }
  const span = max - min;
  const bytes = span < 256 ? 1 : span < 65536 ? 2 : 4;
  const b = new Uint8Array(v.length * bytes);
  for (let i = 0, o = 0; i < v.length; i++) {
    const u = v[i] - min;
    b[o++] = u & 255;
    if (bytes > 1) b[o++] = (u >>> 8) & 255;
    if (bytes > 2) {
      b[o++] = (u >>> 16) & 255;
      b[o++] = (u >>> 24) & 255;
    }
  }
  return { bytes, min, data: toBase64(b) };
}

export function unpackInts(p: PackedInts, count: number): Int32Array {
  return unpackBytes(fromBase64(p.data), p.bytes, p.min, count, new Int32Array(count));
}

/** Into `out` (an Int32Array, or a Uint8Array for kinds: no second copy of a column). */
function unpackBytes<T extends Int32Array | Uint8Array>(
  b: Uint8Array,
  width: number,
  min: number,
  count: number,
  out: T,
): T {
  // One plain loop per width: short, branch-free loops are what an engine optimizes first,
  // and a page decodes a skeleton once, in code that has not warmed up.
  if (width === 1) for (let i = 0; i < count; i++) out[i] = b[i] + min;
  else if (width === 2) for (let i = 0, o = 0; i < count; i++, o += 2) out[i] = (b[o] | (b[o + 1] << 8)) + min;
  else
    for (let i = 0, o = 0; i < count; i++, o += 4)
      out[i] = ((b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0) + min;
  return out;
}

export function encodeSkeleton(sk: Skeleton): SkeletonWire {
  return {
    count: sk.count,
    kind: packInts(sk.kind),
    parent: packInts(sk.parent),
    frame: packInts(sk.frame),
    line: packInts(sk.line),
    func: packInts(sk.func),
    funcs: sk.funcs,
  };
}

/** `decode64` turns a column's base64 into bytes (the server passes a faster one than fromBase64). */
export function decodeSkeleton(
  w: SkeletonWire,
  decode64: (s: string) => Uint8Array = fromBase64,
): Skeleton & { kind: Uint8Array; parent: Int32Array; frame: Int32Array; line: Int32Array; func: Int32Array } {
  const n = w.count;
  const col = (p: PackedInts) => unpackBytes(decode64(p.data), p.bytes, p.min, n, new Int32Array(n));
  return {
    count: n,
    kind: unpackBytes(decode64(w.kind.data), w.kind.bytes, w.kind.min, n, new Uint8Array(n)),
    parent: col(w.parent),
    frame: col(w.frame),
    line: col(w.line),
    func: col(w.func),
    funcs: w.funcs,
  };
}

/**
 * The skeleton as bytes (what getSkeleton answers as application/octet-stream, for a page
 * that can read bytes: no base64 and no JSON parse of megabytes). Little-endian:
 *   0  "SKB1"  4  count (u32)  8  length of funcs' JSON (u32)
 *   12 five columns (kind, parent, frame, line, func), 8 bytes each: width (u8, 1|2|4), 3 zero bytes, min (i32)
 *   52 funcs as JSON (UTF-8), then each column's packed values (count × width), each part
 *      starting at a multiple of 4.
 * The packed values are those of SkeletonWire (packInts), so one packing serves both forms.
 */
export const SKELETON_BYTES_TYPE = 'application/octet-stream';
const MAGIC = [0x53, 0x4b, 0x42, 0x31];
const COLUMNS = ['kind', 'parent', 'frame', 'line', 'func'] as const;
const HEAD = 12 + 8 * COLUMNS.length;
const align4 = (n: number) => (n + 3) & ~3;

/**
 * The wire form as bytes; `decode64` turns a column's base64 into bytes (the server passes a faster one than
 * fromBase64).
 */
export function skeletonBytes(w: SkeletonWire, decode64: (s: string) => Uint8Array = fromBase64): Uint8Array {
  const funcs = new TextEncoder().encode(JSON.stringify(w.funcs));
  const cols = COLUMNS.map((c) => decode64(w[c].data));
  let size = align4(HEAD + funcs.length);
  for (const b of cols) size += align4(b.length);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(MAGIC, 0);
  dv.setUint32(4, w.count, true);
  dv.setUint32(8, funcs.length, true);
  COLUMNS.forEach((c, j) => (dv.setUint8(12 + 8 * j, w[c].bytes), dv.setInt32(16 + 8 * j, w[c].min, true)));
  out.set(funcs, HEAD);
  let at = align4(HEAD + funcs.length);
  for (const b of cols) {
    out.set(b, at);
    at += align4(b.length);
  }
  return out;
}

/**
 * Bytes of skeletonBytes back to the wire form (the JSON getSkeleton); `encode64` as toBase64 (the server passes a
 * faster one).
 */
export function skeletonWireFromBytes(bytes: Uint8Array, encode64: (b: Uint8Array) => string = toBase64): SkeletonWire {
  const { count, funcs, columns } = readSkeletonBytes(bytes);
  const [kind, parent, frame, line, func] = columns.map((c): PackedInts => ({
    bytes: c.width,
    min: c.min,
    data: encode64(c.data),
  }));
  return { count, kind, parent, frame, line, func, funcs };
}

/** The header and each column's packed values (views into `bytes`), checked. */
function readSkeletonBytes(bytes: Uint8Array): {
  count: number;
  funcs: string[];
  columns: { width: 1 | 2 | 4; min: number; data: Uint8Array }[];
} {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEAD || MAGIC.some((m, i) => bytes[i] !== m))
    throw new Error('not a packed skeleton (expected the bytes to start with "SKB1")');
  const count = dv.getUint32(4, true);
  const funcsLength = dv.getUint32(8, true);
  const funcs = JSON.parse(new TextDecoder().decode(bytes.subarray(HEAD, HEAD + funcsLength))) as string[];
  let at = align4(HEAD + funcsLength);
  const columns = COLUMNS.map((name, j) => {
    const width = dv.getUint8(12 + 8 * j);
    const min = dv.getInt32(16 + 8 * j, true);
    const data = bytes.subarray(at, at + count * width);
    if (data.length !== count * width || (width !== 1 && width !== 2 && width !== 4))
      throw new Error(`packed skeleton cut short or damaged in its ${name} column`);
    at += align4(data.length);
    return { width: width as 1 | 2 | 4, min, data };
  });
  return { count, funcs, columns };
}

/** Bytes of skeletonBytes back to the skeleton's columns; a clear error for bytes of another kind. */
export function decodeSkeletonBytes(bytes: Uint8Array): ReturnType<typeof decodeSkeleton> {
  const { count, funcs, columns } = readSkeletonBytes(bytes);
  const col = <T extends Int32Array | Uint8Array>(j: number, out: T): T =>
    unpackBytes(columns[j].data, columns[j].width, columns[j].min, count, out);
  const kind = col(0, new Uint8Array(count));
  const [parent, frame, line, func] = [1, 2, 3, 4].map((j) => col(j, new Int32Array(count)));
  return { count, kind, parent, frame, line, func, funcs };
}
