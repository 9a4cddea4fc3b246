#!/usr/bin/env node
// @ts-check
/**
 * A small OpenAI-compatible model server for tests and demos, on 127.0.0.1. It answers
 * POST /v1/completions and GET /v1/models like vLLM does, from the ground truth it is given,
 * and can misbehave on purpose: stall, answer 500 or 429 with Retry-After, drop the
 * connection mid-answer, reset it, send garbage, refuse or ignore `n`.
 *
 * From code (vitest, Playwright):
 *   const fake = await startFakeModelServer({ continuations: [fullTrajectoryText], faults: [{ fault: 'status', status:
 *   500 }] }); … fake.url, fake.requests, fake.stats.maxInFlight …; await fake.close();
 * From a shell (try `stepscope predict` without a GPU):
 *   node scripts/fake-model-server.mjs --answers answers.json [--port 8001] [--host 127.0.0.1]
 *   node scripts/fake-model-server.mjs --rollouts ro.jsonl [--rollout-errors 2:right,4:wrong] (a rollout set's export;
 *   STEP:THEN as `rolloutErrors` below, for every item)
 *   prints "fake model server listening on http://127.0.0.1:PORT" once ready. The answers
 *   file holds the options below as JSON (everything but `answer`).
 *
 * How a prompt is answered, first match wins:
 *   1. `answer({ prompt, body, sample })` when given: a string, or a fault object;
 *   2. `answers[prompt]`: a string (every sample), a list (sample i gets list[i % length]), or a fault;
 *   3. `rollouts`: items of a rollout set as `evalset export` writes them (`prompt`, `actions`, `targets`); a prompt
 *      that is an item's prompt continued by a rollout (states, each then `<|action_sep|>`, the item's next action and
 *      `<|frame_sep|>`) is at step k = the states before it plus 1, answered with `targets[k-1]`, unless an item's
 *      `errors` (or `rolloutErrors`, for every item) name that step: `{ step, then }` answers a wrong but readable
 *      state at `step` and then the truth again (`then: 'right'`), or wrong states from there on (`'wrong'`), or an
 *      unreadable text (`'format'`: the rollout stops there). A prompt several items share (the same text can precede
 *      different states, as in a recursive function's frames) is answered as the first such item's;
 *   4. `continuations`: the rest of the first text that starts with the prompt (give full
 *      serialized trajectories and any prefix is answered with its true next state);
 *   5. `default` when set; otherwise HTTP 400 "no answer for this prompt" (a test bug, said loudly).
 * Like a real server, the text is cut at the first of the request's `stop` strings
 * (unless `ignoreStop`).
 *
 * Faults ({ fault, … }): 'stall' (never answers), 'status' (`status`, optional `retryAfter`
 * header and `body`), 'drop' (half the answer, then the connection is destroyed), 'reset'
 * (connection destroyed before any answer), 'raw' (`body` text with `status`, default 200),
 * 'delay' (answers normally after `ms`). `faults` is a queue: each completion request takes
 * the first queued fault whose `match` (a substring of the prompt) fits or that has none;
 * `times` (default 1) says for how many requests it stays.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {{ fault: 'stall' | 'status' | 'drop' | 'reset' | 'raw' | 'delay', status?: number,
 *   retryAfter?: string | number, body?: unknown, ms?: number, match?: string, times?: number }} Fault
 * @typedef {string | string[] | Fault} Answer
 * @typedef {{
 *   answer?: (q: { prompt: string, body: Record<string, any>, sample: number }) => Answer | Promise<Answer>,
 *   answers?: Record<string, Answer>, continuations?: string[], default?: string,
 *   rollouts?: RolloutItem[], rolloutErrors?: RolloutError[],
 *   faults?: Fault[], models?: string[], modelsAnswer?: unknown, apiKey?: string,
 *   ignoreN?: boolean, refuseN?: boolean, ignoreStop?: boolean, port?: number, host?: string,
 * }} FakeOptions
 * @typedef {{ step: number, then: 'right' | 'wrong' | 'format' }} RolloutError
 * @typedef {{ id?: number, prompt: string, actions: { action: string, src?: string }[], targets: string[],
 *   errors?: RolloutError[] }} RolloutItem
 * @typedef {{ body: Record<string, any>, authorization: string | undefined,
 *   contentType: string | undefined, accept: string | undefined }} Recorded
 */

const json = (res, status, value, headers = {}) => {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
};
const error = (res, status, message, headers = {}) =>
  json(res, status, { error: { message, type: 'fake_error', code: status } }, headers);
