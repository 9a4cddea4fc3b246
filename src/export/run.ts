/**
 * `stepscope dataset export` and the app's Export: plans, writes every split's shards into
 * a temporary folder beside the output, adds the dataset card and the manifest, then
 * renames the folder into place, so a failed export leaves nothing half-written. The corpus
 * is opened read-only for the whole export and read in one snapshot.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../common/errors.js';
import type { ExportFormat } from '../semantics/export-select.js';
import { openCorpus, type ReadCorpus } from '../store/corpus.js';
import { COLUMNS, type Row } from './columns.js';
import { datasetCard } from './card.js';
import { MANIFEST, manifest, type Manifest, type SplitHolds } from './manifest.js';
import { planExport, type ExportOptions, type Plan } from './plan.js';
import { shapeRows } from './rows.js';
import { discard, outputError, removeStale, throughLinks } from './output.js';
import { shardNames, SplitWriter } from './shards.js';
import { version } from './version.js';

export interface WriteOptions extends ExportOptions {
  format?: ExportFormat;
  /** Rows per file (default 100,000). */
  shardRows?: number;
  /** Replace an output folder that holds an earlier export. */
  force?: boolean;
  /** The card's license (a Hugging Face license id; default `other`). */
  license?: string;
  /** Called every few thousand rows with the rows written and the rows planned. */
  onProgress?: (done: number, total: number) => void;
  /** Told what was cleaned up before writing (a killed export's leftovers), one sentence each. */
  onNote?: (note: string) => void;
}

export const DEFAULT_SHARD_ROWS = 100_000;

/** The plan alone (the app's preview), on a read-only connection of its own. */
export function previewExport(db: string, opts: ExportOptions): Plan {
  return withReadOnly(db, (c) => planExport(c, opts));
}

function withReadOnly<T>(db: string, f: (c: ReadCorpus) => T): T {
  const corpus = openCorpus(db, { readonly: true });
  try {
    return f(corpus);
  } finally {
    corpus.close();
  }
}

/** Refuses an output folder that is not empty, unless --force and it holds an earlier export. */
export function checkOutput(out: string, force: boolean): void {
  if (!existsSync(out)) return;
  let entries: string[];
  try {
    entries = readdirSync(out);
  } catch {
    throw new UserError(`${out} exists and is not a folder`, 'bad-input');
  }
  if (!entries.length) return;
  if (!force)
    throw new UserError(
      `${out} is not empty: give --force to replace an earlier export there, or choose another folder`,
      'bad-input',
    );
  if (!entries.includes(MANIFEST)) {
    throw new UserError(
      `${out} holds files that are not a Stepscope export (no ${MANIFEST}); --force only replaces an earlier export`,
      'bad-input',
    );
  }
}

/** The temporary folders for `out` start with this name, then the writing process's id (beside `out`). */
const partialStem = (out: string) => `.${basename(throughLinks(out))}.partial-`;
/** The temporary folders this process writes for `out` start with this name (beside `out`). */
export const partialPrefix = (out: string) => `${partialStem(out)}${process.pid}-`;

/** Removes this process's temporary folders for `out` (a Ctrl+C handler calls it before exiting). */
export function removePartial(out: string): void {
  const dir = dirname(throughLinks(out));
  for (const f of readdirSync(dir))
    if (f.startsWith(partialPrefix(out))) rmSync(join(dir, f), { recursive: true, force: true });
}

