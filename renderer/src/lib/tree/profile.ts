/**
 * Depth profiles: the deepest level reached in each bucket of consecutive states (the
 * overview strip, over time) or of consecutive drawn rows (a tree pane zoomed out past its
 * level of detail). One linear pass over typed arrays.
 */

/** For `buckets` equal slices of [0, depth.length): the greatest depth in each (-1 when empty). */
export function depthProfile(depth: ArrayLike<number>, buckets: number): Int32Array {
  const n = depth.length;
  const out = new Int32Array(Math.max(0, buckets)).fill(-1);
  if (!n || buckets <= 0) return out;
  for (let s = 0; s < n; s++) {
    const b = Math.min(buckets - 1, Math.floor((s * buckets) / n));
    if (depth[s] > out[b]) out[b] = depth[s];
  }
  return out;
}

/** An area path: bucket b spans x in [b*w, (b+1)*w), from y = 0 down to (max+1) * h. */
export function profilePath(prof: Int32Array, w: number, h: number): string {
  let d = '';
  for (let b = 0; b < prof.length; b++) {
    if (prof[b] < 0) continue;
    d += `M${b * w},0h${w}v${(prof[b] + 1) * h}h${-w}Z`;
  }
  return d;
}
