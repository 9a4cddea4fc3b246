/**
 * The data source the views read from: one typed call per API method, `source.call('getTrace',
 * {id})`, checked against the contract (src/contract/). The real source talks to the
 * Electron preload bridge when present (window.stepscope), otherwise HTTP to the
 * `stepscope serve` that served this page. Views never import it: App creates it and hands
 * it down through Svelte context (context.ts), so component tests pass a fake instead.
 */
import type { ApiResult, Method, Params, Results } from '@core/contract/index.js';
import { UserError } from '@core/common/errors.js';

/**
 * Everything a worker needs to fetch one skeleton (lib/tree/skeleton-fetch.ts): an absolute
 * URL (a worker resolves against its own script) and the token.
 */
export interface SkeletonFetch {
  url: string;
  token: string | null;
  traceId: number;
}

export interface DataSource {
  call<M extends Method>(method: M, params: Params<M>): Promise<Results[M]>;
  /**
   * How a worker can fetch a trace's skeleton as bytes itself (the web mode), or absent
   * (the desktop app's bridge, a test's source): then the page calls getSkeleton.
   */
  skeletonFetch?(traceId: number): SkeletonFetch;
}

export interface Bridge {
  invoke(method: string, params: unknown): Promise<ApiResult<unknown>>;
  skeletonFetch?(traceId: number): SkeletonFetch;
}

declare global {
  interface Window {
    stepscope?: Bridge;
  }
}

/** An API answer of `ok: false`: `code` says what kind of failure (src/common/errors.ts), `message` what to show. */
export class ApiCallError extends UserError {}

/** The token of a served UI comes in the URL fragment (#token=…), never in a request line. */
function tokenFromFragment(): string | null {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

function httpBridge(token: string | null): Bridge {
  return {
    async invoke(method, params) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (token) headers.Authorization = `Bearer ${token}`;
      const res = await fetch(`api/${encodeURIComponent(method)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(params),
      });
      const ct = res.headers.get('content-type') ?? '';
      if (!ct.includes('application/json'))
        return { ok: false, error: { code: 'unavailable', message: `server answered HTTP ${res.status}` } };
      return (await res.json()) as ApiResult<unknown>;
    },
    skeletonFetch: (traceId) => ({ url: new URL('api/getSkeleton', location.href).href, token, traceId }),
  };
}

/** A data source over a bridge (default: Electron's, else HTTP to the serving origin). */
export function apiSource(bridge: Bridge = window.stepscope ?? httpBridge(tokenFromFragment())): DataSource {
  return {
    async call(method, params) {
      const r = await bridge.invoke(method, params);
      if (!r.ok) throw new ApiCallError(r.error.message, r.error.code);
      return r.value as Results[typeof method];
    },
    ...(bridge.skeletonFetch ? { skeletonFetch: (id: number) => bridge.skeletonFetch!(id) } : {}),
  };
}
