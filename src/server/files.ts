/**
 * The built renderer's files, as the web mode (static.ts) and the desktop app's app://
 * protocol (main/app-protocol.ts) serve them: a URL path resolved inside the root, and
 * anything escaping it, hidden (a part starting with a dot), or not a file refused; `/` is
 * index.html.
 */
import { statSync } from 'node:fs';
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

export interface UiFile {
  file: string;
  size: number;
  contentType: string;
}

/** The file for a decoded URL path, or null (escaping the root, hidden, missing, a folder). */
export function uiFile(root: string, urlPath: string): UiFile | null {
  const path = urlPath.endsWith('/') ? urlPath + 'index.html' : urlPath;
  const rel = normalize(path).replace(/^([/\\])+/, '');
  if (rel.split(sep).some((part) => part === '..' || part.startsWith('.'))) return null;
  const file = join(root, rel);
  if (!file.startsWith(root + sep)) return null;
  try {
    const st = statSync(file);
    if (!st.isFile()) return null;
    return { file, size: st.size, contentType: TYPES[extname(file)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