export async function exportDataset(db: string, out: string, opts: WriteOptions): Promise<Manifest> {
  const format = opts.format ?? 'jsonl';
  const shardRows = opts.shardRows ?? DEFAULT_SHARD_ROWS;
  out = throughLinks(out); // a link to a folder: write the folder, keep the link
  for (const note of removeStale(out, partialStem(out))) opts.onNote?.(note);
  checkOutput(out, opts.force ?? false);
  if (!existsSync(dirname(out)))
    throw new UserError(`${dirname(out)} does not exist (the output folder's parent must)`, 'not-found');
  const tmp = join(dirname(out), `${partialPrefix(out)}${Date.now()}`);
  const corpus = openCorpus(db, { readonly: true });
  try {
    const endRead = corpus.beginRead();
    const plan = planExport(corpus, opts);
    if (plan.guard.refusal) throw new UserError(plan.guard.refusal, 'bad-input');
    mkdirSync(join(tmp, 'data'), { recursive: true });
    const { labels, held } = await writeSplits(corpus, plan, tmp, format, shardRows, opts.onProgress);
    const counterfactuals = [...new Set(held.flatMap((h) => [...h.ids]))]
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const l = corpus.counterfactualOf(id);
        return l ? [{ trace: id, origin: l.origin, seq: l.seq, set: l.set }] : [];
      });
    endRead();
    const m = manifest(plan, {
      format,
      shardRows,
      labels,
      held,
      version,
      corpusFile: basename(db),
      corpusSha256: await fileSha256(db),
      schemaVersion: corpus.schemaVersion(),
      files: plan.splits.map((s) => shardNames(s.name, s.rows, shardRows, format)),
      counterfactuals,
    });
    writeFileSync(join(tmp, 'README.md'), datasetCard(m, COLUMNS[plan.options.kind], opts.license ?? 'other'));
    writeFileSync(join(tmp, MANIFEST), JSON.stringify(m, null, 2) + '\n');
    moveIntoPlace(tmp, out);
    return m;
  } catch (e) {
    discard(tmp);
    throw outputError(e, out, tmp) ?? e;
  } finally {
    corpus.close();
  }
}

async function writeSplits(
  corpus: ReadCorpus,
  plan: Plan,
  dir: string,
  format: ExportFormat,
  shardRows: number,
  onProgress?: (done: number, total: number) => void,
): Promise<{ labels: Record<string, number>[]; held: SplitHolds[] }> {
  const columns = COLUMNS[plan.options.kind];
  const writers = plan.splits.map(
    (s) =>
      new SplitWriter(
        dir,
        shardNames(s.name, s.rows, shardRows, format),
        shardRows,
        format,
        columns,
        `Stepscope ${version}`,
      ),
  );
  const labels = plan.splits.map(() => ({}) as Record<string, number>);
  const held = plan.splits.map((): SplitHolds => ({ programs: new Set(), traces: new Set(), ids: new Set() }));
  const total = plan.splits.reduce((a, s) => a + s.rows, 0);
  let done = 0;
  let split = 0;
  const emit = (row: Row) => {
    writers[split].write(row);
    for (const l of row.labels as string[]) labels[split][l] = (labels[split][l] ?? 0) + 1;
    held[split].programs.add(row.program as string);
    held[split].traces.add(row.name as string);
    held[split].ids.add(row.trace as number);
    done++;
  };
  try {
    for (const src of plan.sources) {
      for (const raw of corpus.iterateExportRows(src, plan.filter)) {
        const p = plan.programs.get(raw.program_id as number);
        if (!p) continue; // left out by the leakage guard
        split = p.split;
        const before = done;
        shapeRows(src, raw, p.hash, emit);
        if (Math.floor(done / 5000) !== Math.floor(before / 5000)) {
          onProgress?.(done, total);
          // Let a server answer progress requests, and a Ctrl+C handler run (see partialPrefix).
          await new Promise((r) => setImmediate(r));
        }
      }
    }
  } finally {
    for (const w of writers) w.close();
  }
  writers.forEach((w, k) => {
    if (w.written !== plan.splits[k].rows)
      throw new Error(`split ${plan.splits[k].name}: wrote ${w.written} rows, planned ${plan.splits[k].rows}`);
  });
  onProgress?.(done, total);
  return { labels, held };
}

/** Renames the finished folder into place; an earlier export there is removed only after. */
function moveIntoPlace(tmp: string, out: string): void {
  if (!existsSync(out)) return renameSync(tmp, out);
  const old = `${tmp}.old`;
  renameSync(out, old);
  try {
    renameSync(tmp, out);
  } catch (e) {
    renameSync(old, out);
    throw e;
  }
  rmSync(old, { recursive: true, force: true });
}

async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}
