/** Serves the built renderer (out/renderer) read-only over HTTP; files.ts says which file a path is. */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { uiFile } from './files.js';

/**
 * The build's assets carry a hash of their content in their name (`assets/index-3fGk_x9a.js`):
 * a new build names them anew, so a browser may keep them for good and never ask again. The
 * page (index.html, which names them) is revalidated each time; anything else kept an hour.
 */
const HASHED_ASSET = /^\/assets\/[^/]+-[\w-]{8}\.\w+$/;

function cacheControl(path: string, file: string): string {
  if (file.endsWith('.html')) return 'no-cache';
  return HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'max-age=3600';
}

/** Serves the file at `path` (the request's decoded URL path), or a 404. */
export function serveStatic(root: string, path: string, req: IncomingMessage, res: ServerResponse): void {
  const f = uiFile(root, path);
  if (!f) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
    return;
  }
  res.writeHead(200, {
    'Content-Type': f.contentType,
    'Content-Length': f.size,
    'Cache-Control': cacheControl(path, f.file),
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(f.file).pipe(res);
}
