/**
 * The renderer's API client, typed from the contract: `api('getTrace', {id})` is checked
 * against src/api/contract/. The transport is Electron's preload bridge when present
 * (window.stepscope), otherwise HTTP to the `stepscope serve` that served this page.
 */
import type { ApiResult, Method, Params, Results } from '../../../src/api/contract/index.js';
import { UserError } from '../../../src/common/errors.js';

export interface Bridge {
  invoke(method: string, params: unknown): Promise<ApiResult<unknown>>;
}

declare global {
  interface Window {
    stepscope?: Bridge;
  }
}

/** The token of a served UI comes in the URL fragment (#token=…), never in a request line. */
function tokenFromFragment(): string | null {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

const token = tokenFromFragment();

const httpBridge: Bridge = {
  async invoke(method, params) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`api/${encodeURIComponent(method)}`, { method: 'POST', headers, body: JSON.stringify(params) });
    const ct = res.headers.get('content-type') ?? '';
    if (!ct.includes('application/json')) return { ok: false, error: { code: 'unavailable', message: `server answered HTTP ${res.status}` } };
    return (await res.json()) as ApiResult<unknown>;
  },
};

export const transportName = window.stepscope ? 'electron' : 'http';
const bridge: Bridge = window.stepscope ?? httpBridge;

/** A failed call: `code` says what kind of failure (src/common/errors.ts), `message` what to show. */
export class ApiCallError extends UserError {}

export async function api<M extends Method>(method: M, params: Params<M>): Promise<Results[M]> {
  const r = await bridge.invoke(method, params);
  if (!r.ok) throw new ApiCallError(r.error.message, r.error.code);
  return r.value as Results[M];
}
