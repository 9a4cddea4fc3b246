/**
 * The one entry point both transports call: validates the method name and params, runs the
 * handler, and turns every outcome into an ApiResult. This is the one place errors are
 * mapped for the API: a UserError keeps its code and message; anything else is a bug and
 * crosses as `internal` with its message only (no stack crosses the boundary).
 */
import { UserError } from '../../common/errors.js';
import { isMethod, methods, type Api } from '../contract/index.js';
import { fail, ok, type ApiResult } from '../contract/result.js';

export async function dispatch(api: Api, method: unknown, raw: unknown): Promise<ApiResult<unknown>> {
  if (!isMethod(method)) return fail('bad-input', `unknown API method ${JSON.stringify(String(method).slice(0, 60))}`);
  try {
    const p = (methods[method].params as (v: unknown, path: string) => unknown)(raw ?? {}, method);
    const fn = api[method] as (p: unknown) => unknown;
    return ok(await fn(p));
  } catch (e) {
    if (e instanceof UserError) return fail(e.code, e.message);
    return fail('internal', `${method} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
