/**
 * `--from-export DIR --split NAME`: the traces of the corpus whose programs are one split of an
 * earlier `dataset export` (its stepscope-export.json lists each split's program hashes), matched
 * by the program's source text, not by trace id, so the export may come from another corpus that
 * holds the same programs. Every program of the split must be in this corpus: a set that silently
 * lacks some of the split would be scored as if it were the whole.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST } from '../export/manifest.js';
import { sourceHash } from '../export/plan.js';
import type { ReadCorpus } from '../store/corpus.js';
import { CliError } from './command.js';

export function traceIdsOfSplit(corpus: ReadCorpus, dir: string, split: string, who: string): number[] {
  const path = join(dir, MANIFEST);
  let m: { splits?: Record<string, { program_hashes?: unknown }> };
  try {
    m = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new CliError(`${who}: --from-export: cannot read ${path}: ${(e as Error).message}`);
  }
  const splits = m.splits ?? {};
  if (!Object.hasOwn(splits, split))
    throw new CliError(
      `${who}: ${path} has no split ${JSON.stringify(split)}; its splits: ${Object.keys(splits).join(', ') || 'none'}`,
    );
  const hashes = splits[split].program_hashes;
  if (!Array.isArray(hashes) || hashes.some((h) => typeof h !== 'string'))
    throw new CliError(
      `${who}: ${path}: splits.${split}.program_hashes is missing: the export was made by an older Stepscope; export again`,
    );
  const wanted = new Set(hashes as string[]);
  const programs: number[] = [];
  const found = new Set<string>();
  for (const { id, source } of corpus.iterateProgramSources()) {
    const h = sourceHash(source); // the hash the export's plan gave the program
    if (wanted.has(h)) {
      programs.push(id);
      found.add(h);
    }
  }
  const missing = wanted.size - found.size;
  if (missing > 0)
    throw new CliError(
      `${who}: ${missing} of the ${wanted.size} programs of split ${JSON.stringify(split)} (${path}) are not in this corpus; ` +
        'record and ingest them first',
    );
  if (wanted.size === 0) throw new CliError(`${who}: split ${JSON.stringify(split)} of ${path} holds no program`);
  return corpus.traceIdsOfPrograms(programs);
}
