/** `stepscope corpus merge`: one corpus from several, e.g. a pipeline's shards (docs/pipeline.md). */
import { UserError } from '../../common/errors.js';
import { mergeCorpora } from '../../store/merge.js';
import { CliError, usage, type Command } from '../command.js';

const HELP = `Usage: stepscope corpus merge OUT.db CORPUS.db...

Writes a new corpus OUT.db holding the traces of every CORPUS.db (their events and stored
trajectories), in the order given, with new trace and trajectory ids. A trace already merged
(the same recording in two corpora) is kept once. Corpora holding evaluation sets, runs,
annotations or benchmark marks are refused (those rows name ids of their own corpus): merge first,
then make them. Open the result as any corpus: stepscope serve --db OUT.db.`;

export const command: Command = {
  name: 'corpus',
  summary: 'Merge corpora (e.g. the shards of a pipeline) into one',
  help: HELP,
  options: {},
  positionals: true,
  run(_values, positionals) {
    const [sub, out, ...sources] = positionals;
    if (sub !== 'merge') throw usage("corpus: expected 'merge'. Try 'stepscope corpus --help'.");
    if (!out || !sources.length) throw usage('corpus merge: expected OUT.db and at least one corpus to merge');
    let r;
    try {
      r = mergeCorpora(out, sources, (file, c) =>
        console.error(
          `${file}: ${c.traces} traces, ${c.events} events, ${c.trajectories} trajectories` +
            (c.duplicates ? `; ${c.duplicates} traces already merged, skipped` : ''),
        ),
      );
    } catch (e) {
      if (e instanceof UserError && !(e instanceof CliError))
        throw new CliError(`corpus merge: ${e.message}`, 1, e.code);
      throw e;
    }
    console.log(
      `${out}: ${r.traces} traces, ${r.events} events, ${r.trajectories} trajectories from ${r.corpora} corpora`,
    );
    return 0;
  },
};
