/**
 * Starting the explorer's web mode over a corpus: the one function behind `stepscope serve`
 * and `npm start`'s fallback. Refuses a non-loopback host without a token.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startPool } from '../api/host/index.js';
import { UserError } from '../common/errors.js';
import { createExplorerServer } from './server.js';

/** Where `npm run build` puts the renderer, relative to this compiled file (dist/server/). */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface ServeOptions {
  db: string;
  host?: string;
  port?: number;
  token?: string;
  uiDir?: string;
  /** Budget in bytes of the traces held in memory (default 1 GiB). */
  cacheBytes?: number;
  /** The gate of "Ask the model" (see ServerOptions.vetAsk); without it, askModel is refused. */
  vetAsk?: (params: unknown) => unknown;
}

export interface Running {
  url: string;
  /** The URL to open in a browser (with the token in its fragment when there is one). */
  openUrl: string;
  uiBuilt: boolean;
  close(): Promise<void>;
}

/** Why the server cannot start: `forbidden` (a public host without a token) or `unavailable` (the port). */
export class ServeError extends UserError {}

export async function startServer(o: ServeOptions): Promise<Running> {
  const host = o.host ?? '127.0.0.1';
  if (!isLoopback(host) && !o.token) {
    throw new ServeError(
      `refusing to listen on ${host} without --token-file, STEPSCOPE_TOKEN or --token: anyone on the network could read the corpus. Give a token, or use --host 127.0.0.1.`,
      'forbidden',
    );
  }
  const uiDir = o.uiDir ?? DEFAULT_UI_DIR;
  const uiBuilt = existsSync(`${uiDir}/index.html`);
  // The API runs in worker threads, each with its own read-only connection, and one writable for the annotation writes
  // (src/api/host/).
  const pool = await startPool({ path: o.db, cacheBytes: o.cacheBytes });
  const server = createExplorerServer({
    host: pool,
    staticDir: uiBuilt ? uiDir : null,
    token: o.token,
    vetAsk: o.vetAsk,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port ?? 0, host, () => resolve());
    });
  } catch (e) {
    await pool.close();
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      throw new ServeError(
        `port ${o.port} on ${host} is already in use; pick another with --port, or --port 0 for any free port.`,
        'unavailable',
      );
    throw new ServeError(`cannot listen on ${host}:${o.port}: ${err.message}`, 'unavailable');
  }
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${port}/`;
  return {
    url,
    openUrl: o.token ? `${url}#token=${encodeURIComponent(o.token)}` : url,
    uiBuilt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => void pool.close().then(resolve));
      }),
  };
}
