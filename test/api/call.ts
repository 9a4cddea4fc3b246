/**
 * API calls for tests, typed from the contract. The API's own dispatch() answers
 * ApiResult<unknown> (a transport passes any name through); here a call to a method of the
 * contract answers ApiResult of what that method returns, so a test reading a field the method
 * does not have fails `npm run typecheck`. A name outside the contract (a test of refusals)
 * answers ApiResult<unknown>.
 */
import { dispatch as dispatchAny } from '../../src/api/handlers/index.js';
import type { Api, ApiResult, Method, Results } from '../../src/contract/index.js';

/** What method M answers, awaited; unknown for a name that is not a method. */
export type ResultOf<M extends string> = M extends Method ? Awaited<Results[M]> : unknown;

/** Handlers of some of the contract's methods: createApi's reads, createWriteApi's writes, or both. */
export type Handlers = Partial<Api>;

/** dispatch(), its answer typed from the contract (params are validated as a transport would). */
export function dispatch<M extends string>(api: Handlers, m: M, p: unknown): Promise<ApiResult<ResultOf<M>>> {
  return dispatchAny(api, m, p) as Promise<ApiResult<ResultOf<M>>>;
}

/** Calls a method through dispatch(): its value, or throws `code: message` on failure. */
export async function callApi<M extends string>(api: Handlers, m: M, p: unknown): Promise<ResultOf<M>> {
  const r = await dispatch(api, m, p);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** The answer to an HTTP call of method M: the server sends the same ApiResult, as JSON. */
export async function answerOf<M extends string = string>(res: Response): Promise<ApiResult<ResultOf<M>>> {
  return (await res.json()) as ApiResult<ResultOf<M>>;
}
