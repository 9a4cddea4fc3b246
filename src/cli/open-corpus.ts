/**
 * What the corpus commands share: opening the corpus named by --db (read-only when they
 * only read), output helpers. Store errors are UserErrors: main.ts prints them as is.
 */
import { openCorpus, type Corpus, type OpenOptions, type ReadCorpus } from '../store/corpus.js';
import { requireString } from './command.js';

/** Opens --db, runs `f`, closes. A read-only open gives `f` the read-only type. */
export function withCorpus<T>(
  values: Record<string, unknown>,
  cmd: string,
  opts: OpenOptions & { readonly: true },
  f: (c: ReadCorpus, path: string) => T | Promise<T>,
): Promise<T>;
export function withCorpus<T>(
  values: Record<string, unknown>,
  cmd: string,
  opts: OpenOptions & { readonly?: false },
  f: (c: Corpus, path: string) => T | Promise<T>,
): Promise<T>;
export async function withCorpus<T>(
  values: Record<string, unknown>,
  cmd: string,
  opts: OpenOptions,
  f: (c: Corpus, path: string) => T | Promise<T>,
): Promise<T> {
  const path = requireString(values, 'db', cmd);
  // The overloads above give `f` the type its open allows; the object is a Corpus either way.
  const corpus = openCorpus(path, opts) as Corpus;
  try {
    return await f(corpus, path);
  } finally {
    corpus.close();
  }
}

/** Left-aligned text table; numbers right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const right = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  return cells
    .map((r) =>
      r
        .map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
