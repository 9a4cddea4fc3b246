/** `stepscope traces`: list the traces of a corpus, filtered and sorted in SQLite. */
import type { ExitStatus } from '../../trace/types.js';
import { CliError, intOption, type Command } from '../command.js';
import { quietOnClosedStdout, table, withCorpus } from '../open-corpus.js';

const EXITS = ['normal', 'error', 'never'];
const SORTS = ['id', 'name', 'events'];

export const command: Command = {
  name: 'traces',
  summary: 'List the traces in a corpus',
  help: `Usage: stepscope traces --db corpus.db [--search S] [--exit E] [--code S] [--value S]
                        [--sort id|name|events] [--desc] [--limit N] [--offset N] [--json]

Options:
  --db PATH        the corpus file
  --search S       trace name contains S (case-insensitive for ASCII)
  --exit E         normal, error or never
  --code S         program source contains S
  --value S        some local's repr, in some event, contains S (scans events: slower)
  --sort KEY       id (default), name or events
  --desc           sort descending
  --limit N        at most N traces (default: all)
  --offset N       skip the first N
  --json           one JSON object per line: {id, name, mode, exit, reason, events, python, seconds}
  -h, --help       show this help`,
  options: {
    db: { type: 'string' },
    search: { type: 'string' },
    exit: { type: 'string' },
    code: { type: 'string' },
    value: { type: 'string' },
    sort: { type: 'string' },
    desc: { type: 'boolean' },
    limit: { type: 'string' },
    offset: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values) {
    const exit = values.exit as string | undefined;
    if (exit !== undefined && !EXITS.includes(exit)) throw new CliError(`traces: --exit expects normal, error or never, got '${exit}'`, 2);
    const sort = (values.sort as string | undefined) ?? 'id';
    if (!SORTS.includes(sort)) throw new CliError(`traces: --sort expects id, name or events, got '${sort}'`, 2);
    const limit = values.limit === undefined ? undefined : intOption(values, 'limit', 'traces');
    const offset = intOption(values, 'offset', 'traces', 0);
    if ((limit !== undefined && limit < 0) || offset < 0) throw new CliError('traces: --limit and --offset must be 0 or more', 2);
    quietOnClosedStdout();
    await withCorpus(values, 'traces', { readonly: true }, (corpus) => {
      const { total, rows } = corpus.listTraces({
        search: values.search as string | undefined,
        code: values.code as string | undefined,
        value: values.value as string | undefined,
        exit: exit as ExitStatus | undefined,
        sort: sort as 'id' | 'name' | 'events',
        desc: values.desc === true,
        limit,
        offset,
      });
      if (values.json) {
        process.stdout.write(rows.map((r) => JSON.stringify(r) + '\n').join(''));
        return;
      }
      if (rows.length) {
        const reason = (r: string | null) => (r === null ? '' : r.length > 60 ? `${r.slice(0, 57)}...` : r);
        console.log(
          table(
            ['id', 'name', 'mode', 'exit', 'events', 'seconds', 'python', 'reason'],
            rows.map((r) => [r.id, r.name, r.mode, r.exit, r.events, Number(r.seconds.toFixed(3)), r.python, reason(r.reason)]),
          ),
        );
      }
      const shown = rows.length === total ? `${total} trace${total === 1 ? '' : 's'}` : `${rows.length} of ${total} traces (use --limit/--offset)`;
      console.log(shown);
    });
    return 0;
  },
};
