// "Ask the model" in web mode sends requests only to the model servers `serve`'s user
// configured, with the key variable configured for each: a POST naming another address or
// another environment variable (PATH, a cloud secret) is refused and nothing is sent anywhere.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { askGate, configureServers } from '../../src/model/servers.js';
import { startServer, type Running } from '../../src/server/listen.js';
import { formatAction } from '../../src/semantics/index.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectors, vectorTraces } from '../predictions/helpers.js';
import { ensureBuilt } from '../cli/helpers.js';
import { beforeAllOrFail } from './start-once.js';

const KEY = 'sk-configured-key-42';
const CLOUD = 'cloud-secret-do-not-send';
/** Who received what: the configured model server, and a listener nobody configured. */
const seen: Record<'model' | 'listener', IncomingHttpHeaders[]> = { model: [], listener: [] };
let model: Server;
let listener: Server;
let modelUrl: string;
let listenerUrl: string;
let gated: Running;
let open: Running;
let at: { traceId: number; direction: string; entry: number; actions: string[] };

async function listen(who: 'model' | 'listener'): Promise<[Server, string]> {
  const s = createServer((req, res) => {
    seen[who].push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, text: '<|line_sep|>1', finish_reason: 'stop' }], model: 'm' }));
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return [s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`];
}

beforeAllOrFail(async () => {
  ensureBuilt();
  const vt = vectorTraces();
  const { corpus, path } = await corpusOf(vt.traces, 'stepscope-ask-gate-');
  const v = vectors()[0];
  const entry = corpus.getEvents(vt.traceOf(v)).find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;
  at = { traceId: vt.traceOf(v), direction: v.direction, entry, actions: [formatAction(v.actions[0])] };
  corpus.close();
  [model, modelUrl] = await listen('model');
  [listener, listenerUrl] = await listen('listener');
  // The API's workers read the key from the environment they were started with.
  process.env.TEST_ASK_KEY = KEY;
  process.env.TEST_CLOUD_SECRET = CLOUD;
  const servers = configureServers([`local=${modelUrl}`], ['local=TEST_ASK_KEY']);
  gated = await startServer({ db: path, port: 0, vetAsk: askGate(servers) });
  open = await startServer({ db: path, port: 0 });
}, 120_000);
afterAll(async () => {
  await gated?.close();
  await open?.close();
  await new Promise((r) => model?.close(r));
  await new Promise((r) => listener?.close(r));
  cleanTempDirs();
});

const ask = async (
  base: string,
  params: Record<string, unknown>,
  path = 'api/askModel',
  accept = 'application/json',
) => {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: accept },
    body: JSON.stringify({ ...at, model: 'm', ...params }),
  });
  return { status: r.status, body: (await r.json()) as { ok: boolean; error?: { code: string; message: string } } };
};

describe('askModel over HTTP', () => {
  it('refuses an address nobody configured, whatever key variable is named, and sends nothing', async () => {
    for (const apiKeyEnv of ['TEST_CLOUD_SECRET', 'PATH', 'TEST_ASK_KEY', undefined]) {
      for (const [path, accept] of [
        ['api/askModel', 'application/json'],
        ['api/%61skModel', 'application/json'],
        ['api/askModel', 'application/octet-stream'],
      ]) {
        const r = await ask(gated.url, { endpoint: listenerUrl, apiKeyEnv }, path, accept);
        expect(r.status).toBe(403);
        expect(r.body.error!.code).toBe('forbidden');
        expect(r.body.error!.message).toContain('only the model servers its user configured (local)');
      }
    }
    expect(seen.listener).toHaveLength(0);
    expect(seen.model).toHaveLength(0);
  });

  it('refuses another key variable for a configured server', async () => {
    for (const apiKeyEnv of ['TEST_CLOUD_SECRET', 'PATH']) {
      const r = await ask(gated.url, { endpoint: 'local', apiKeyEnv });
      expect(r.status).toBe(403);
      expect(r.body.error!.message).toContain('the key for local is read from TEST_ASK_KEY');
    }
    expect(seen.model).toHaveLength(0);
  });

  it('asks a configured server, named or by any spelling of its address, with its own key', async () => {
    for (const endpoint of ['local', modelUrl, `${modelUrl}/v1`, modelUrl.replace('http://', '')]) {
      const r = await ask(gated.url, { endpoint, apiKeyEnv: endpoint === 'local' ? 'TEST_ASK_KEY' : '' });
      expect(r.body, endpoint).toMatchObject({ ok: true });
    }
    expect(seen.model.map((h) => h.authorization)).toEqual(Array(4).fill(`Bearer ${KEY}`));
    expect(seen.listener).toHaveLength(0);
  });

  it('a server started with no model server refuses every askModel, saying how to configure one', async () => {
    const before = seen.model.length;
    const r = await ask(open.url, { endpoint: modelUrl });
    expect(r.status).toBe(403);
    expect(r.body.error!.message).toContain('start `stepscope serve` with --model-server [NAME=]URL');
    expect(seen.model).toHaveLength(before);
  });
});

describe('serve --model-server and --model-key-env', () => {
  const refused = (servers: string[], keys: string[], env: NodeJS.ProcessEnv = {}) => {
    try {
      configureServers(servers, keys, env);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('expected a refusal');
  };
  it('says what is wrong with each flag', () => {
    expect(refused([], ['K'])).toBe(
      '--model-key-env K: say which server it is for (--model-key-env NAME=VAR), as there is no --model-server',
    );
    expect(refused(['a=http://h:1', 'b=http://h:2'], ['K'], { K: 'x' })).toContain('as there are 2 model servers');
    expect(refused(['a=http://h:1'], ['b=K'], { K: 'x' })).toContain("no --model-server is named 'b'");
    expect(refused(['a=http://h:1'], ['a=K'])).toBe(
      '--model-key-env a=K: the environment variable K is not set (it should hold the key)',
    );
    expect(refused(['a=http://u:p@h:1'], [])).toContain('must not contain a user name or password');
    expect(refused(['a=http://h:1', 'a=http://h:2'], [])).toContain("the name 'a' is given twice");
    expect(refused(['a=http://h:1'], ['a=NOT A VAR'])).toContain("'NOT A VAR' is not an environment variable name");
  });
  it('a server without a name is named by its address', () => {
    expect(configureServers(['127.0.0.1:8000'], ['K'], { K: 'x' })).toEqual([
      { name: '127.0.0.1:8000', endpoint: '127.0.0.1:8000', base: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'K' },
    ]);
  });
});
