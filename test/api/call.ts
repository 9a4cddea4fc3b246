/** Calls a method through dispatch (params validated as a transport would) and throws `code: message` on failure. */
import { dispatch } from '../../src/api/handlers/index.js';
import type { Api } from '../../src/api/contract/index.js';

export async function callApi<T>(api: Api, m: string, p: unknown): Promise<T> {
  const r = await dispatch(api, m, p);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.result as T;
}
