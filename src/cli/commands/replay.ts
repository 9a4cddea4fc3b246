/** `stepscope replay`: walk a list of actions over a stored trace and print the text. */
import { recordId } from '../../contract/traces.js';
import { int } from '../../contract/validate.js';
import { UserError } from '../../common/errors.js';
import { DIRECTIONS, parseActionList, walkView } from '../../semantics/index.js';
import { loadTrace } from '../../trajectories/load.js';
import { choiceOption, CliError, intOption, requireString, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'replay',
  summary: 'Walk debugger actions over a stored trace and print the serialized text',
  help: [
    "Usage: stepscope replay --db CORPUS --trace ID --direction forward|inverse [--entry SEQ] --actions 'LIST' [--json]",
    '',
    'Starts at the entry (forward: its call; inverse: its inv_return), applies the actions in',
    'order and prints the trajectory text (docs/semantics.md §6).',
    '',
    '  --db CORPUS     corpus file',
    '  --trace ID      trace id',
    '  --direction D   forward or inverse',
    "  --entry SEQ     seq of the entry's call event (default 0, the root)",
    '  --actions LIST  comma-separated: step_into, step_over, step_return, continue,',
    '                  breakpoint=<src>, inv_step_into, inv_step_over, inv_step_call.',
    '                  A breakpoint src is kept exactly, leading spaces included; inside the',
    '                  list write a comma as \\, and a backslash as \\\\ (other backslashes',
    "                  are kept). Example: 'step_into,breakpoint=    return n,step_return'",
    '  --json          print {"states": [...], "exit": ..., "text": ...} instead of the text',
  ].join('\n'),
  options: {
    db: { type: 'string' },
    trace: { type: 'string' },
    direction: { type: 'string' },
    entry: { type: 'string' },
    actions: { type: 'string' },
    json: { type: 'boolean' },
  },
  run(values) {
    const traceId = intOption(values, 'trace', 'replay', undefined, recordId);
    requireString(values, 'direction', 'replay');
    const direction = choiceOption(values, 'direction', 'replay', DIRECTIONS)!;
    const entry = intOption(values, 'entry', 'replay', 0, int(0));
    const list = values.actions;
    if (typeof list !== 'string') throw usage('replay: --actions is required');
    let actions;
    try {
      actions = parseActionList(list);
    } catch (e) {
      throw usage(`replay: --actions: ${(e as Error).message}`);
    }
    return withCorpus(values, 'replay', { readonly: true }, (corpus) => {
      try {
        const tr = loadTrace(corpus, traceId);
        const v = walkView(tr.index, tr.record, direction, entry, actions);
        if (values.json) console.log(JSON.stringify({ states: v.states, exit: v.exit, text: v.text }));
        else process.stdout.write(v.text + '\n');
        return 0;
      } catch (e) {
        // No such trace, a bad entry, an action of the other direction or after the exit.
        if (e instanceof UserError && (e.code === 'bad-input' || e.code === 'not-found'))
          throw new CliError(`replay: trace ${traceId}: ${e.message}`, 1, e.code);
        throw e;
      }
    });
  },
};
