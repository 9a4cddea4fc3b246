/**
 * The one entry point both transports call: validates the method name and params, runs the
 * handler, and turns every outcome into an ApiResult. This is the one place errors are
 * mapped for the API: a UserError keeps its code and message; a model server's failure
 * (ModelError, src/model/errors.ts) keeps its one-line message as `bad-input` when the settings
 * were wrong before anything was sent, else `unavailable`; anything else is a bug and crosses
 * as `internal` with its message only (no stack crosses the boundary).
 */
import { UserError } from '../../common/errors.js';
import { ModelError } from '../../model/index.js';
import { methods } from '../../contract/index.js';
import type { MethodSpec } from '../../contract/method.js';
import { fail, ok, type ApiFailure, type ApiResult } from '../../contract/result.js';

/** A method table: the contract's (`methods`), or a test's own. */
export type MethodTable = Record<string, MethodSpec>;

type Handlers = Record<string, ((p: never) => unknown) | undefined>;

/** The method's spec and its validated params, or why the call is refused before it runs. */
export function checkCall(
  method: unknown,
  raw: unknown,
  table: MethodTable = methods,
): { spec: MethodSpec; params: unknown } | { error: ApiFailure } {
  if (typeof method !== 'string' || !Object.prototype.hasOwnProperty.call(table, method)) {
    return {
      error: { code: 'bad-input', message: `unknown API method ${JSON.stringify(String(method).slice(0, 60))}` },
    };
  }
  const spec = table[method];
  try {
    return { spec, params: spec.params(raw ?? {}, method) };
  } catch (e) {
    return { error: failureOf(method, e) };
  }
}

export async function dispatch(
  api: Handlers,
  method: unknown,
  raw: unknown,
  table: MethodTable = methods,
): Promise<ApiResult<unknown>> {
  const checked = checkCall(method, raw, table);
  if ('error' in checked) return { ok: false, error: checked.error };
  const name = method as string;
  try {
    const fn = api[name] as ((p: unknown) => unknown) | undefined;
    if (!fn) throw new Error(`no handler for ${name} here`);
    return ok(await fn(checked.params));
  } catch (e) {
    const f = failureOf(name, e);
    return fail(f.code, f.message);
  }
}

function failureOf(method: string, e: unknown): ApiFailure {
  if (e instanceof UserError) return { code: e.code, message: e.message };
  if (e instanceof ModelError) return { code: e.code === 'config' ? 'bad-input' : 'unavailable', message: e.message };
  return { code: 'internal', message: `${method} failed: ${e instanceof Error ? e.message : String(e)}` };
}
