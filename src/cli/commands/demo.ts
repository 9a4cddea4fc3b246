/** `stepscope demo`: record the bundled demo programs and load them into a corpus. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runRecorder } from '../../recorder/python.js';
import { CliError, requireString, type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

/** <repo>/resources/demo, from src/cli/commands or dist/cli/commands alike. */
const demoDir = fileURLToPath(new URL('../../../resources/demo', import.meta.url));

export const command: Command = {
  name: 'demo',
  summary: 'Record the demo programs and load them into a corpus',
  help: `Usage: stepscope demo --db demo.db

Records the programs in resources/demo with the Python recorder (python3, or
$STEPSCOPE_PYTHON), ingests them into the corpus (created if missing) and lists what it
holds. Running it again stores nothing new.

Options:
  --db PATH   the corpus file
  -h, --help  show this help`,
  options: { db: { type: 'string' } },
  async run(values) {
    requireString(values, 'db', 'demo');
    const dir = mkdtempSync(join(tmpdir(), 'stepscope-demo-'));
    try {
      const file = join(dir, 'demo.jsonl');
      const code = await runRecorder(['record-demo', demoDir, '-o', file]).catch((e: Error) => {
        throw new CliError(`demo: ${e.message}`, 1, 'unavailable');
      });
      if (code !== 0) throw new CliError(`demo: the recorder failed (exit ${code}); nothing was stored`);
      await withCorpus(values, 'demo', { create: true }, async (corpus, db) => {
        const res = await corpus.ingest(file, { origin: 'resources/demo' });
        const { rows } = corpus.listTraces();
        console.log(
          table(
            ['id', 'name', 'exit', 'events'],
            rows.map((r) => [r.id, r.name, r.exit, r.events]),
          ),
        );
        console.log(`${db}: ${rows.length} traces (${res.inserted} new, ${res.skipped} already stored)`);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return 0;
  },
};
