/**
 * Serves the built renderer (out/renderer) read-only. Paths are resolved inside the root
 * and anything escaping it, hidden, or missing is a 404; `/` is index.html.
 */
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Serves the file at `path` (the request's decoded URL path). */
export function serveStatic(root: string, path: string, req: IncomingMessage, res: ServerResponse): void {
  if (path.endsWith('/')) path += 'index.html';
  const rel = normalize(path).replace(/^([/\\])+/, '');
  if (rel.split(sep).some((part) => part === '..' || part.startsWith('.'))) return notFound(res);
  const file = join(root, rel);
  if (!file.startsWith(root + sep)) return notFound(res);
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) return notFound(res);
    size = st.size;
  } catch {
    return notFound(res);
  }
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': size,
    'Cache-Control': extname(file) === '.html' ? 'no-cache' : 'max-age=3600',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('not found\n');
}