const ACTION = '<|action_sep|>';
const FRAME = '<|frame_sep|>';
const actionText = (a) => (a.action === 'breakpoint' ? `<|breakpoint|>${a.src}` : `<|${a.action}|>`);

/** A state that reads but is not `truth`: its source line marked, or another exit token. */
export function wrongState(truth) {
  if (truth.includes('<|src_sep|>')) return truth.replace('<|src_sep|>', '<|src_sep|># wrong ');
  return truth === '<|exit_error|>' ? '<|exit_normal|>' : '<|exit_error|>';
}

/** The answer of a rollout at the step the prompt is at (see the file's comment), or undefined: not a rollout's. */
function rolloutAnswer(items, everyItem, prompt) {
  for (const it of items) {
    if (!prompt.startsWith(it.prompt)) continue;
    const rest = prompt.slice(it.prompt.length).split(ACTION);
    const k = rest.length - 1; // states before this step
    if (k >= it.targets.length) continue;
    // Each later part is the next action and a frame, then (but for the last) the state answered after it.
    const fits = rest
      .slice(1)
      .every((seg, j) =>
        j + 1 === k
          ? seg === actionText(it.actions[j + 1]) + FRAME
          : seg.startsWith(actionText(it.actions[j + 1]) + FRAME),
      );
    if (!fits) continue;
    const step = k + 1;
    const errors = [...(it.errors ?? []), ...everyItem];
    const at = errors.find((e) => e.step === step);
    if (at?.then === 'format') return 'this is not a state';
    const onward = errors.some((e) => e.then === 'wrong' && e.step <= step);
    return at || onward ? wrongState(it.targets[k]) : it.targets[k];
  }
  return undefined;
}

const isFault = (a) => typeof a === 'object' && a !== null && !Array.isArray(a) && typeof a.fault === 'string';

