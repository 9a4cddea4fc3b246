/**
 * Reading a /v1/completions answer: `{choices: [{text, index, finish_reason}], model, usage}`.
 * Anything else is a 'bad-response' that says what was missing.
 */
import { wellFormedString } from '../common/well-formed.js';
import { ModelError } from './errors.js';
import { serverMessage } from './http-errors.js';
import { STOP_TOKENS } from './settings.js';

export interface Choice {
  /** The completion, cut before the first stop token in case the server did not stop there. */
  text: string;
  /** As the server said: 'stop', 'length' (max_tokens reached), …; null when absent. */
  finishReason: string | null;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface CompletionAnswer {
  choices: Choice[];
  model: string | null;
  usage: Usage | null;
}

/** `text` up to the first stop token (the server normally leaves the stop string out). */
export function cutAtStop(text: string): string {
  let end = text.length;
  for (const t of STOP_TOKENS) {
    const i = text.indexOf(t);
    if (i >= 0 && i < end) end = i;
  }
  return text.slice(0, end);
}

export function readCompletion(json: unknown, url: string): CompletionAnswer {
  const bad = (what: string) =>
    new ModelError(
      'bad-response',
      `the answer from ${url} ${what}: is this an OpenAI-compatible /v1/completions endpoint?`,
    );
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad('is not a JSON object');
  const j = json as Record<string, unknown>;
  if (!Array.isArray(j.choices)) {
    if (j.error !== undefined)
      throw new ModelError(
        'bad-response',
        `the server reported an error for ${url}: ${serverMessage(JSON.stringify(j)) || 'no details'}`,
      );
    throw bad('has no "choices" list');
  }
  if (j.choices.length === 0) throw bad('has an empty "choices" list');
  const raw = j.choices as Record<string, unknown>[];
  raw.forEach((c, i) => {
    if (typeof c?.text === 'string') return;
    const chat = typeof (c?.message as { content?: unknown })?.content === 'string';
    throw bad(
      chat ? 'is a chat completion (choices[].message), not a text completion' : `has no text in choices[${i}]`,
    );
  });
  const indexed = raw.every((c) => typeof c.index === 'number') && new Set(raw.map((c) => c.index)).size === raw.length;
  const ordered = indexed ? [...raw].sort((a, b) => (a.index as number) - (b.index as number)) : raw;
  const u = j.usage as Record<string, unknown> | undefined;
  const usage =
    typeof u?.prompt_tokens === 'number' && typeof u?.completion_tokens === 'number'
      ? { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens }
      : null;
  // A lone surrogate (a `\ud800` escape the server sent) is spelled as the corpus spells it everywhere.
  return {
    choices: ordered.map((c) => ({
      text: wellFormedString(cutAtStop(c.text as string)),
      finishReason: typeof c.finish_reason === 'string' ? wellFormedString(c.finish_reason) : null,
    })),
    model: typeof j.model === 'string' ? wellFormedString(j.model) : null,
    usage,
  };
}
