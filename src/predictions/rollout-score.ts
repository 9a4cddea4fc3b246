/**
 * Scoring a rollout (docs/predictions.md, "Rollouts"): each predicted state against the true state reached by the same
 * actions (the next-state verdicts of docs/semantics.md §8), and the prediction row that summarises the steps.
 *
 * The summary row: `completion` is the rollout's text after the prompt (each predicted state, then `<|action_sep|>`,
 * the next action and `<|frame_sep|>`, as the model saw it); `em_all` is right only when every step of the item was
 * predicted and right; a field's verdict is right when it was right at every step where it applies, a step not
 * predicted (the rollout stopped early) counting as wrong; `format_error` when some step could not be read, with
 * that step's parse error.
 */
import {
  ACTION,
  EXIT_KINDS,
  FRAME,
  actionText,
  parsePrediction,
  scoreCompletion,
  type Action,
  type FieldVerdicts,
} from '../semantics/index.js';
import type { NewPrediction, NewRolloutStep, RolloutTarget } from '../store/corpus.js';

const FIELD_KEYS = ['event', 'src', 'locals', 'arg'] as const;

/** The prompt of the step after `state`: the rollout text so far, the model's state, the next action and a frame. */
export function nextPrompt(prompt: string, state: string, action: Action): string {
  return prompt + state + ACTION + actionText(action) + FRAME;
}

/** Why a rollout stops after this predicted state, or null when it goes on (docs: exit token, format error). */
export function stopsAfter(state: string): 'exit' | 'format-error' | null {
  const p = parsePrediction(state);
  if (!p.ok) return 'format-error';
  return (EXIT_KINDS as readonly string[]).includes(p.value.event) ? 'exit' : null;
}

/** Each state scored against the true step of the same number; `finishes` are the server's finish reasons. */
export function scoreSteps(
  targets: readonly RolloutTarget[],
  states: readonly string[],
  finishes: readonly (string | null)[] = [],
): NewRolloutStep[] {
  return states.map((text, k) => {
    const s = scoreCompletion(targets[k].truth, text);
    return { step: k + 1, completion: text, finish: finishes[k] ?? null, em: s.em, parseError: s.parseError };
  });
}

/** The prediction row of a rollout (sample k of the item) with its steps; see the file's comment. */
export function rolloutPrediction(
  itemId: number,
  sample: number,
  actions: readonly Action[],
  targets: readonly RolloutTarget[],
  steps: NewRolloutStep[],
  finish: string | null = null,
): NewPrediction {
  let completion = '';
  steps.forEach((s, k) => {
    completion += s.completion;
    if (k + 1 < steps.length) completion += ACTION + actionText(actions[k + 1]) + FRAME;
  });
  const em: FieldVerdicts = { event: null, src: null, locals: null, arg: null, all: null };
  targets.forEach((t, k) => {
    const got = steps[k]?.em;
    for (const f of FIELD_KEYS) {
      const applies = f === 'event' || t.truth[f] !== undefined;
      if (applies) em[f] = (em[f] ?? true) && got?.[f] === true;
    }
  });
  em.all = steps.length === targets.length && steps.every((s) => s.em.all === true);
  const bad = steps.find((s) => s.parseError !== null);
  return {
    itemId,
    sample,
    completion,
    finish,
    em,
    parseError: bad?.parseError ?? null,
    exec: null,
    alt: null,
    steps,
  };
}
