/**
 * CRUXEval's two tasks as neural-debugger prompts (the paper's Appendix B; docs/semantics.md
 * §9 shows them on the running example), one item per task keyed by its id (`sample_12`):
 *
 * - cruxeval-output: forward from the root, step_into (main's line), step_into (f's call),
 *   step_return: the target is f's return with its value;
 * - cruxeval-output-breakpoint: the same with `breakpoint <src of f's return>` last: the
 *   target is that line's state with every local;
 * - cruxeval-input: inverse over f's call, inv_step_call from f's inv_return: the target is
 *   f's inv_call with its arguments.
 *
 * Traces are those recorded by `record-cruxeval` (meta.task "cruxeval"); of two traces with
 * the same task id the first (by id) is used.
 */
import type { Action, EvalTask } from '../semantics/index.js';
import type { NewItem } from '../store/corpus.js';
import { calledFunction } from './called.js';
import { cutItem, type Traces } from './items.js';

export interface Skipped {
  trace: number;
  name: string;
  reason: string;
}

export function cruxevalItems(
  traces: Traces,
  task: EvalTask,
  traceIds: readonly number[],
): { items: NewItem[]; skipped: Skipped[] } {
  const items: NewItem[] = [];
  const skipped: Skipped[] = [];
  const names = new Set<string>();
  for (const id of traceIds) {
    const { record, events } = traces.get(id);
    if (record.meta.task !== 'cruxeval') continue;
    const skip = (reason: string) => skipped.push({ trace: id, name: record.name, reason });
    if (names.has(record.name)) {
      skip(`another trace of ${record.name} comes first`);
      continue;
    }
    const f = calledFunction(traces, id);
    if (!f || f.ret === null) {
      skip('the function never returned');
      continue;
    }
    names.add(record.name);
    if (task === 'cruxeval-input') {
      items.push(cutItem(traces, id, 'inverse', f.call, [{ action: 'inv_step_call' }], record.name));
      continue;
    }
    // main's line may call something traced before f (in its arguments): then two step_into do not reach f.
    if (f.call !== 2) {
      names.delete(record.name);
      skip("f's call is not the second step from the root");
      continue;
    }
    const last: Action =
      task === 'cruxeval-output' ? { action: 'step_return' } : { action: 'breakpoint', src: events[f.ret].src };
    items.push(
      cutItem(traces, id, 'forward', 0, [{ action: 'step_into' }, { action: 'step_into' }, last], record.name),
    );
  }
  return { items, skipped };
}
