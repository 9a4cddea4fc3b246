/**
 * Reading an API request's body: at most MAX_BODY_BYTES, strict UTF-8, JSON nested at most
 * MAX_BODY_DEPTH levels (deeper values overflow the stack of whatever walks them: a validator,
 * the structured clone to a worker), lone surrogates spelled as the corpus spells them. Each refusal is
 * a BodyError carrying the HTTP status to answer, so the server can answer it cleanly: a body
 * over the limit is drained (not read into memory) so that the client, still sending, gets to
 * read the 413 instead of a reset connection.
 */
import type { IncomingMessage } from 'node:http';
import { wellFormedValue } from '../common/well-formed.js';

/** Largest request body: 8 MiB (a walk's actions, a search text; nothing legitimate comes close). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Deepest nesting of a body's JSON: no API method's params come near (a taxonomy is about 5 levels). */
export const MAX_BODY_DEPTH = 64;

/** How much of an over-long body is drained before the connection is cut anyway. */
const MAX_DRAIN_BYTES = 8 * MAX_BODY_BYTES;

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

const tooBig = () => new BodyError(413, `request body over the limit of ${MAX_BODY_BYTES / 2 ** 20} MiB`);

/**
 * The body's bytes; a 413 BodyError once it is known to be over the limit (a declared length
 * over it, or the bytes read passing it). The rest is then read and dropped, so that the client,
 * still sending, is not reset before it reads the answer; past MAX_DRAIN_BYTES the connection
 * is cut. The request ends ('end', or 'close' when cut) when the drain does.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const refuse = () => {
      over = true;
      chunks.length = 0;
      reject(tooBig());
    };
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) refuse();
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (over) {
        if (size > MAX_DRAIN_BYTES) req.destroy();
      } else if (size > MAX_BODY_BYTES) refuse();
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as JSON params ({} when empty); a 400 BodyError when it is not UTF-8, not JSON, or
 * nested deeper than MAX_BODY_DEPTH. A `\ud800` escape with no partner becomes the six
 * characters `\ud800` (src/common/well-formed.ts): a note or a name is never stored as invalid UTF-8.
 */
export function parseBody(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new BodyError(400, 'request body is not valid UTF-8');
  }
  if (text.length === 0) return {};
  if (nestedDeeper(text, MAX_BODY_DEPTH))
    throw new BodyError(
      400,
      `request body is nested deeper than ${MAX_BODY_DEPTH} levels: expected at most ${MAX_BODY_DEPTH} (no API method takes more)`,
    );
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new BodyError(400, `request body is not JSON: ${(e as Error).message}`);
  }
  // Valid UTF-8 holds no surrogate: only a \uD800–\uDFFF escape makes one.
  return /\\u[dD][89a-fA-F]/.test(text) ? wellFormedValue(v) : v;
}

/** True when JSON text opens more than `max` arrays or objects at once (strings skipped). */
function nestedDeeper(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string: to its closing quote, past escapes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
