/** `stepscope sql`: run a read-only query against a corpus, rows as JSON lines. */
import { UserError } from '../../common/errors.js';
import { CliError, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'sql',
  summary: 'Run a read-only SQL query on a corpus (rows as JSON lines)',
  help: `Usage: stepscope sql --db corpus.db "SELECT ..."

Opens the corpus read-only and prints each result row as one JSON object. The tables and
columns are described in docs/schema.md. Example:
  stepscope sql --db corpus.db "SELECT name, reason FROM traces WHERE exit = 'error'"

Options:
  --db PATH   the corpus file
  -h, --help  show this help`,
  options: { db: { type: 'string' } },
  positionals: true,
  async run(values, positionals) {
    if (positionals.length !== 1) {
      throw usage(
        `sql: expected one query (quote it), got ${positionals.length} arguments. Try 'stepscope sql --help'.`,
      );
    }
    await withCorpus(values, 'sql', { readonly: true }, (corpus) => {
      let rows;
      try {
        rows = corpus.query(positionals[0]);
      } catch (e) {
        // The statement itself is wrong (syntax, not a query): name the command.
        if (e instanceof UserError) throw new CliError(`sql: ${e.message}`, 1, e.code);
        throw e;
      }
      let out = '';
      for (const row of rows) {
        out += JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) + '\n';
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
