/**
 * The app:// protocol: the built renderer's files, each with the explorer's content security
 * policy as a header (the one CSP of src/contract/transport.ts), instead of file://,
 * which would give the page a file origin and every file on the disk as its neighbours.
 * Paths resolve inside the renderer folder only, by the rule the web mode uses
 * (src/server/files.ts). No Electron import: index.ts registers it, tests call it directly.
 */
import { readFile } from 'node:fs/promises';
import { CSP } from '../src/contract/transport.js';
import { uiFile } from '../src/server/files.js';
import { APP_HOST } from './app-origin.js';

const HEADERS = { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' };

/** The answer to one app:// request for the renderer in `root`. */
export async function appResponse(root: string, url: string): Promise<Response> {
  const u = new URL(url);
  if (u.host !== APP_HOST) return refuse(404, 'not found');
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return refuse(400, 'malformed percent-encoding in the URL path');
  }
  const f = uiFile(root, path);
  if (!f) return refuse(404, 'not found');
  return new Response(await readFile(f.file), { headers: { ...HEADERS, 'Content-Type': f.contentType } });
}

function refuse(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
}
