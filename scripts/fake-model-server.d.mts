// Types of scripts/fake-model-server.mjs for TypeScript callers (vitest, Playwright).
export type Fault = {
  fault: 'stall' | 'status' | 'drop' | 'reset' | 'raw' | 'delay';
  status?: number;
  retryAfter?: string | number;
  body?: unknown;
  ms?: number;
  /** Applies only to prompts containing this text. */
  match?: string;
  /** For how many requests (default 1). */
  times?: number;
};
export type Answer = string | string[] | Fault;
/**
 * At `step` a wrong but readable state, then the truth again (`right`) or wrong from there on; `format`: unreadable.
 */
export interface RolloutError {
  step: number;
  then: 'right' | 'wrong' | 'format';
}
/** An item of a rollout set as `evalset export` writes it (other keys are ignored), and its own errors. */
export interface RolloutItem {
  id?: number;
  prompt: string;
  actions: { action: string; src?: string }[];
  targets: string[];
  errors?: RolloutError[];
}
/** The wrong but readable state the server answers for `truth`. */
export function wrongState(truth: string): string;
export interface FakeOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the request's JSON body, as sent
  answer?: (q: { prompt: string; body: Record<string, any>; sample: number }) => Answer | Promise<Answer>;
  answers?: Record<string, Answer>;
  continuations?: string[];
  rollouts?: RolloutItem[];
  /** Errors of every rollout item. */
  rolloutErrors?: RolloutError[];
  default?: string;
  faults?: Fault[];
  models?: string[];
  /** What GET /v1/models answers instead of the list (a server that is not OpenAI-compatible). */
  modelsAnswer?: unknown;
  apiKey?: string;
  ignoreN?: boolean;
  refuseN?: boolean;
  ignoreStop?: boolean;
  port?: number;
  host?: string;
}
export interface Recorded {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the request's JSON body, as sent
  body: Record<string, any>;
  authorization: string | undefined;
  contentType: string | undefined;
  accept: string | undefined;
}
export interface FakeModelServer {
  url: string;
  port: number;
  requests: Recorded[];
  stats: { received: number; inFlight: number; maxInFlight: number };
  addFaults(more: Fault[]): void;
  close(): Promise<void>;
}
export function startFakeModelServer(o?: FakeOptions): Promise<FakeModelServer>;
