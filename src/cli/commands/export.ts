/** `stepscope export`: write stored traces back out as a trace file. */
import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { recordId } from '../../contract/traces.js';
import { TRACE_EXITS } from '../../trace/types.js';
import { choiceOption, CliError, intOptions, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';
import { mixedPythonsWarning } from '../../store/python-versions.js';

export const command: Command = {
  name: 'export',
  summary: 'Write traces from a corpus to a trace file (JSON Lines)',
  help: `Usage: stepscope export --db corpus.db [--trace ID]... [--search S] [--exit E] [-o OUT.jsonl]

Writes the chosen traces (default: all) in the trace file format (docs/trace-format.md),
in the recorder's layout, to OUT.jsonl or standard output. Ingesting the output again
stores nothing new; ingesting it into another corpus copies the traces.

Options:
  --db PATH          the corpus file
  --trace ID         a trace id; repeat for several
  --search S         traces whose name contains S
  --exit E           traces that ended normal, error or never
  -o, --output FILE  write here instead of standard output (replaced only when complete)
  -h, --help         show this help`,
  options: {
    db: { type: 'string' },
    trace: { type: 'string', multiple: true },
    search: { type: 'string' },
    exit: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  async run(values) {
    const exit = choiceOption(values, 'exit', 'export', TRACE_EXITS);
    const ids = intOptions(values, 'trace', 'export', recordId);
    const output = values.output as string | undefined;
    if (output && !existsSync(dirname(resolve(output))))
      throw new CliError(`export: cannot write ${output}: the folder ${dirname(resolve(output))} does not exist`);
    await withCorpus(values, 'export', { readonly: true }, async (corpus, db) => {
      for (const id of ids)
        if (!corpus.getTrace(id)) throw new CliError(`export: no trace with id ${id} in ${db}`, 1, 'not-found');
      const chosen = ids.length
        ? ids
        : corpus.listTraces({ search: values.search as string | undefined, exit }).rows.map((r) => r.id);
      const mixed = mixedPythonsWarning(corpus, chosen);
      if (mixed) console.error(`export: warning: the export ${mixed}`);
      // Write beside the target and rename at the end: a failed export leaves no half file.
      if (!output) {
        await corpus.export(chosen, process.stdout);
        return;
      }
      const tmp = `${output}.partial-${process.pid}`;
      const out: Writable = createWriteStream(tmp);
      try {
        const res = await corpus.export(chosen, out);
        out.end();
        await once(out, 'finish');
        renameSync(tmp, output);
        console.error(`${output}: ${res.traces} traces, ${res.events} events`);
      } catch (e) {
        out.destroy();
        rmSync(tmp, { force: true });
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EACCES')
          throw new CliError(`export: cannot write ${output}: ${(e as Error).message}`);
        throw e;
      }
    });
    return 0;
  },
};
