/**
 * `--traces-from FILE`: the traces of a list file, one trace id or trace name a line, as a
 * trainer's split or a hand-made selection is kept (blank lines and `#` comments are skipped).
 * Every line must name a trace of the corpus, and a name exactly one: a bad line is refused as
 * `FILE:LINE: what was expected`, so a selection never silently loses a program.
 */
import { readFileSync } from 'node:fs';
import type { ReadCorpus } from '../store/corpus.js';
import { CliError } from './command.js';

export function traceIdsFromFile(corpus: ReadCorpus, file: string, who: string): number[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`${who}: cannot read --traces-from ${file}: ${(e as Error).message}`, 1, 'bad-input');
  }
  const ids: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/^\uFEFF/, '').trim();
    if (!line || line.startsWith('#')) return;
    const where = `${file}:${i + 1}`;
    if (/^[0-9]+$/.test(line)) {
      const id = Number(line);
      if (!corpus.getTrace(id)) throw new CliError(`${who}: ${where}: expected a trace id of the corpus, got ${line}`);
      ids.push(id);
      return;
    }
    const named = corpus.traceIdsNamed(line);
    if (named.length === 0)
      throw new CliError(`${who}: ${where}: expected a trace id or name of the corpus, got ${JSON.stringify(line)}`);
    if (named.length > 1)
      throw new CliError(
        `${who}: ${where}: ${JSON.stringify(line)} names ${named.length} traces (ids ${named.join(', ')}): give their ids`,
      );
    ids.push(named[0]);
  });
  if (ids.length === 0) throw new CliError(`${who}: ${file}: expected trace ids or names, one a line; it has none`);
  return ids;
}
