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
