/** `stepscope sample`: draw debugger trajectories over stored traces and store them. */
import { readFileSync } from 'node:fs';
import { recordId } from '../../contract/traces.js';
import { int } from '../../contract/validate.js';
import { UserError } from '../../common/errors.js';
import { DIRECTION_CHOICES, ENTRY_CHOICES, PAPER_POLICY, validatePolicy, type Policy } from '../../semantics/index.js';
import { sampleCorpus } from '../../trajectories/sample-corpus.js';
import { choiceOption, CliError, intOption, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'sample',
  summary: 'Sample debugger trajectories over the traces of a corpus and store them',
  help: [
    'Usage: stepscope sample --db CORPUS [--per-entry N] [--seed S] [--direction forward|inverse|both]',
    '                        [--entry root|calls|random] [--max-steps K] [--trace ID] [--policy FILE] [--unique]',
    '',
    "Draws actions at random with the paper's policy (docs/semantics.md §7) and stores each",
    'trajectory with its serialized text and one row per step. Reproducible: the same corpus,',
    'seed and options give the same trajectories, and running it again stores nothing new.',
    '',
    '  --db CORPUS      corpus file (upgraded to the trajectories schema if needed)',
    '  --per-entry N    trajectories per entry and direction (default 1): with --entry calls and',
    '                   --direction both, a trace of 5 calls gives 5 x 2 x N; --per-trace is the',
    '                   same option under its old name',
    '  --seed S         integer seed (default 0)',
    '  --direction D    forward, inverse or both (default forward)',
    '  --entry E        root: the whole trace; calls: every call event as an entry;',
    '                   random: each trajectory from a random call (default root)',
    '  --max-steps K    at most K actions; a trajectory still running is cut and ends with',
    '                   <|trace_end|> (default: no limit, every trajectory runs to its exit)',
    '  --trace ID       only this trace (default: every trace)',
    '  --unique         drop a trajectory whose serialized text is already stored (short programs',
    '                   give the same walk from many draws; training data then holds each once)',
    '  --policy FILE    JSON policy weights, same shape as the default:',
    `                   ${JSON.stringify(PAPER_POLICY)}`,
  ].join('\n'),
  options: {
    db: { type: 'string' },
    'per-entry': { type: 'string' },
    'per-trace': { type: 'string' },
    unique: { type: 'boolean' },
    seed: { type: 'string' },
    direction: { type: 'string' },
    entry: { type: 'string' },
    'max-steps': { type: 'string' },
    trace: { type: 'string' },
    policy: { type: 'string' },
  },
  run(values) {
    if (values['per-entry'] !== undefined && values['per-trace'] !== undefined)
      throw usage('sample: --per-entry and --per-trace are one option (--per-trace is its old name): give one');
    const perName = values['per-trace'] !== undefined ? 'per-trace' : 'per-entry';
    const perTrace = intOption(values, perName, 'sample', 1, int(1));
    const seed = intOption(values, 'seed', 'sample', 0);
    const direction = choiceOption(values, 'direction', 'sample', DIRECTION_CHOICES, 'forward')!;
    const entry = choiceOption(values, 'entry', 'sample', ENTRY_CHOICES, 'root')!;
    const maxSteps =
      values['max-steps'] === undefined ? undefined : intOption(values, 'max-steps', 'sample', undefined, int(1));
    const traceId = values.trace === undefined ? undefined : intOption(values, 'trace', 'sample', undefined, recordId);
    let policy: Policy | undefined;
    if (values.policy !== undefined) {
      const file = values.policy as string;
      try {
        policy = JSON.parse(readFileSync(file, 'utf8')) as Policy;
        validatePolicy(policy);
      } catch (e) {
        throw usage(`sample: ${file}: ${(e as Error).message}`);
      }
    }

    return withCorpus(values, 'sample', {}, (corpus) => {
      const started = performance.now();
      let r;
      try {
        r = sampleCorpus(corpus, {
          seed,
          perTrace,
          direction,
          entry,
          maxSteps,
          policy,
          traceId,
          unique: !!values.unique,
        });
      } catch (e) {
        if (e instanceof UserError) throw new CliError(`sample: ${e.message}`, 1, e.code);
        throw e;
      }
      const s = (performance.now() - started) / 1000;
      console.log(
        `sampled ${r.sampled} trajectories over ${r.traces} traces: stored ${r.stored}, already stored ${r.skipped}` +
          (values.unique ? `, ${r.duplicates} dropped as the text of one stored` : '') +
          '; ' +
          `${(r.textBytes / 1e6).toFixed(2)} MB of text in ${s.toFixed(1)}s`,
      );
      return 0;
    });
  },
};
