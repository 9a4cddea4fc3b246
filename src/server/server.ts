/**
 * The web mode's HTTP server: the built renderer as static files, and `POST /api/<method>`
 * with a JSON body of params answering an ApiResult as JSON (always HTTP 200 for handled
 * calls, so the client reads one shape; 400/401/403/404/405/413/415 for transport problems,
 * with the same failure shape and an error code: a malformed URL, a body over 8 MiB, not
 * UTF-8 or not JSON, a missing token, a foreign host, a wrong method or content type).
 *
 * Access rules:
 * - with a token, every API call needs `Authorization: Bearer <token>` (scheme in any case); the UI reads the
 *   token from the URL fragment (`#token=…`, never sent to the server or to logs);
 * - without a token (loopback only, enforced by the CLI) the Host header must name a
 *   loopback host, which stops DNS-rebinding pages from reaching the API;
 * - API calls must be `application/json`, which a cross-site form cannot send without a
 *   CORS preflight (that we never answer);
 * - `askModel` goes only to a model server configured when the server started (`vetAsk`), with
 *   that server's key variable: the client names the server, never an address or a variable.
 *
 * A call with `Accept: application/octet-stream` to a method with a bytes form (BYTES_METHODS,
 * e.g. getSkeleton) is answered with the value's raw bytes as application/octet-stream; a
 * failure (and any other method) still answers the JSON ApiResult, so the client tells them
 * apart by the Content-Type.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { fail } from '../contract/result.js';
import type { ApiHost } from '../api/host/index.js';
import { UserError, type ErrorCode } from '../common/errors.js';
import { BodyError, parseBody, readBody } from './body.js';
import { setSecurityHeaders } from './headers.js';
import { serveStatic } from './static.js';

export interface ServerOptions {
  /** Runs the API calls (a worker pool): this thread only reads requests and writes answers. */
  host: ApiHost;
  /** Folder of the built renderer; null serves the API only. */
  staticDir: string | null;
  token?: string;
  /**
   * The gate of `askModel`: given the call's params, returns them bound to a model server this
   * process's user configured, or throws a UserError (src/model/servers.ts, askGate). Without
   * it, askModel is refused: a client must never choose the address or the key variable.
   */
  vetAsk?: (params: unknown) => unknown;
}

/** Methods that make this process send a request elsewhere: they pass `vetAsk` first. */
const ASK_METHOD = 'askModel';

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

export function createExplorerServer(opts: ServerOptions): Server {
  return createServer((req, res) => {
    setSecurityHeaders(res);
    handle(opts, req, res).catch((e) => {
      if (!res.headersSent) sendFail(res, 500, 'internal', `internal error: ${(e as Error).message}`);
      else res.destroy();
    });
  });
}

async function handle(opts: ServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!opts.token && !LOOPBACK_HOST.test(req.headers.host ?? '')) {
    return sendFail(res, 403, 'forbidden', 'forbidden host');
  }
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return sendFail(res, 400, 'bad-input', 'malformed percent-encoding in the URL path');
  }
  if (path.startsWith('/api/')) {
    if (req.method !== 'POST') return sendFail(res, 405, 'bad-input', 'API calls use POST');
    if (opts.token && !tokenMatches(req.headers.authorization, opts.token)) {
      return sendFail(res, 401, 'forbidden', 'missing or wrong token');
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return sendFail(res, 415, 'bad-input', 'API calls need Content-Type: application/json');
    }
    let params: unknown;
    try {
      params = parseBody(await readBody(req));
    } catch (e) {
      if (!(e instanceof BodyError)) throw e;
      if (e.status === 413) return sendTooBig(req, res, e.message);
      return sendFail(res, e.status, 'bad-input', e.message);
    }
    const method = path.slice('/api/'.length);
    if (method === ASK_METHOD) {
      try {
        if (!opts.vetAsk) throw new UserError(NO_MODEL_SERVERS, 'forbidden');
        params = opts.vetAsk(params);
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        return sendFail(res, e.code === 'forbidden' ? 403 : 400, e.code, e.message);
      }
    }
    if (opts.host.callBytes && /^application\/octet-stream\b/i.test(req.headers.accept ?? '')) {
      const a = await opts.host.callBytes(method, params);
      return sendBytes(res, 200, a.body, a.bytes ? 'application/octet-stream' : JSON_TYPE);
    }
    return sendBytes(res, 200, await opts.host.call(method, params));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendFail(res, 405, 'bad-input', 'method not allowed');
  if (!opts.staticDir) return sendFail(res, 404, 'not-found', 'no UI built');
  serveStatic(opts.staticDir, path, req, res);
}

const NO_MODEL_SERVERS =
  'this server asks no model server: start `stepscope serve` with --model-server [NAME=]URL ' +
  '(and --model-key-env [NAME=]VAR for its key)';

/** `Authorization: Bearer <token>`; the scheme in any case (RFC 9110 §11.1). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^bearer +(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendFail(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  sendJson(res, status, fail(code, message));
}

/**
 * The 413, while the client may still be sending the body (readBody drains it). The answer is
 * written whole at once, but the response is ended only when the request is (the client stopped
 * sending, or the drain cut it): Node closes a `Connection: close` socket as soon as its response
 * ends, and closing with unread bytes makes the kernel reset the connection, which can reach the
 * client before it has read the answer (its next write fails first, and what it had received is
 * dropped with the connection).
 */
function sendTooBig(req: IncomingMessage, res: ServerResponse, message: string): void {
  const body = Buffer.from(JSON.stringify(fail('bad-input', message)));
  const headers = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', 'Content-Length': body.byteLength };
  res.writeHead(413, { ...headers, Connection: 'close' });
  res.write(body);
  if (req.complete || req.destroyed) return void res.end();
  const end = () => res.end();
  req.once('end', end);
  req.once('close', end);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendBytes(res, status, Buffer.from(JSON.stringify(body)));
}

const JSON_TYPE = 'application/json; charset=utf-8';

function sendBytes(res: ServerResponse, status: number, body: Uint8Array, type = JSON_TYPE): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'Content-Length': body.byteLength });
  res.end(body);
}
