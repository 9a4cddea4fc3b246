/**
 * Turns the store's raw rows into export rows (the keys of columns.ts, in that order). A
 * stored trajectory gives one prompt-target row per step that passed the filter. Rows are
 * written as literals, without spreading a shared head: a million spreads cost more than
 * the rest of the export (bench/export.mjs).
 */
import { formatAction } from '../semantics/actions-text.js';
import { ACTION, FRAME, actionText } from '../semantics/index.js';
import type { Action } from '../semantics/types.js';
import type { RowSource } from '../store/corpus.js';
import type { Row } from './columns.js';
import { frameEnds, stepPromptTarget, targetSpans } from './steps.js';

/** A row of the store's SELECT for this source (its columns are named there). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by column name, each as its own type
type Raw = Record<string, any>;

const actionsOf = (json: string) => (JSON.parse(json) as Action[]).map(formatAction);
const actionsOf0 = (json: string) => JSON.parse(json) as Action[];

/**
 * The prompt a rollout's step saw: the item's prompt (step 1's), then per earlier step the model's own state,
 * `<|action_sep|>`, the next action and `<|frame_sep|>` (src/predictions/rollout-score.ts, nextPrompt).
 */
function rolloutPrompt(prompt: string, actions: readonly Action[], earlier: readonly string[]): string {
  let text = prompt;
  earlier.forEach((state, k) => (text += state + ACTION + actionText(actions[k + 1]) + FRAME));
  return text;
}
/** The store's `labels` column (docs/export.md, *Labels*: which annotations a row carries). */
const labelsOf = (json: string): string[] => (json === '[]' ? [] : JSON.parse(json));

/** The export rows of one raw row, given to `emit`; `program` is the row's program hash. */
export function shapeRows(src: RowSource, raw: Raw, program: string, emit: (row: Row) => void): void {
  const labels = src === 'steps' ? [] : labelsOf(raw.labels);
  switch (src) {
    case 'traces':
      emit({
        name: raw.name,
        trace: raw.trace,
        program,
        labels,
        seq: raw.seq,
        event: raw.event,
        frame: raw.frame,
        func: raw.func,
        line: raw.line,
        src: raw.src,
        locals: raw.locals,
        arg: raw.arg,
        parent: raw.parent,
      });
      return;
    case 'trajectories': {
      const actions = actionsOf(raw.actions);
      emit({
        name: raw.name,
        trace: raw.trace,
        program,
        labels,
        id: raw.id,
        text: raw.text,
        direction: raw.direction,
        entry: raw.entry,
        actions,
        exit: raw.exit,
        target_spans: targetSpans(raw.text, frameEnds(raw.text, actions.length, raw.id)),
      });
      return;
    }
    case 'items': {
      const actions = actionsOf(raw.actions);
      emit({
        name: raw.name,
        trace: raw.trace,
        program,
        labels,
        source: 'item',
        id: raw.id,
        set: raw.set_name,
        key: raw.key,
        step: actions.length - 1,
        direction: raw.direction,
        entry: raw.entry,
        actions,
        action: raw.action,
        prompt: raw.prompt,
        target: raw.target,
      });
      return;
    }
    case 'steps': {
      const acts = JSON.parse(raw.actions) as Action[];
      const actions = acts.map(formatAction);
      const ends = frameEnds(raw.text, actions.length, raw.id);
      // Each step that passed the filter, with its own labels.
      for (const [k, labels] of JSON.parse(raw.steps) as [number, string[]][]) {
        const { prompt, target } = stepPromptTarget(raw.text, ends, k);
        emit({
          name: raw.name,
          trace: raw.trace,
          program,
          labels,
          source: 'trajectory',
          id: raw.id,
          set: null,
          key: null,
          step: k,
          direction: raw.direction,
          entry: raw.entry,
          actions: actions.slice(0, k + 1),
          action: acts[k].action,
          prompt,
          target,
        });
      }
      return;
    }
    case 'corrections': {
      const step: number | null = raw.step;
      // A format error is wrong on every field the target has; both are listed.
      const wrong = [
        ...(raw.format_error === 1 ? ['format'] : []),
        ...(['event', 'src', 'locals', 'arg'] as const).filter((f) => raw[`em_${f}`] === 0),
      ];
      emit({
        name: raw.name,
        trace: raw.trace,
        program,
        labels,
        prediction: raw.prediction,
        item: raw.item,
        set: raw.set_name,
        key: raw.key,
        model: raw.model,
        sample: raw.sample,
        direction: raw.direction,
        action: step === null ? raw.action : raw.step_action,
        step,
        prompt:
          step === null ? raw.prompt : rolloutPrompt(raw.prompt, actionsOf0(raw.actions), JSON.parse(raw.earlier)),
        chosen: step === null ? raw.target : raw.step_target,
        rejected: step === null ? raw.completion : raw.step_completion,
        wrong,
      });
    }
  }
}
