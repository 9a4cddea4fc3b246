/**
 * An API answer as it leaves a worker: the JSON text of its ApiResult, UTF-8 encoded, at
 * most MAX_ANSWER_BYTES. Encoding happens where the answer was computed (a worker thread),
 * so the thread that talks to clients only moves bytes; the bytes are a fresh ArrayBuffer
 * that postMessage can transfer without a copy.
 */
import { fail, type ApiResult } from '../../contract/result.js';

/**
 * Largest answer: 64 MiB. The skeleton of a 1,000,000-event trace is about 10 MB; a walk of
 * 20,000 actions a few MB on ordinary values; 5,000 events are a few MB unless their values
 * are huge.
 */
export const MAX_ANSWER_BYTES = 64 * 2 ** 20;

/** How to ask for less, per method whose answer can grow past the limit. */
const ASK_FOR_LESS: Record<string, string> = {
  getEvents: 'ask for a smaller window (from, to)',
  walk: 'walk fewer actions, or walk the whole trajectory with `stepscope replay`',
  getSkeleton: 'read the trace in windows instead (getEvents, `stepscope events --from --to`)',
  listTraces: 'ask for fewer rows (limit)',
  listTrajectories: 'ask for fewer rows (limit)',
};

const encoder = new TextEncoder();
/** 64 MiB, 1.5 MiB, 1,000 bytes. */
const size = (n: number) =>
  n < 2 ** 20 ? `${n.toLocaleString('en')} bytes` : `${(n / 2 ** 20).toFixed(n < 10 * 2 ** 20 ? 1 : 0)} MiB`;

export function encodeAnswer(method: string, result: ApiResult<unknown>, limit = MAX_ANSWER_BYTES): Uint8Array {
  let text: string;
  try {
    text = JSON.stringify(result);
  } catch (e) {
    // Past V8's longest string (about 512 MiB) stringify throws a RangeError: over the limit anyway.
    if (!(e instanceof RangeError)) throw e;
    return tooBig(method, null, limit);
  }
  // A UTF-8 byte per UTF-16 unit at least: past the limit in units, it is too big without the
  // copy, and its bytes are counted (not copied) only to name its size.
  if (text.length > limit) return tooBig(method, Buffer.byteLength(text, 'utf8'), limit);
  const bytes = encoder.encode(text);
  return bytes.byteLength > limit ? tooBig(method, bytes.byteLength, limit) : bytes;
}

/**
 * A bytes-form answer (BYTES_METHODS): the handler's bytes themselves when it succeeded within
 * the limit (`bytes: true`), else the JSON of the failure, as encodeAnswer words it.
 */
export function encodeBytesAnswer(
  method: string,
  result: ApiResult<unknown>,
  limit = MAX_ANSWER_BYTES,
): { body: Uint8Array; bytes: boolean } {
  if (!result.ok) return { body: encodeAnswer(method, result, limit), bytes: false };
  const v = result.value;
  if (!(v instanceof Uint8Array))
    return { body: encodeAnswer(method, fail('internal', `${method} has no bytes form`), limit), bytes: false };
  return v.byteLength > limit ? { body: tooBig(method, v.byteLength, limit), bytes: false } : { body: v, bytes: true };
}

function tooBig(method: string, bytes: number | null, limit: number): Uint8Array {
  const how = ASK_FOR_LESS[method] ?? 'ask for less';
  const was = bytes === null ? 'over 512 MiB' : size(bytes);
  return encoder.encode(
    JSON.stringify(
      fail(
        'bad-input',
        `${method}: the answer would be ${was}, over the limit of ${size(limit)} for one answer; ${how}.`,
      ),
    ),
  );
}
