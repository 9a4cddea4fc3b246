/**
 * The packed skeleton of a trace, as the corpus keeps it (table `trace_skeletons`, written at
 * ingest) and as it crosses the API (getSkeleton): its columns as packed little-endian
 * integers in base64, 1, 2 or 4 bytes a value as the column's range needs, so 272,000 events
 * are about 1.8 MB that JSON parses as a handful of strings (not a million numbers), over
 * both transports alike. Pure: the store packs (encodeSkeleton), the server, the renderer
 * and the tests unpack (decodeSkeleton) into typed arrays.
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
    if (k === codes.length) (parts.push(String.fromCharCode.apply(null, codes as unknown as number[])), (k = 0));
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
    const n = (CODE[s.charCodeAt(i)] << 18) | (CODE[s.charCodeAt(i + 1)] << 12) | ((CODE[s.charCodeAt(i + 2)] & 63) << 6) | (CODE[s.charCodeAt(i + 3)] & 63);
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
    if (bytes > 2) (b[o++] = (u >>> 16) & 255), (b[o++] = (u >>> 24) & 255);
  }
  return { bytes, min, data: toBase64(b) };
}

export function unpackInts(p: PackedInts, count: number): Int32Array {
  const b = fromBase64(p.data);
  const out = new Int32Array(count);
  const min = p.min;
  // One plain loop per width: short, branch-free loops are what an engine optimizes first,
  // and a page decodes a skeleton once, in code that has not warmed up.
  if (p.bytes === 1) for (let i = 0; i < count; i++) out[i] = b[i] + min;
  else if (p.bytes === 2) for (let i = 0, o = 0; i < count; i++, o += 2) out[i] = (b[o] | (b[o + 1] << 8)) + min;
  else for (let i = 0, o = 0; i < count; i++, o += 4) out[i] = ((b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0) + min;
  return out;
}

export function encodeSkeleton(sk: Skeleton): SkeletonWire {
  return { count: sk.count, kind: packInts(sk.kind), parent: packInts(sk.parent), frame: packInts(sk.frame), line: packInts(sk.line), func: packInts(sk.func), funcs: sk.funcs };
}

export function decodeSkeleton(w: SkeletonWire): Skeleton & { kind: Uint8Array; parent: Int32Array; frame: Int32Array; line: Int32Array; func: Int32Array } {
  const n = w.count;
  return {
    count: n,
    kind: Uint8Array.from(unpackInts(w.kind, n)),
    parent: unpackInts(w.parent, n),
    frame: unpackInts(w.frame, n),
    line: unpackInts(w.line, n),
    func: unpackInts(w.func, n),
    funcs: w.funcs,
  };
}
