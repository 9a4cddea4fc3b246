/** `stepscope events`: print a window of one trace's events. */
import type { TraceEvent } from '../../trace/types.js';
import { recordId } from '../../contract/traces.js';
import { int } from '../../contract/validate.js';
import { CliError, checkedOption, integerText, intOption, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'events',
  summary: "Print a trace's events (a window by seq)",
  help: `Usage: stepscope events --db corpus.db --trace ID [--from S] [--to S] [--json]

Prints the events with S_from <= seq < S_to, one per line.

Options:
  --db PATH    the corpus file
  --trace ID   the trace id (see 'stepscope traces')
  --from S     first seq to print (default 0)
  --to S       stop before this seq (default: the end of the trace)
  --json       one JSON object per event: {seq, event, frame, func, line, src, locals, arg,
               parent} (+ cut when a repr was cut); locals maps names to repr strings
  -h, --help   show this help`,
  options: {
    db: { type: 'string' },
    trace: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values) {
    const id = intOption(values, 'trace', 'events', undefined, recordId);
    const from = intOption(values, 'from', 'events', 0, int(0));
    const to = checkedOption(values, 'to', 'events', int(0), integerText) ?? Infinity;
    await withCorpus(values, 'events', { readonly: true }, (corpus, db) => {
      const t = corpus.getTrace(id);
      if (!t)
        throw new CliError(
          `events: no trace with id ${id} in ${db} (see 'stepscope traces --db ${db}')`,
          1,
          'not-found',
        );
      const format = values.json ? (e: TraceEvent) => JSON.stringify(e) : human;
      let out = '';
      for (const e of corpus.iterateEvents(id, from, to)) {
        out += format(e) + '\n';
        if (out.length > 1 << 16) {
          process.stdout.write(out);
          out = '';
        }
      }
      process.stdout.write(out);
    });
    return 0;
  },
};

/** `   12 line       f#1    4 |     acc += i        n=3 acc=0 i=1` */
function human(e: TraceEvent): string {
  const where = `${e.func}#${e.frame}`;
  const locals = Object.entries(e.locals)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const arg = e.arg === null ? '' : e.event === 'return' ? ` -> ${e.arg}` : ` ! ${e.arg}`;
  return `${String(e.seq).padStart(6)} ${e.event.padEnd(9)} ${where.padEnd(14)} ${String(e.line).padStart(4)} | ${e.src.trim().padEnd(30)} ${locals}${arg}`.trimEnd();
}
