/** Entry point of the `stepscope` command line. */
import { UserError } from '../common/errors.js';
import { CliError, parseCommandArgs, type Command } from './command.js';

// Each subcommand in its own module; keep this list sorted by the order a user meets them.
const loaders: Record<string, () => Promise<{ command: Command }>> = {
  demo: () => import('./commands/demo.js'),
  record: () => import('./commands/record.js'),
  'record-cruxeval': () => import('./commands/record-cruxeval.js'),
  ingest: () => import('./commands/ingest.js'),
  traces: () => import('./commands/traces.js'),
  events: () => import('./commands/events.js'),
  counterfactual: () => import('./commands/counterfactual.js'),
  sql: () => import('./commands/sql.js'),
  export: () => import('./commands/export.js'),
  sample: () => import('./commands/sample.js'),
  trajectories: () => import('./commands/trajectories.js'),
  replay: () => import('./commands/replay.js'),
  evalset: () => import('./commands/evalset.js'),
  predictions: () => import('./commands/predictions.js'),
  predict: () => import('./commands/predict.js'),
  runs: () => import('./commands/runs.js'),
  scores: () => import('./commands/scores.js'),
  rollouts: () => import('./commands/rollouts.js'),
  dataset: () => import('./commands/dataset.js'),
  benchmark: () => import('./commands/benchmark.js'),
  pipeline: () => import('./commands/pipeline.js'),
  corpus: () => import('./commands/corpus.js'),
  serve: () => import('./commands/serve.js'),
  annotate: () => import('./commands/annotate.js'),
  labels: () => import('./commands/labels.js'),
  agreement: () => import('./commands/agreement.js'),
  taxonomy: () => import('./commands/taxonomy.js'),
  annotations: () => import('./commands/annotations.js'),
};

function mainHelp(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: stepscope <command> [options]',
    '',
    'Record Python traces, load them into a SQLite corpus, explore forward and inverse',
    'state trees, and serialize debugger trajectories.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'stepscope <command> --help' for a command's options.",
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const all = await Promise.all(Object.values(loaders).map(async (l) => (await l()).command));
    console.log(mainHelp(all));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    const { version } = await import('./version.js');
    console.log(version);
    return 0;
  }
  const load = loaders[name];
  if (!load) {
    console.error(`stepscope: unknown command '${name}'. Run 'stepscope --help'.`);
    return 2;
  }
  const { command } = await load();
  try {
    const { values, positionals } = parseCommandArgs(command, rest);
    if (values.help) {
      console.log(command.help);
      return 0;
    }
    return await command.run(values, positionals);
  } catch (e) {
    // A person can act on a UserError: one line, no stack. Anything else is a bug.
    if (e instanceof UserError) {
      console.error(`stepscope: ${e.message}`);
      return e instanceof CliError ? e.exitCode : 1;
    }
    throw e;
  }
}
