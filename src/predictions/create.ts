/**
 * `stepscope evalset create`: makes a set's items from the corpus and stores them in one
 * transaction. Reproducible: the same corpus (the same traces) and options give the same
 * items in the same order, so item keys name the same prompts.
 */
import { UserError } from '../common/errors.js';
import { DIRECTIONS, isCruxevalTask, type DirectionChoice, type EvalTask } from '../semantics/index.js';
import type { Corpus, EvalSetRecord, NewItem } from '../store/corpus.js';
import { cruxevalItems, type Skipped } from './cruxeval-items.js';
import { horizonItems } from './horizon.js';
import { counterfactualItems, describeSkips, type CounterfactualItems } from './counterfactual-items.js';
import { cutItem, Traces } from './items.js';
import { nextStateItems, type Shortfall } from './next-state.js';
import { rolloutItems } from './rollout-items.js';

export interface CreateOptions {
  name: string;
  task: EvalTask;
  /** next-state: items per action kind; horizon: items per trace and direction. */
  perAction?: number;
  seed?: number;
  direction?: DirectionChoice;
  /** Only these traces (default every trace). */
  traceIds?: number[];
  /** next-state: the sampled trajectories' length limit; rollout: the actions of each item at most. */
  maxSteps?: number;
  /** rollout: items per trace and direction. */
  perTrace?: number;
  /**
   * next-state: instead of sampling, one item per step of each item of this rollout set (the same trace, direction,
   * entry and actions up to that step): the teacher-forced twins `stepscope rollouts` compares with.
   */
  prefixesOf?: string;
}

export const DEFAULT_PER_ACTION = { 'next-state': 10, horizon: 5 } as const;
export const DEFAULT_PER_TRACE = 1;
export const DEFAULT_ROLLOUT_STEPS = 20;
export const DEFAULT_MAX_STEPS = 200;

export interface CreateResult {
  set: EvalSetRecord;
  /** next-state: action kinds that got fewer items than asked. */
  short: Shortfall[];
  /** Traces that gave no item, and why. */
  skipped: Skipped[];
}

/** The chosen traces in id order (every trace by default); refuses a taken set name and an unknown trace. */
function chosenTraces(corpus: Corpus, o: CreateOptions): number[] {
  if (corpus.getEvalSet(o.name))
    throw new UserError(`${corpus.path} already has an evaluation set named ${JSON.stringify(o.name)}`, 'bad-input');
  const all = corpus.traceIds();
  for (const id of o.traceIds ?? [])
    if (!all.includes(id)) throw new UserError(`${corpus.path} has no trace with id ${id}`, 'not-found');
  return o.traceIds ? [...new Set(o.traceIds)].sort((a, b) => a - b) : all;
}

/**
 * `--task counterfactual` (counterfactual-items.ts): records a counterfactual per item, so it is
 * asynchronous and slow (one recorder run per edit); the traces it records stay in the corpus even
 * when the set is refused or an edit is skipped (they are ordinary counterfactuals).
 */
export async function createCounterfactualSet(
  corpus: Corpus,
  o: CreateOptions,
): Promise<{ set: EvalSetRecord } & Omit<CounterfactualItems, 'items'>> {
  const traceIds = chosenTraces(corpus, o);
  const perTrace = o.perTrace ?? DEFAULT_PER_TRACE;
  const seed = o.seed ?? 0;
  const maxSteps = o.maxSteps ?? DEFAULT_MAX_STEPS;
  const { items, ...rest } = await counterfactualItems(corpus, { seed, perTrace, traceIds, maxSteps });
  if (items.length === 0)
    throw new UserError(
      ['counterfactual: no items to make; nothing was stored', ...describeSkips(rest).map((l) => `  ${l}`)].join('\n'),
      'bad-input',
    );
  const options = { traces: o.traceIds ? traceIds : null, per_trace: perTrace, seed, max_steps: maxSteps };
  return { set: corpus.createEvalSet(o.name, 'counterfactual', options, items), ...rest };
}

export function createEvalSet(corpus: Corpus, o: CreateOptions): CreateResult {
  const traceIds = chosenTraces(corpus, o);
  const traces = new Traces(corpus);
  const directions = o.direction === undefined || o.direction === 'both' ? DIRECTIONS : [o.direction];
  let items: NewItem[];
  let short: Shortfall[] = [];
  let skipped: Skipped[] = [];
  const options: Record<string, unknown> = { traces: o.traceIds ? traceIds : null };
  if (o.task === 'next-state' && o.prefixesOf !== undefined) {
    const from = corpus.getEvalSet(o.prefixesOf);
    if (!from || from.task !== 'rollout')
      throw new UserError(
        `--prefixes-of: ${JSON.stringify(o.prefixesOf)} is not a rollout set of ${corpus.path}`,
        'bad-input',
      );
    Object.assign(options, { prefixes_of: from.name });
    items = [];
    for (const it of corpus.iterateItems(from.id)) {
      if (o.traceIds && !traceIds.includes(it.traceId)) continue;
      for (let k = 1; k <= it.actions.length; k++)
        items.push(cutItem(traces, it.traceId, it.direction, it.entry, it.actions.slice(0, k), `${it.key}/${k}`));
    }
  } else if (o.task === 'next-state') {
    const perAction = o.perAction ?? DEFAULT_PER_ACTION['next-state'];
    const seed = o.seed ?? 0;
    const maxSteps = o.maxSteps ?? DEFAULT_MAX_STEPS;
    Object.assign(options, { per_action: perAction, seed, direction: o.direction ?? 'both', max_steps: maxSteps });
    ({ items, short } = nextStateItems(traces, { seed, perAction, directions, traceIds, maxSteps }));
  } else if (o.task === 'horizon') {
    const points = o.perAction ?? DEFAULT_PER_ACTION.horizon;
    Object.assign(options, { per_action: points, direction: o.direction ?? 'both' });
    ({ items, skipped } = horizonItems(traces, directions, traceIds, points));
  } else if (o.task === 'rollout') {
    const perTrace = o.perTrace ?? DEFAULT_PER_TRACE;
    const seed = o.seed ?? 0;
    const maxSteps = o.maxSteps ?? DEFAULT_ROLLOUT_STEPS;
    Object.assign(options, { per_trace: perTrace, seed, direction: o.direction ?? 'both', max_steps: maxSteps });
    ({ items, skipped } = rolloutItems(traces, { seed, perTrace, directions, traceIds, maxSteps }));
  } else if (isCruxevalTask(o.task)) {
    ({ items, skipped } = cruxevalItems(traces, o.task, traceIds));
  } else if (o.task === 'counterfactual') {
    throw new RangeError('counterfactual sets are made by createCounterfactualSet (they record)');
  } else throw new RangeError(`unknown task ${o.task}`);
  if (items.length === 0) {
    const why =
      o.task === 'next-state' || o.task === 'horizon' || o.task === 'rollout'
        ? 'no trace gives one'
        : 'no CRUXEval trace (record them with record-cruxeval)';
    throw new UserError(`${o.task}: no items to make (${why}); nothing was stored`, 'bad-input');
  }
  return { set: corpus.createEvalSet(o.name, o.task, options, items), short, skipped };
}
