/**
 * `stepscope predict`: asks an OpenAI-compatible server for every item of a set that the run
 * has not answered yet, and stores each answer (its k samples, scored) in its own
 * transaction as it arrives. A crash or Ctrl+C loses at most the requests in flight; the
 * next run with the same label and settings asks only for what is missing.
 */
import { UserError } from '../common/errors.js';
import {
  DEFAULTS,
  redactEndpoint,
  runCompletions,
  type ModelSettings,
  type RunOptions,
  type RunSummary,
} from '../model/index.js';
import type { Completion } from '../model/index.js';
import type { Corpus, RolloutTarget, RunRecord, StoredItem } from '../store/corpus.js';
import { nextPrompt, rolloutPrediction, scoreSteps, stopsAfter } from './rollout-score.js';
import { newPrediction } from './verdicts.js';
import { requireSet } from './views.js';

export interface PredictOptions {
  set: string;
  /** The run's label; default the model's name. */
  label?: string;
  settings: ModelSettings;
  samples?: number;
  concurrency?: number;
  /** Start over: delete the run with this label first. */
  replace?: boolean;
  signal?: AbortSignal;
  onProgress?: RunOptions<PromptItem>['onProgress'];
  onFailure?: RunOptions<PromptItem>['onFailure'];
  onRetry?: RunOptions<PromptItem>['onRetry'];
  /** Told once the items to ask for are known. */
  onStart?: (todo: number, answered: number) => void;
  env?: NodeJS.ProcessEnv;
  backoff?: RunOptions<PromptItem>['backoff'];
}

export interface PromptItem {
  id: string;
  prompt: string;
  item: StoredItem;
}

export interface PredictResult {
  run: RunRecord;
  summary: RunSummary;
  /** Items answered by earlier runs (skipped this time). */
  resumed: number;
}

/** What identifies a predict run: resuming with other settings would mix two runs. */
export function runParams(s: ModelSettings, samples: number) {
  return {
    model: s.model,
    temperature: s.temperature ?? DEFAULTS.temperature,
    top_p: s.topP ?? DEFAULTS.topP,
    max_tokens: s.maxTokens ?? DEFAULTS.maxTokens,
    samples,
    ...(s.seed === undefined ? {} : { seed: s.seed }),
  };
}