/** @param {FakeOptions} o */
export async function startFakeModelServer(o = {}) {
  const models = o.models ?? ['fake-model'];
  const faults = (o.faults ?? []).map((f) => ({ ...f, left: f.times ?? 1 }));
  /** @type {Recorded[]} */
  const requests = [];
  const stats = { received: 0, inFlight: 0, maxInFlight: 0 };
  const handedOut = new Map(); // prompt → samples answered so far

  const takeFault = (prompt) => {
    const i = faults.findIndex((f) => f.left > 0 && (f.match === undefined || prompt.includes(f.match)));
    if (i < 0) return undefined;
    faults[i].left--;
    return faults[i];
  };
  const answerFor = async (prompt, body, sample) => {
    if (o.answer) return o.answer({ prompt, body, sample });
    const given = o.answers?.[prompt];
    if (given !== undefined) return Array.isArray(given) ? given[sample % given.length] : given;
    const rolled = o.rollouts && rolloutAnswer(o.rollouts, o.rolloutErrors ?? [], prompt);
    if (rolled !== undefined) return rolled;
    const whole = o.continuations?.find((t) => t.startsWith(prompt) && t.length > prompt.length);
    if (whole !== undefined) return whole.slice(prompt.length);
    return o.default;
  };
  const cut = (text, stop) => {
    if (o.ignoreStop || !Array.isArray(stop)) return text;
    const at = stop.map((s) => text.indexOf(s)).filter((i) => i >= 0);
    return at.length ? text.slice(0, Math.min(...at)) : text;
  };

  /** Misbehaves as `fault` says; `text` is the answer a 'drop' cuts in half. */
  const misbehave = (fault, req, res, text = '{"choices": [{"text": "unfinished') => {
    if (fault.fault === 'stall') return; // the client times out, or close() ends it
    if (fault.fault === 'reset') return req.socket.destroy();
    if (fault.fault === 'status') {
      const headers = fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) };
      if (fault.body !== undefined) return json(res, fault.status ?? 500, fault.body, headers);
      return error(res, fault.status ?? 500, `fake server: HTTP ${fault.status ?? 500} on purpose`, headers);
    }
    if (fault.fault === 'raw') {
      res.writeHead(fault.status ?? 200, { 'Content-Type': 'application/json' });
      return res.end(String(fault.body ?? ''));
    }
    if (fault.fault === 'drop') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      return setImmediate(() => res.socket?.destroy());
    }
    return error(res, 500, `fake server: unknown fault ${JSON.stringify(fault.fault)}`);
  };

  const completions = async (req, res, body) => {
    const prompt = String(body.prompt ?? '');
    let fault = takeFault(prompt);
    if (fault?.fault === 'delay') {
      await new Promise((r) => setTimeout(r, fault?.ms ?? 0));
      fault = undefined;
    }
    if (fault && fault.fault !== 'drop') return misbehave(fault, req, res);
    if (o.models && !models.includes(body.model)) return error(res, 404, `The model \`${body.model}\` does not exist.`);
    let n = Number.isInteger(body.n) && body.n > 0 ? body.n : 1;
    if (n > 1 && o.refuseN) return error(res, 400, 'Only one completion choice is allowed');
    if (o.ignoreN) n = 1;
    const choices = [];
    for (let index = 0; index < n; index++) {
      const sample = handedOut.get(prompt) ?? 0;
      handedOut.set(prompt, sample + 1);
      const a = await answerFor(prompt, body, sample);
      if (isFault(a)) return misbehave(a, req, res);
      if (typeof a !== 'string')
        return error(res, 400, `fake server: no answer for the prompt ending in ${JSON.stringify(prompt.slice(-80))}`);
      choices.push({ index, text: cut(a, body.stop), finish_reason: 'stop', logprobs: null });
    }
    const answer = {
      id: `cmpl-fake-${stats.received}`,
      object: 'text_completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices,
      usage: {
        prompt_tokens: Math.ceil(prompt.length / 4),
        completion_tokens: choices.reduce((s, c) => s + Math.ceil(c.text.length / 4), 0),
      },
    };
    if (fault) return misbehave(fault, req, res, JSON.stringify(answer));
    json(res, 200, answer);
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const path = (req.url ?? '').split('?')[0];
      if (o.apiKey && req.headers.authorization !== `Bearer ${o.apiKey}`) {
        // Echoes what was sent, as some servers do: the client must keep it out of its messages.
        return error(res, 401, `Incorrect API key provided: ${req.headers.authorization ?? 'none'}`);
      }
      if (req.method === 'GET' && path === '/v1/models') {
        // `modelsAnswer`: what a server that is not OpenAI-compatible answers instead of the list.
        if (o.modelsAnswer !== undefined) return json(res, 200, o.modelsAnswer);
        return json(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', owned_by: 'stepscope-fake' })),
        });
      }
      if (req.method !== 'POST' || path !== '/v1/completions') return json(res, 404, { detail: 'Not Found' });
      /** @type {Record<string, any>} */
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return error(res, 400, 'fake server: the request body is not JSON');
      }
      stats.received++;
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      res.on('close', () => stats.inFlight--);
      requests.push({
        body,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        accept: req.headers.accept,
      });
      completions(req, res, body).catch((e) => {
        if (res.headersSent) res.destroy();
        else error(res, 500, `fake server bug: ${e?.message ?? e}`);
      });
    });
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const url = `http://${address.address}:${address.port}`;
  return {
    url,
    port: address.port,
    /** Every completion request received, in order. */
    requests,
    /** received, inFlight, maxInFlight (completion requests). */
    stats,
    /** Queues more faults (same rules as the `faults` option). */
    addFaults: (/** @type {Fault[]} */ more) => faults.push(...more.map((f) => ({ ...f, left: f.times ?? 1 }))),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

async function main(argv) {
  const arg = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes('--help')) {
    console.log(
      'Usage: node scripts/fake-model-server.mjs [--answers FILE.json] [--port N] [--host 127.0.0.1]\n' +
        '       [--rollouts ROLLOUT_SET_EXPORT.jsonl [--rollout-errors STEP:right|wrong|format,...]]',
    );
    return;
  }
  const file = arg('--answers');
  const options = file ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const rolloutsFile = arg('--rollouts');
  if (rolloutsFile)
    options.rollouts = readFileSync(rolloutsFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  const errs = arg('--rollout-errors');
  if (errs)
    options.rolloutErrors = errs.split(',').map((e) => {
      const [step, then] = e.split(':');
      if (!/^[1-9][0-9]*$/.test(step) || !['right', 'wrong', 'format'].includes(then))
        throw new Error(`--rollout-errors: expected STEP:right, STEP:wrong or STEP:format, got ${JSON.stringify(e)}`);
      return { step: Number(step), then };
    });
  const fake = await startFakeModelServer({
    ...options,
    port: Number(arg('--port') ?? options.port ?? 0),
    host: arg('--host') ?? options.host,
  });
  console.log(`fake model server listening on ${fake.url}`);
  const stop = () => fake.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(`fake-model-server: ${e?.message ?? e}`);
    process.exit(1);
  });
}
