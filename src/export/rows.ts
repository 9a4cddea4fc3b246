/**
 * Turns the store's raw rows into export rows (the keys of columns.ts, in that order). A
 * stored trajectory gives one prompt-target row per step that passed the filter.
 */
import { formatAction } from '../semantics/actions-text.js';
import type { Action } from '../semantics/types.js';
import type { ReadCorpus, RowSource } from '../store/corpus.js';
import type { Row } from './columns.js';
import { frameEnds, stepPromptTarget } from './steps.js';

type Raw = Record<string, unknown>;

const actionsOf = (json: unknown) => (JSON.parse(json as string) as Action[]).map(formatAction);

/** The export rows of one raw row; `program` maps a program id to its source hash. */
export function* shapeRows(corpus: ReadCorpus, src: RowSource, raw: Raw, program: (id: number) => string): Generator<Row> {
  const head = { name: raw.name as string, trace: raw.trace as number, program: program(raw.program_id as number), labels: corpus.rowLabels(src, raw) };
  switch (src) {
    case 'trajectories':
      yield { ...head, id: raw.id as number, text: raw.text as string, direction: raw.direction as string, entry: raw.entry as number, actions: actionsOf(raw.actions), exit: raw.exit as string | null };
      return;
    case 'items':
      yield {
        ...head, source: 'item', id: raw.id as number, set: raw.set_name as string, key: raw.key as string, step: JSON.parse(raw.actions as string).length - 1,
        direction: raw.direction as string, entry: raw.entry as number, actions: actionsOf(raw.actions), action: raw.action as string,
        prompt: raw.prompt as string, target: raw.target as string,
      };
      return;
    case 'steps': {
      const acts = JSON.parse(raw.actions as string) as Action[];
      const actions = acts.map(formatAction);
      const text = raw.text as string;
      const ends = frameEnds(text, actions.length, raw.id as number);
      for (const k of JSON.parse(raw.steps as string) as number[]) {
        const { prompt, target } = stepPromptTarget(text, ends, k);
        yield {
          ...head, source: 'trajectory', id: raw.id as number, set: null, key: null, step: k, direction: raw.direction as string, entry: raw.entry as number,
          actions: actions.slice(0, k + 1), action: acts[k].action, prompt, target,
        };
      }
      return;
    }
    case 'corrections': {
      // A format error is wrong on every field the target has; both are listed.
      const wrong = [...(raw.format_error === 1 ? ['format'] : []), ...(['event', 'src', 'locals', 'arg'] as const).filter((f) => raw[`em_${f}`] === 0)];
      yield {
        ...head, prediction: raw.prediction as number, item: raw.item as number, set: raw.set_name as string, key: raw.key as string,
        model: raw.model as string, sample: raw.sample as number, direction: raw.direction as string, action: raw.action as string,
        prompt: raw.prompt as string, chosen: raw.target as string, rejected: raw.completion as string, wrong,
      };
      return;
    }
    case 'traces':
      yield {
        ...head, seq: raw.seq as number, event: raw.event as string, frame: raw.frame as number, func: raw.func as string, line: raw.line as number,
        src: raw.src as string, locals: raw.locals as string, arg: raw.arg as string | null, parent: raw.parent as number | null,
      };
  }
}
