/** `stepscope counterfactual`: record a trace's program again with locals set at one event. */
import { recordId } from '../../contract/traces.js';
import { int } from '../../contract/validate.js';
import { CounterfactualError, recordCounterfactual } from '../../recorder/counterfactual.js';
import { CliError, intOption, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'counterfactual',
  summary: 'Re-run a trace with locals set at one event; store the new trace linked to it',
  help: `Usage: stepscope counterfactual --db corpus.db --trace ID --seq N --set NAME=LITERAL [--set ...] [--json]

Records the trace's program and call again, under its limits and hash seed, and at event N
(as 'stepscope events' numbers them) sets the named locals of that frame to the given Python
literals before state N is recorded: state N shows the new values and the program runs on
from them. The new trace is stored in the corpus, linked to its origin (docs/semantics.md,
"Counterfactuals").

Refused, with nothing stored: N past the end; a return event (the frame is leaving, its
value already computed); a NAME the frame does not have at N; a LITERAL that is not a Python
literal (ast.literal_eval: numbers, strings, bytes, True/False/None, and tuples, lists,
dicts, sets of them); a trace recorded under another Python minor version (set
STEPSCOPE_PYTHON); a program whose events before N differ when run again (not deterministic).

Options:
  --db PATH            the corpus file
  --trace ID           the trace to start from (see 'stepscope traces')
  --seq N              the event to edit
  --set NAME=LITERAL   a local of that frame and its new value; repeatable
  --json               print {"trace", "origin", "seq", "set", "first_difference", "exit",
                       "reason", "events", "inserted"}: first_difference is the first event
                       at which the two traces differ (null: none)
  -h, --help           show this help`,
  options: {
    db: { type: 'string' },
    trace: { type: 'string' },
    seq: { type: 'string' },
    set: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  },
  async run(values) {
    const trace = intOption(values, 'trace', 'counterfactual', undefined, recordId);
    const seq = intOption(values, 'seq', 'counterfactual', undefined, int(0));
    const set: Record<string, string> = {};
    for (const pair of (values.set as string[] | undefined) ?? []) {
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      if (eq < 0 || !name) throw usage(`counterfactual: --set ${pair}: expected NAME=LITERAL`);
      if (Object.hasOwn(set, name)) throw usage(`counterfactual: --set ${pair}: ${name} is set twice`);
      set[name] = pair.slice(eq + 1).trim();
    }
    if (!Object.keys(set).length)
      throw usage(
        "counterfactual: at least one --set NAME=LITERAL is required. Try 'stepscope counterfactual --help'.",
      );
    await withCorpus(values, 'counterfactual', {}, async (corpus, db) => {
      let r;
      try {
        r = await recordCounterfactual(corpus, { trace, seq, set });
      } catch (e) {
        if (!(e instanceof CounterfactualError)) throw e;
        const where = e.kind === 'not-found' ? ` in ${db}` : '';
        throw new CliError(
          `counterfactual: ${e.message}${where}; nothing was stored`,
          e.kind === 'bad-input' ? 2 : 1,
          e.kind === 'not-found' ? 'not-found' : e.kind === 'failed' ? 'internal' : 'bad-input',
        );
      }
      if (values.json) {
        console.log(JSON.stringify(r));
        return;
      }
      const diff =
        r.first_difference === null
          ? 'no event differs from the origin'
          : `first difference at event ${r.first_difference}`;
      console.log(
        `trace ${r.trace}: counterfactual of trace ${r.origin} at event ${r.seq} (${Object.entries(r.set)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}); ${diff}; ${r.events} events, exit ${r.exit}${r.reason ? ` (${r.reason})` : ''}` +
          (r.inserted ? '' : ' (already stored)'),
      );
    });
    return 0;
  },
};
