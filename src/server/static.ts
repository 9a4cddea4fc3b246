/** Serves the built renderer (out/renderer) read-only over HTTP; files.ts says which file a path is. */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { uiFile } from './files.js';

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
    'Cache-Control': f.file.endsWith('.html') ? 'no-cache' : 'max-age=3600',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(f.file).pipe(res);
}
