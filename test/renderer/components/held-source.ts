/**
 * What the component tests' fake data sources share: every call is logged, its params are
 * checked with the contract's validators (a view that sends a bad request fails here as it
 * would against the server), and calls can be held back (`hold`) so a test decides in which
 * order answers land. The answer is computed when the call is released (as a slow server reads
 * the corpus late), by the subclass's `answer`.
 */
import { methods, type Method, type Params, type Results } from '../../../src/contract/index.js';
import { ApiCallError, type DataSource } from '../../../renderer/src/lib/source.js';

export abstract class HeldSource implements DataSource {
  readonly log: { method: Method; params: unknown }[] = [];
  #holds: { method: Method; when: (p: unknown) => boolean; wait: Promise<void> }[] = [];

  /** Holds back calls of `method` whose params match until the returned function is called. */
  hold<M extends Method>(method: M, when: (p: Params<M>) => boolean = () => true): () => void {
    let release!: () => void;
    const wait = new Promise<void>((r) => (release = r));
    const h = { method, when: when as (p: unknown) => boolean, wait };
    this.#holds.push(h);
    return () => {
      this.#holds = this.#holds.filter((x) => x !== h);
      release();
    };
  }

  async call<M extends Method>(method: M, raw: Params<M>): Promise<Results[M]> {
    this.log.push({ method, params: raw });
    let p: Params<M>;
    try {
      p = (methods[method].params as (v: unknown, path: string) => Params<M>)(raw, method);
    } catch (e) {
      throw new ApiCallError((e as Error).message, 'bad-input');
    }
    for (const h of this.#holds) if (h.method === method && h.when(p)) await h.wait;
    await Promise.resolve();
    return this.answer(method, p) as Results[M];
  }

  /** The answer to a call whose params were accepted; throws an ApiCallError for a refusal. */
  protected abstract answer(method: Method, p: unknown): unknown;
}
