/** `stepscope record`: record one Python program into a trace file (Python recorder). */
import { CliError, type Command } from '../command.js';
import { limitOptions, optionArgs, recorderHelp, runRecorder } from '../../recorder/python.js';

const stringOpts = ['call', 'name', ...limitOptions];

export const command: Command = {
  name: 'record',
  summary: 'Record a Python program (script or function call) into a trace file',
  // The options are the Python recorder's; its argparse help is the one reference.
  get help() {
    return recorderHelp(
      'record',
      'Usage: stepscope record PROG.py -o OUT.jsonl [--call CALL] [--max-events N] [--timeout S] ' +
        '[--max-memory MB] [--max-repr CHARS] [--hashseed SEED] [-- ARGS ...]',
    );
  },
  options: {
    output: { type: 'string', short: 'o' },
    ...Object.fromEntries(stringOpts.map((o) => [o, { type: 'string' as const }])),
  },
  positionals: true,
  async run(values, positionals) {
    const [program, ...scriptArgs] = positionals;
    if (!program) throw new CliError("record: a program is required. Try 'stepscope record --help'.", 2);
    if (typeof values.output !== 'string') throw new CliError('record: -o/--output is required', 2);
    const args = ['record', program, '-o', values.output, ...optionArgs(values, stringOpts)];
    if (scriptArgs.length) args.push('--', ...scriptArgs);
    return runRecorder(args);
  },
};
