/**
 * One API method in the contract: whether it only reads the corpus or writes to it, and
 * the validator of its params (the runtime half; the result type is the static half).
 * Handlers of read methods get a ReadCorpus, so a read cannot write (src/api/handlers/index.ts);
 * a transport that must not write (e.g. over a read-only corpus) can tell by `access`.
 */
import type { Validator } from './validate.js';

export type Access = 'read' | 'write';

export interface MethodSpec<P = unknown> {
  access: Access;
  params: Validator<P>;
}

export const read = <P>(params: Validator<P>) => ({ access: 'read' as const, params });
export const write = <P>(params: Validator<P>) => ({ access: 'write' as const, params });
