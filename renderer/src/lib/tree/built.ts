/**
 * Everything the explorer derives from a trace's skeleton before it can draw: the unpacked
 * skeleton, both trees, their loop-fold plans, and per state the previous state of its frame
 * and the lines visited. `buildAll` is pure and runs in a Web Worker (build-worker.ts) so a
 * 270,000-state trace does not freeze the page; `buildOffThread` falls back to running it
 * here where workers are not available (a file:// page, a test DOM). Given a SkeletonFetch
 * (the web mode), the worker fetches the skeleton's bytes itself (skeleton-fetch.ts).
 */
import { decodeSkeleton, decodeSkeletonBytes, type Skeleton, type SkeletonWire } from '@core/contract/index.js';
import { fetchSkeleton } from './skeleton-fetch.js';
import { forwardTree, inverseTree, treeIndex, type Tree } from './build.js';
import { foldPlan, type FoldPlan } from './fold.js';
import { LINE } from './kinds.js';
import { ApiCallError, type SkeletonFetch } from '../source.js';

export interface Built {
  skeleton: Skeleton & { line: Int32Array; frame: Int32Array };
  fwd: Tree;
  inv: Tree;
  fwdPlan: FoldPlan;
  invPlan: FoldPlan;
  prevInFrame: Int32Array;
  /** Line numbers visited, ascending; and those of `line` events (what breakpoints can stop at, lib/lines.ts). */
  visited: Int32Array;
  lineEventLines: Int32Array;
  /**
   * Milliseconds of each step (for the performance timeline: fetch when the worker fetched, decode, trees, fold plans,
   * the rest).
   */
  phases: [string, number][];
  /**
   * When the last step ended, in ms since the epoch (performance.timeOrigin + now: the page's thread places the steps
   * on its own clock with it).
   */
  doneAt: number;
}

/** What a build starts from: the skeleton as JSON wire or as bytes, or how to fetch it. */
export type BuildInput = SkeletonWire | Uint8Array | SkeletonFetch;

const isFetch = (x: BuildInput): x is SkeletonFetch => !(x instanceof Uint8Array) && 'url' in x;

/** Fetches (when asked to) and builds: what the worker runs. */
export async function buildFrom(input: BuildInput): Promise<Built> {
  if (!isFetch(input)) return buildAll(input);
  const t = performance.now();
  const got = await fetchSkeleton(input);
  const built = buildAll(got);
  built.phases.unshift(['fetch', performance.now() - t - built.phases.reduce((s, p) => s + p[1], 0)]);
  return built;
}

export function buildAll(wire: SkeletonWire | Uint8Array): Built {
  const phases: [string, number][] = [];
  let t = performance.now();
  const lap = (name: string) => phases.push([name, -t + (t = performance.now())]);
  const skeleton = wire instanceof Uint8Array ? decodeSkeletonBytes(wire) : decodeSkeleton(wire);
  lap('decode');
  const ix = treeIndex(skeleton);
  const fwd = forwardTree(ix);
  const inv = inverseTree(ix, fwd);
  lap('trees');
  const fwdPlan = foldPlan(fwd, skeleton.line);
  const invPlan = foldPlan(inv, skeleton.line);
  lap('fold plans');
  const n = skeleton.count;
  // Frames (0 or more) and lines are small numbers: typed arrays indexed by them, not hashes.
  const { frame, line } = skeleton;
  let maxFrame = -1;
  let minLine = 0;
  let maxLine = -1;
  for (let s = 0; s < n; s++) {
    if (frame[s] > maxFrame) maxFrame = frame[s];
    if (line[s] > maxLine) maxLine = line[s];
    if (line[s] < minLine) minLine = line[s];
  }
  const prevInFrame = new Int32Array(n);
  const last = new Int32Array(maxFrame + 1).fill(-1);
  // 1: visited, 2: visited by a `line` event.
  const seen = new Uint8Array(maxLine - minLine + 1);
  const { kind } = skeleton;
  for (let s = 0; s < n; s++) {
    prevInFrame[s] = last[frame[s]];
    last[frame[s]] = s;
    seen[line[s] - minLine] |= kind[s] === LINE ? 3 : 1;
  }
  const visited: number[] = [];
  const lineEventLines: number[] = [];
  for (let l = minLine; l <= maxLine; l++) {
    if (seen[l - minLine]) visited.push(l);
    if (seen[l - minLine] & 2) lineEventLines.push(l);
  }
  lap('frames and lines');
  return {
    skeleton,
    fwd,
    inv,
    fwdPlan,
    invPlan,
    prevInFrame,
    visited: Int32Array.from(visited),
    lineEventLines: Int32Array.from(lineEventLines),
    phases,
    doneAt: performance.timeOrigin + t,
  };
}

/** The typed arrays of a Built, to transfer rather than copy out of the worker. */
export function transferables(b: Built): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (v: unknown) => {
    if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) out.add(v.buffer);
  };
  for (const t of [b.fwd, b.inv]) Object.values(t).forEach(add);
  for (const p of [b.fwdPlan, b.invPlan]) {
    add(p.runOf);
    add(p.pos);
    for (const r of p.runs) {
      add(r.kids);
      add(r.start);
    }
  }
  Object.values(b.skeleton).forEach(add);
  add(b.prevInFrame);
  add(b.visited);
  add(b.lineEventLines);
  return [...out];
}

let worker: Worker | null | undefined;
let nextId = 0;

/** Starts the worker (once) so it has loaded by the time a skeleton arrives. */
export function startBuilder(): void {
  if (worker !== undefined) return;
  try {
    worker =
      typeof Worker === 'undefined'
        ? null
        : new Worker(new URL('./build-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
  }
}

/** Builds in the worker (fetching first, given a SkeletonFetch); where it cannot start, here. */
export async function buildOffThread(wire: BuildInput): Promise<Built> {
  startBuilder();
  const w = worker;
  if (!w) return buildFrom(wire);
  const id = ++nextId;
  try {
    return await new Promise<Built>((resolve, reject) => {
      const done = () => (w.removeEventListener('message', onMessage), w.removeEventListener('error', onError));
      const onMessage = (
        e: MessageEvent<{ id: number; built?: Built; error?: string; code?: ApiCallError['code'] }>,
      ) => {
        if (e.data.id !== id) return;
        done();
        if (e.data.built) resolve(e.data.built);
        else reject(e.data.code ? new ApiCallError(e.data.error ?? '', e.data.code) : new Error(e.data.error));
      };
      const onError = (e: ErrorEvent) => {
        done();
        worker = null; // the worker cannot load here (e.g. a file:// page): build here from now on
        reject(Object.assign(new Error(e.message), { noWorker: true }));
      };
      w.addEventListener('message', onMessage);
      w.addEventListener('error', onError);
      w.postMessage({ id, wire });
    });
  } catch (e) {
    if ((e as { noWorker?: boolean }).noWorker) return buildFrom(wire);
    throw e;
  }
}
