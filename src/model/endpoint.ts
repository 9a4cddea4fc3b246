/**
 * The server's base URL, from what a user types: `http://host:8000`, `http://host:8000/v1`,
 * `host:8000`, or a pasted `…/v1/completions` all name the same base `http://host:8000/v1`.
 */
import { ModelError } from './errors.js';

export function resolveEndpoint(endpoint: string): URL {
  const given = endpoint.trim();
  if (!given) throw new ModelError('config', 'no model server endpoint given (for example http://127.0.0.1:8000/v1)');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(given) ? given : `http://${given}`);
  } catch {
    throw new ModelError(
      'config',
      `'${given}' is not a URL: give the server's address, for example http://127.0.0.1:8000/v1`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelError('config', `the endpoint must be an http:// or https:// URL, not ${url.protocol}//…`);
  }
  // fetch refuses URLs with credentials; saying so here keeps the password out of any message.
  if (url.username || url.password) {
    throw new ModelError(
      'config',
      'the endpoint must not contain a user name or password: give the API key in an environment variable',
    );
  }
  url.search = '';
  url.hash = '';
  let path = url.pathname.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(path)) {
    throw new ModelError(
      'config',
      `${url.origin}${path} is the chat endpoint: Stepscope sends raw prompts to /v1/completions (give the address without /chat/completions)`,
    );
  }
  path = path.replace(/\/(completions|models)$/, '');
  if (!/\/v1$/.test(path)) path += '/v1';
  url.pathname = path;
  return url;
}

/** `base` + `/completions` or `/models`, as a string for fetch and for messages. */
export function endpointUrl(base: URL, route: 'completions' | 'models'): string {
  return `${base.href.replace(/\/+$/, '')}/${route}`;
}

/** Names of query parameters that carry credentials: api_key, apikey, api-key, access_token, token, sig, … */
const SECRET_NAME = 'key|token|secret|passw|pwd|sig|auth|credential|session|cookie';
/** `name=value` in a query or fragment whose name looks like a credential: the value is group 2. */
const SECRET_PAIR = new RegExp(`([?&;#][^=&;#]*(?:${SECRET_NAME})[^=&;#]*=)([^&;#]*)`, 'gi');

/**
 * The endpoint as given, fit to be stored and shown (a run's `source`): a user name and password,
 * and the value of every query (or fragment) parameter whose name looks like a credential, become
 * `***`; the rest is kept as typed. Text that is not a URL is masked the same way.
 */
export function redactEndpoint(endpoint: string): string {
  let url: URL | null;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint.trim()) ? endpoint.trim() : `http://${endpoint.trim()}`);
  } catch {
    url = null;
  }
  const masked = endpoint.replace(SECRET_PAIR, '$1***');
  // The user information ends at the last `@` before the path (a password may hold an `@`).
  const userinfo = /^(\s*(?:[a-z][a-z0-9+.-]*:\/\/)?)([^/?#]*)@/i;
  if (url ? url.username || url.password : userinfo.test(masked)) return masked.replace(userinfo, '$1***@');
  return masked;
}