export async function predict(corpus: Corpus, o: PredictOptions): Promise<PredictResult> {
  const set = requireSet(corpus, o.set);
  // Settings, endpoint and key variable are checked before anything is stored (no items: nothing is sent).
  const dry = await runCompletions([], { settings: o.settings, concurrency: o.concurrency, env: o.env }, () => {});
  if (dry.error) throw new UserError(dry.error.message, 'bad-input');
  const label = o.label ?? o.settings.model;
  const samples = o.samples ?? 1;
  const params = runParams(o.settings, samples);
  let run = corpus.getRun(set.id, label);
  if (run && !o.replace) {
    if (run.sourceHash !== null)
      throw new UserError(
        `${set.name} already has a run labelled ${JSON.stringify(label)}, imported from ${run.source}; give another --label, or --replace to replace it`,
        'bad-input',
      );
    if (JSON.stringify(run.params) !== JSON.stringify(params)) {
      throw new UserError(
        `${set.name} already has a run labelled ${JSON.stringify(label)} made with other settings (${JSON.stringify(run.params)}); ` +
          'give another --label, the same settings to resume it, or --replace to start over',
        'bad-input',
      );
    }
  }
  if (!run || o.replace) {
    const id = corpus.saveRun(
      {
        setId: set.id,
        label,
        format: 'state',
        params,
        source: redactEndpoint(o.settings.endpoint),
        sourceHash: null,
        hashseed: 0,
      },
      [],
      run?.id,
    );
    run = corpus.getRunById(id)!;
  }
  const runId = run.id;
  const answered = corpus.answeredItems(runId);
  const todo = set.items - answered.size;
  o.onStart?.(todo, answered.size);
  if (set.task === 'rollout') {
    const summary = await runCompletions(
      unanswered(corpus, set.id, answered),
      {
        settings: o.settings,
        samples: 1,
        concurrency: o.concurrency,
        signal: o.signal,
        total: todo,
        onProgress: o.onProgress,
        onFailure: o.onFailure,
        onRetry: o.onRetry,
        env: o.env,
        backoff: o.backoff,
        // `samples` rollouts of the item, each on its own states (one completion per request: sample k's step 2
        // prompt holds sample k's step 1), stored together when all have ended, so a resumed run redoes the item.
        perform: (p, ask) => {
          const targets = corpus.rolloutTargets([p.item.id]).get(p.item.id) ?? [];
          const all = Array.from({ length: samples }, () => rollOut(p.item, targets, ask));
          return Promise.all(all).then((rollouts) => ({ finishReasons: [], rollouts }));
        },
      },
      (p, answer) => {
        corpus.addPredictions(
          runId,
          answer.rollouts.map((answer, k) => {
            const steps = scoreSteps(answer.targets, answer.states, answer.finishReasons);
            const last = answer.finishReasons[answer.finishReasons.length - 1] ?? null;
            return rolloutPrediction(p.item.id, k, p.item.actions, answer.targets, steps, last);
          }),
        );
      },
    );
    return { run: corpus.getRunById(runId)!, summary, resumed: answered.size };
  }
  const summary = await runCompletions(
    unanswered(corpus, set.id, answered),
    {
      settings: o.settings,
      samples,
      concurrency: o.concurrency,
      signal: o.signal,
      total: todo,
      onProgress: o.onProgress,
      onFailure: o.onFailure,
      onRetry: o.onRetry,
      env: o.env,
      backoff: o.backoff,
    },
    (p, answer) => {
      corpus.addPredictions(
        runId,
        answer.texts.map((text, k) =>
          newPrediction(p.item, set.task, 'state', k, text, answer.finishReasons[k] ?? null),
        ),
      );
    },
  );
  return { run: corpus.getRunById(runId)!, summary, resumed: answered.size };
}

/** A rollout's answer: the predicted state after each action, until it stopped, and the true steps it is scored on. */
interface RolloutAnswer {
  states: string[];
  finishReasons: (string | null)[];
  targets: RolloutTarget[];
}

/**
 * One item rolled out (docs/predictions.md, "Rollouts"): step 1's prompt is the item's; each next prompt appends the
 * model's own answer, `<|action_sep|>`, the next action and `<|frame_sep|>`. Stops after the last action, or after a
 * state that is an exit token or cannot be read (scored as such).
 */
async function rollOut(
  item: StoredItem,
  targets: RolloutTarget[],
  ask: (prompt: string) => Promise<Completion>,
): Promise<RolloutAnswer> {
  const out: RolloutAnswer = { states: [], finishReasons: [], targets };
  let prompt = item.prompt;
  for (let k = 0; k < targets.length; k++) {
    const c = await ask(prompt);
    const text = c.texts[0] ?? '';
    out.states.push(text);
    out.finishReasons.push(c.finishReasons[0] ?? null);
    if (stopsAfter(text) !== null || k + 1 === targets.length) break;
    prompt = nextPrompt(prompt, text, item.actions[k + 1]);
  }
  return out;
}

/**
 * The set's items not yet answered, read a page at a time (the connection is free between pages for the sink's writes).
 */
function* unanswered(corpus: Corpus, setId: number, answered: Set<number>): Generator<PromptItem> {
  const page = 256;
  for (let offset = 0; ; offset += page) {
    const items = [...corpus.iterateItems(setId, { offset, limit: page })];
    for (const item of items) if (!answered.has(item.id)) yield { id: String(item.id), prompt: item.prompt, item };
    if (items.length < page) return;
  }
}
