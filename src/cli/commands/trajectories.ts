/** `stepscope trajectories`: list stored trajectories. */
import { recordId } from '../../contract/traces.js';
import type { StoredTrajectory } from '../../store/corpus.js';
import { intOption, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

/** The JSON object printed per trajectory (the columns of docs/schema.md, actions as stored). */
function trajectoryJson(t: StoredTrajectory) {
  return {
    id: t.id,
    trace: t.traceId,
    name: t.name,
    direction: t.direction,
    entry: t.entry,
    actions: t.actions,
    states: t.states,
    line_calls: t.lineCalls,
    exit: t.exit,
    text: t.text,
    seed: t.seed,
    sampler: t.sampler,
    created: t.created,
  };
}

export const command: Command = {
  name: 'trajectories',
  summary: 'List stored trajectories (one JSON object per line with --json)',
  help: [
    'Usage: stepscope trajectories --db CORPUS [--trace ID] [--json]',
    '',
    'Without --json: one line per trajectory (id, trace, name, direction, entry, steps, exit).',
    'With --json: one JSON object per line with id, trace, name, direction, entry (seq of the',
    'entry\'s call event), actions ([{"action": …}], with "src" for a breakpoint), states',
    '(seq of each state shown), line_calls (indices of states shown as inv_line_call), exit',
    '(exit token name, or null when cut), text, seed, sampler, created.',
    '',
    '  --db CORPUS   corpus file',
    '  --trace ID    only this trace',
    '  --json        JSON Lines output',
  ].join('\n'),
  options: { db: { type: 'string' }, trace: { type: 'string' }, json: { type: 'boolean' } },
  run(values) {
    const traceId =
      values.trace === undefined ? undefined : intOption(values, 'trace', 'trajectories', undefined, recordId);
    return withCorpus(values, 'trajectories', { readonly: true }, (corpus) => {
      const out: string[] = [];
      const flush = () => {
        if (out.length) process.stdout.write(out.join('\n') + '\n');
        out.length = 0;
      };
      for (const t of corpus.iterateTrajectories(traceId)) {
        if (values.json) out.push(JSON.stringify(trajectoryJson(t)));
        else out.push([t.id, t.traceId, t.name, t.direction, t.entry, t.actions.length, t.exit ?? '(cut)'].join('\t'));
        if (out.length >= 1000) flush();
      }
      flush();
      return 0;
    });
  },
};
