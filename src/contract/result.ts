/**
 * How every API answer crosses a process boundary (Electron IPC or HTTP): never a thrown
 * error, always one of these two shapes. A failure carries a code from the closed set in
 * src/common/errors.ts, so the renderer can react to a kind of problem, and a message to
 * show. Pure: importable from Node and the renderer.
 */
import type { ErrorCode } from '../common/errors.js';

export interface ApiFailure {
  code: ErrorCode;
  message: string;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiFailure };

export function ok<T>(value: T): ApiResult<T> {
  return { ok: true, value };
}

export function fail(code: ErrorCode, message: string): ApiResult<never> {
  return { ok: false, error: { code, message } };
}
