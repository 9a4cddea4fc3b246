/** `stepscope traces`: list the traces of a corpus, filtered and sorted in SQLite. */
import { int } from '../../contract/validate.js';
import { TRACE_SORTS } from '../../trace/listing.js';
import { TRACE_EXITS } from '../../trace/types.js';
import { choiceOption, intOption, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

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
  --sort KEY       id (default), name (natural: sample_2 before sample_10) or events
  --desc           sort descending
  --limit N        at most N traces (default: all)
  --offset N       skip the first N
  --json           one JSON object per line: {id, name, mode, exit, reason, events, python, seconds,
                   counterfactual_of} (counterfactual_of: the origin of a counterfactual, else null)
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
    const exit = choiceOption(values, 'exit', 'traces', TRACE_EXITS);
    const sort = choiceOption(values, 'sort', 'traces', TRACE_SORTS, 'id');
    const limit = values.limit === undefined ? undefined : intOption(values, 'limit', 'traces', undefined, int(0));
    const offset = intOption(values, 'offset', 'traces', 0, int(0));
    await withCorpus(values, 'traces', { readonly: true }, (corpus) => {
      const { total, rows } = corpus.listTraces({
        search: values.search as string | undefined,
        code: values.code as string | undefined,
        value: values.value as string | undefined,
        exit,
        sort,
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
        // A column `origin` (the trace a counterfactual was made from) only when one is listed.
        const cf = rows.some((r) => r.counterfactual_of !== null);
        console.log(
          table(
            ['id', 'name', 'mode', 'exit', 'events', 'seconds', 'python', ...(cf ? ['origin'] : []), 'reason'],
            rows.map((r) => [
              r.id,
              r.name,
              r.mode,
              r.exit,
              r.events,
              Number(r.seconds.toFixed(3)),
              r.python,
              ...(cf ? [r.counterfactual_of === null ? '' : `cf of ${r.counterfactual_of}`] : []),
              reason(r.reason),
            ]),
          ),
        );
      }
      const shown =
        rows.length === total
          ? `${total} trace${total === 1 ? '' : 's'}`
          : `${rows.length} of ${total} traces (use --limit/--offset)`;
      console.log(shown);
    });
    return 0;
  },
};
