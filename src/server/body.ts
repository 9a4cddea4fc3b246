/**
 * Reading an API request's body: at most MAX_BODY_BYTES, strict UTF-8, JSON. Each refusal is
 * a BodyError carrying the HTTP status to answer, so the server can answer it cleanly: a body
 * over the limit is drained (not read into memory) so that the client, still sending, gets to
 * read the 413 instead of a reset connection.
 */
import type { IncomingMessage } from 'node:http';

/** Largest request body: 8 MiB (a walk's actions, a search text; nothing legitimate comes close). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

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

/** The body as JSON params ({} when empty); a 400 BodyError when it is not UTF-8 or not JSON. */
export function parseBody(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new BodyError(400, 'request body is not valid UTF-8');
  }
  if (text.length === 0) return {};
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BodyError(400, `request body is not JSON: ${(e as Error).message}`);
  }
}
