/**
 * What the corpus commands (ingest, traces, events, demo, sql) share: opening the corpus
 * named by --db, and turning store errors into one-line CliErrors.
 */
import { CorpusError, IngestError, openCorpus, type Corpus, type OpenOptions } from '../store/corpus.js';
import { CliError, requireString } from './command.js';

/** Store errors a person can act on become CliErrors; anything else is a bug and propagates. */
export function toCliError(e: unknown): unknown {
  if (e instanceof CorpusError || e instanceof IngestError) return new CliError(e.message);
  const code = (e as { code?: unknown })?.code;
  if (e instanceof Error && e.name === 'SqliteError' && typeof code === 'string') return new CliError(e.message);
  return e;
}

/** Opens --db, runs `f`, closes; store errors become CliErrors. */
export async function withCorpus<T>(
  values: Record<string, unknown>,
  cmd: string,
  opts: OpenOptions,
  f: (c: Corpus, path: string) => T | Promise<T>,
): Promise<T> {
  const path = requireString(values, 'db', cmd);
  let corpus: Corpus;
  try {
    corpus = openCorpus(path, opts);
  } catch (e) {
    throw toCliError(e);
  }
  try {
    return await f(corpus, path);
  } catch (e) {
    throw toCliError(e);
  } finally {
    corpus.close();
  }
}

/** `stepscope events … | head` should end quietly, not with an EPIPE stack trace. */
export function quietOnClosedStdout(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

/** Left-aligned text table; numbers right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const right = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  return cells
    .map((r) => r.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd())
    .join('\n');
}
