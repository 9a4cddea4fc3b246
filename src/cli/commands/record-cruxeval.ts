/** `stepscope record-cruxeval`: record CRUXEval tasks in call mode (Python recorder). */
import { CliError, type Command } from '../command.js';
import { limitOptions, optionArgs, recorderHelp, runRecorder } from '../../recorder/python.js';

const stringOpts = ['jobs', 'limit', ...limitOptions];

export const command: Command = {
  name: 'record-cruxeval',
  summary: 'Record CRUXEval tasks (f(<input>) per record) into one trace file',
  get help() {
    return recorderHelp(
      'record-cruxeval',
      'Usage: stepscope record-cruxeval [cruxeval.jsonl] -o OUT.jsonl [--jobs N] [--limit K] [limits]\n' +
        'Without a file it records the bundled benchmark, resources/cruxeval/cruxeval.jsonl.',
    );
  },
  options: {
    output: { type: 'string', short: 'o' },
    ...Object.fromEntries(stringOpts.map((o) => [o, { type: 'string' as const }])),
  },
  positionals: true,
  async run(values, positionals) {
    if (positionals.length > 1) {
      throw new CliError(
        "record-cruxeval: expected at most one dataset file. Try 'stepscope record-cruxeval --help'.",
        2,
      );
    }
    if (typeof values.output !== 'string') throw new CliError('record-cruxeval: -o/--output is required', 2);
    // No file: the recorder's default, the benchmark bundled in resources/cruxeval. The
    // recorder inherits the terminal, so its progress line shows there.
    return runRecorder(['record-cruxeval', ...positionals, '-o', values.output, ...optionArgs(values, stringOpts)]);
  },
};
