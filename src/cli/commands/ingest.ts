/** `stepscope ingest`: load trace files into a corpus (one transaction per file). */
import { statSync, type Stats } from 'node:fs';
import type { IngestResult } from '../../store/corpus.js';
import { int } from '../../contract/validate.js';
import { CliError, intOption, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';
import { ProgressBar } from '../progress.js';

export const command: Command = {
  name: 'ingest',
  summary: 'Load trace files (JSON Lines) into a SQLite corpus',
  help: `Usage: stepscope ingest FILE... --db corpus.db [--json]

Reads trace files (docs/trace-format.md; '-' reads standard input) into the corpus,
creating it when missing. Each file is one transaction: a bad record rolls the whole file
back and is reported as FILE:LINE: what was expected. A trace already in the corpus (same
content, whatever its wall time) is skipped, so re-running is safe.

Options:
  --db PATH   the corpus file (created if missing)
  --json      print one JSON object {files, traces, inserted, skipped, events}
  --max-line-mb N
              refuse lines longer than N MiB (default 32): a guard against reading a
              broken file whole
  -h, --help  show this help`,
  options: {
    db: { type: 'string' },
    json: { type: 'boolean' },
    'max-line-mb': { type: 'string' },
  },
  positionals: true,
  async run(values, files) {
    if (files.length === 0) throw usage("ingest: at least one trace file is required. Try 'stepscope ingest --help'.");
    const maxLineMb = intOption(values, 'max-line-mb', 'ingest', 32, int(1, 1024));
    // Check every input before opening (and maybe creating) the corpus.
    for (const file of files) {
      if (file === '-') continue;
      const st = statOf(file);
      if (!st) throw new CliError(`${file}: no such file (nothing was stored)`, 1, 'not-found');
      if (st.isDirectory())
        throw new CliError(`${file}: is a folder, expected a trace file (.jsonl) (nothing was stored)`);
    }
    const total = { files: 0, traces: 0, inserted: 0, skipped: 0, events: 0 };
    await withCorpus(values, 'ingest', { create: true }, async (corpus, db) => {
      for (const file of files) {
        const progress = process.stderr.isTTY
          ? new ProgressBar(file, file === '-' ? undefined : statOf(file)?.size)
          : undefined;
        let res: IngestResult;
        try {
          res = await corpus.ingest(file, {
            maxLineBytes: maxLineMb * 1024 * 1024,
            onProgress: progress && ((n) => progress.update(n)),
          });
        } catch (e) {
          progress?.clear();
          if (e instanceof Error) {
            const earlier = total.files
              ? `; the ${total.files} file${total.files > 1 ? 's' : ''} before it ${total.files > 1 ? 'were' : 'was'}`
              : '';
            e.message += ` (nothing from ${file} was stored in ${db}${earlier})`;
          }
          throw e;
        }
        progress?.clear();
        total.files++;
        total.traces += res.traces;
        total.inserted += res.inserted;
        total.skipped += res.skipped;
        total.events += res.events;
      }
      if (values.json) console.log(JSON.stringify(total));
      else {
        const n = (x: number) => x.toLocaleString('en');
        console.log(
          `${db}: ${n(total.files)} file${total.files === 1 ? '' : 's'}, ${n(total.traces)} trace${total.traces === 1 ? '' : 's'} ` +
            `(${n(total.inserted)} new, ${n(total.skipped)} already stored), ${n(total.events)} events read`,
        );
      }
    });
    return 0;
  },
};

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
