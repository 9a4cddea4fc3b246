/**
 * The model servers a shared process (`stepscope serve`) may ask, as its user configured them
 * when starting it, and the gate its "Ask the model" requests pass: a client names one of them
 * and the request goes to that server's address with that server's key variable, whatever else
 * the client sent. Without it, anyone who can reach the API could have the process send any of
 * its environment variables as a Bearer token to an address of their choosing.
 */
import { UserError } from '../common/errors.js';
import { resolveEndpoint } from './endpoint.js';
import { ModelError } from './errors.js';
import { DEFAULT_API_KEY_ENV } from './settings.js';

export interface ConfiguredServer {
  /** What a client calls it: the NAME of `NAME=URL`, else the URL as given. */
  name: string;
  /** The address as given (sent on as the request's endpoint). */
  endpoint: string;
  /** Its base URL, resolved (`http://host:port/v1`): any spelling of the address matches it. */
  base: string;
  /** The variable its key is read from; undefined: STEPSCOPE_API_KEY when set (as for predict). */
  apiKeyEnv?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The servers from `--model-server [NAME=]URL` and `--model-key-env [NAME=]VAR` (each may be
 * repeated; a key variable without NAME= is for the only server). Throws a ModelError 'config'
 * naming the flag at fault; a key variable must be set in `env` now.
 */
export function configureServers(
  servers: readonly string[],
  keyEnvs: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ConfiguredServer[] {
  const bad = (what: string): never => {
    throw new ModelError('config', what);
  };
  const out: ConfiguredServer[] = [];
  for (const given of servers) {
    const m = /^([^=:/]+)=(.+)$/.exec(given);
    const [name, endpoint] = m ? [m[1].trim(), m[2].trim()] : [given.trim(), given.trim()];
    if (m && !NAME.test(name))
      bad(`--model-server ${given}: the name must be letters, digits, '.', '_' or '-' (at most 64), not '${name}'`);
    let base: string;
    try {
      base = resolveEndpoint(endpoint).href;
    } catch (e) {
      return bad(`--model-server ${m ? `${name}=` : ''}…: ${(e as Error).message}`);
    }
    if (out.some((s) => s.name === name)) bad(`--model-server: the name '${name}' is given twice`);
    out.push({ name, endpoint, base });
  }
  for (const given of keyEnvs) {
    const m = /^([^=]+)=(.+)$/.exec(given);
    let server: ConfiguredServer | undefined;
    if (m) {
      server = out.find((s) => s.name === m[1].trim());
      if (!server)
        bad(`--model-key-env ${given}: no --model-server is named '${m[1].trim()}' (give --model-server NAME=URL)`);
    } else {
      if (out.length !== 1)
        bad(
          `--model-key-env ${given}: say which server it is for (--model-key-env NAME=VAR), ` +
            `as there ${out.length ? `are ${out.length} model servers` : 'is no --model-server'}`,
        );
      server = out[0];
    }
    const variable = (m ? m[2] : given).trim();
    if (!VARIABLE.test(variable)) bad(`--model-key-env ${given}: '${variable}' is not an environment variable name`);
    if (server!.apiKeyEnv !== undefined) bad(`--model-key-env: two key variables for '${server!.name}'`);
    if (!env[variable])
      bad(`--model-key-env ${given}: the environment variable ${variable} is not set (it should hold the key)`);
    server!.apiKeyEnv = variable;
  }
  return out;
}

/** One line per server, for `serve` to print at its start. */
export function describeServers(servers: readonly ConfiguredServer[], env: NodeJS.ProcessEnv = process.env): string[] {
  return servers.map((s) => {
    const key = s.apiKeyEnv ?? (env[DEFAULT_API_KEY_ENV] ? DEFAULT_API_KEY_ENV : undefined);
    const label = s.name === s.endpoint ? s.base : `${s.name} (${s.base})`;
    return `${label}${key ? `, key from ${key}` : ', no key'}`;
  });
}

/**
 * The gate of askModel's params: they must name a configured server (by its name, or by an
 * address that resolves to its own), and may name no other key variable than its own; they are
 * returned with that server's address and key variable. Anything else is refused (UserError
 * 'forbidden') before the API sees it.
 */
export function askGate(servers: readonly ConfiguredServer[]): (params: unknown) => unknown {
  const startWith =
    'start `stepscope serve` with --model-server [NAME=]URL (and --model-key-env [NAME=]VAR for its key)';
  return (params) => {
    if (!servers.length)
      throw new UserError(`this server asks no model server: its user has configured none; ${startWith}`, 'forbidden');
    const p = params as Record<string, unknown> | null;
    const asked = typeof p === 'object' && p !== null ? p.endpoint : undefined;
    if (typeof asked !== 'string')
      throw new UserError('askModel: expected "endpoint", the name of a configured model server', 'bad-input');
    const names = servers.map((s) => s.name).join(', ');
    const server = servers.find((s) => s.name === asked.trim()) ?? servers.find((s) => s.base === baseOf(asked));
    if (!server)
      throw new UserError(
        `this server asks only the model servers its user configured (${names}), not '${asked.slice(0, 200)}'; ` +
          `name one of them, or ${startWith}`,
        'forbidden',
      );
    const keyEnv = typeof p!.apiKeyEnv === 'string' ? p!.apiKeyEnv.trim() : p!.apiKeyEnv;
    if (keyEnv !== undefined && keyEnv !== '' && keyEnv !== (server.apiKeyEnv ?? DEFAULT_API_KEY_ENV))
      throw new UserError(
        `the key for ${server.name} is read from ${server.apiKeyEnv ?? `${DEFAULT_API_KEY_ENV} (when set)`}, ` +
          `as configured when \`stepscope serve\` started; a request cannot name another variable (leave it empty)`,
        'forbidden',
      );
    const { apiKeyEnv: _, ...rest } = p!;
    return { ...rest, endpoint: server.endpoint, ...(server.apiKeyEnv ? { apiKeyEnv: server.apiKeyEnv } : {}) };
  };
}

function baseOf(endpoint: string): string | null {
  try {
    return resolveEndpoint(endpoint).href;
  } catch {
    return null;
  }
}
