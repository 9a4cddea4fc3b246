/**
 * The one entry point both transports call: validates the method name and params, runs the
 * handler, and turns every outcome into an ApiResult. Unexpected errors are reported by
 * message only (no stack crosses the boundary).
 */
import { isMethod, params, type Api, type Method } from './contract.js';
import { ApiError, fail, ok, type ApiResult } from './result.js';

export async function dispatch(api: Api, method: unknown, raw: unknown): Promise<ApiResult<unknown>> {
  if (!isMethod(method)) return fail(`unknown API method ${JSON.stringify(String(method).slice(0, 60))}`);
  try {
    const p = (params[method] as (v: unknown, path: string) => unknown)(raw ?? {}, method);
    const fn = api[method] as (p: unknown) => unknown;
    return ok(await fn(p));
  } catch (e) {
    if (e instanceof ApiError) return fail(e.message);
    const msg = e instanceof Error ? e.message : String(e);
    return fail(`${method as Method} failed: ${msg}`);
  }
}
