/**
 * Ground truth for the model-client tests: prompt/target pairs cut from the reference
 * trajectories (neural-debugger.md §6, examples/trajectories.json) by plain string search,
 * and the fake OpenAI-compatible server that answers them.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, expect } from 'vitest';
import { ModelError, type Backoff } from '../../src/model/index.js';
import { startFakeModelServer, type FakeModelServer, type FakeOptions } from '../../scripts/fake-model-server.mjs';
import { vectorsPath } from '../semantics/helpers.js';

export interface Pair {
  /** `<vector name>#<action number>` */
  id: string;
  prompt: string;
  target: string;
}

/** Every full trajectory text of the reference vectors. */
export function vectorTexts(): string[] {
  return (JSON.parse(readFileSync(vectorsPath, 'utf8')) as { text: string }[]).map((v) => v.text);
}

/**
 * §6: the prompt is the text up to and including `<|action_sep|>{action}<|frame_sep|>`; the
 * target is what follows, up to the next `<|action_sep|>` or `<|trace_end|>`.
 */
export function vectorPairs(): Pair[] {
  const vectors = JSON.parse(readFileSync(vectorsPath, 'utf8')) as { name: string; text: string }[];
  const pairs: Pair[] = [];
  for (const { name, text } of vectors) {
    let at = text.indexOf('<|action_sep|>');
    for (let k = 1; at >= 0; k++, at = text.indexOf('<|action_sep|>', at + 1)) {
      const frame = text.indexOf('<|frame_sep|>', at);
      const prompt = text.slice(0, frame + '<|frame_sep|>'.length);
      const rest = text.slice(prompt.length);
      const ends = [rest.indexOf('<|action_sep|>'), rest.indexOf('<|trace_end|>')].filter((i) => i >= 0);
      pairs.push({ id: `${name}#${k}`, prompt, target: rest.slice(0, Math.min(...ends)) });
    }
  }
  return pairs;
}

/** Retries without real waits worth speaking of. */
export const quick: Partial<Backoff> = { baseMs: 1, maxMs: 4 };

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A promise and the function that settles it. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** `serve(options)` starts a fake model server that is closed after each test. */
export function fakeServers(): (o: FakeOptions) => Promise<FakeModelServer> {
  let running: FakeModelServer[] = [];
  afterEach(async () => {
    await Promise.all(running.map((f) => f.close()));
    running = [];
  });
  return async (o) => {
    const f = await startFakeModelServer(o);
    running.push(f);
    return f;
  };
}

/** The rejection of `p`, which must reject with a ModelError. */
export async function failure(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    return e as ModelError;
  }
  throw new Error('expected the call to fail');
}
