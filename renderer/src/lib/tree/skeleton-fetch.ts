/**
 * Fetching a trace's skeleton as bytes (getSkeleton's bytes form: the web mode answers
 * `Accept: application/octet-stream` with skeletonBytes, src/trace/skeleton.ts). The tree
 * builder's worker fetches it itself, so the page's thread neither receives nor parses it.
 * A failure comes as the API's JSON shape and is thrown as an ApiCallError with its code.
 */
import type { SkeletonWire } from '@core/contract/index.js';
import { ApiCallError, type SkeletonFetch } from '../source.js';

/** The bytes; the JSON form where the server answers that instead (a host without bytes forms). */
export async function fetchSkeleton(f: SkeletonFetch): Promise<Uint8Array | SkeletonWire> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/octet-stream' };
  if (f.token) headers.Authorization = `Bearer ${f.token}`;
  const res = await fetch(f.url, { method: 'POST', headers, body: JSON.stringify({ traceId: f.traceId }) });
  const ct = res.headers.get('content-type') ?? '';
  if (ct.startsWith('application/octet-stream')) return new Uint8Array(await res.arrayBuffer());
  if (ct.includes('application/json')) {
    const r = (await res.json()) as
      { ok: true; value: SkeletonWire } | { ok: false; error: { code: ApiCallError['code']; message: string } };
    if (r.ok) return r.value;
    throw new ApiCallError(r.error.message, r.error.code);
  }
  throw new ApiCallError(`getSkeleton: server answered HTTP ${res.status} (${ct || 'no content type'})`, 'unavailable');
}
