/**
 * How every API answer crosses a process boundary (Electron IPC or HTTP): never a thrown
 * error, always one of these two shapes. Pure types: importable from Node and the renderer.
 */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: { message: string } };

/** An error whose message is safe and useful to show to the user (bad params, unknown id …). */
export class ApiError extends Error {}

export function ok<T>(value: T): ApiResult<T> {
  return { ok: true, value };
}

export function fail(message: string): ApiResult<never> {
  return { ok: false, error: { message } };
}
