/**
 * The files of one split: `data/<split>-00000-of-00003.<ext>`, a new file every `shardRows`
 * rows (the Hugging Face naming, so `data/train-*` matches a split's shards). The number of
 * files is known from the plan before the first row is written.
 */
import { join } from 'node:path';
import type { ExportFormat } from '../semantics/export-select.js';
import type { Column, Row } from './columns.js';
import { jsonlWriter, parquetFileWriter, type FileWriter } from './writers.js';

const pad = (n: number) => String(n).padStart(5, '0');

export function shardNames(split: string, rows: number, shardRows: number, format: ExportFormat): string[] {
  const n = rows === 0 ? 0 : Math.ceil(rows / shardRows);
  return Array.from({ length: n }, (_, i) => `data/${split}-${pad(i)}-of-${pad(n)}.${format}`);
}

export class SplitWriter {
  private current: FileWriter | undefined;
  private inFile = 0;
  private next = 0;
  written = 0;

  constructor(
    private readonly dir: string,
    readonly files: string[],
    private readonly shardRows: number,
    private readonly format: ExportFormat,
    private readonly columns: Column[],
    private readonly createdBy: string,
  ) {}

  write(row: Row): void {
    if (!this.current || this.inFile === this.shardRows) {
      // Closed and forgotten before the next name is taken: when there is none, the export's
      // cleanup closes every writer again, and a second close of the same file would fail
      // (EBADF) and hide this error.
      this.close();
      const name = this.files[this.next++];
      if (name === undefined) throw new Error('more rows than the plan counted (the corpus changed during the export)');
      const path = join(this.dir, name);
      this.current =
        this.format === 'jsonl' ? jsonlWriter(path) : parquetFileWriter(path, this.columns, this.createdBy);
      this.inFile = 0;
    }
    this.current.write(row);
    this.inFile++;
    this.written++;
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
  }
}
