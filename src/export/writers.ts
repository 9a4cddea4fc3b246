/**
 * Writers of one data file: JSON Lines, or Parquet through hyparquet-writer (a column
 * chunk buffered per row group). Both stream: memory holds one row group (Parquet) or
 * one megabyte of text (JSONL), whatever the file's size. Same rows in, same bytes out.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { fileWriter } from 'hyparquet-writer/src/node.js';
import type { Column, Row } from './columns.js';

export interface FileWriter {
  write(row: Row): void;
  close(): void;
}

const FLUSH_CHARS = 1 << 20;

export function jsonlWriter(path: string): FileWriter {
  const fd = openSync(path, 'wx');
  let buf = '';
  return {
    write(row) {
      buf += JSON.stringify(row) + '\n';
      if (buf.length >= FLUSH_CHARS) {
        writeSync(fd, buf);
        buf = '';
      }
    },
    close() {
      if (buf) writeSync(fd, buf);
      closeSync(fd);
    },
  };
}

/** Rows per row group, and the text a row group may buffer before it is written. */
const GROUP_ROWS = 50_000;
const GROUP_CHARS = 32 << 20;

export function parquetSchema(columns: Column[]): SchemaElement[] {
  const out: SchemaElement[] = [{ name: 'root', num_children: columns.length }];
  for (const c of columns) {
    const repetition_type = c.nullable ? 'OPTIONAL' : 'REQUIRED';
    if (c.type === 'string') out.push({ name: c.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type });
    else if (c.type === 'int') out.push({ name: c.name, type: 'INT32', repetition_type });
    else if (c.type === 'spans') {
      // LIST of LIST of INT32, each level the spec's 3-level list.
      out.push({ name: c.name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 });
      out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      out.push({ name: 'element', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 });
      out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      out.push({ name: 'element', type: 'INT32', repetition_type: 'REQUIRED' });
    } else {
      out.push({ name: c.name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 });
      out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      out.push({ name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' });
    }
  }
  return out;
}

export function parquetFileWriter(path: string, columns: Column[], createdBy: string): FileWriter {
  const writer = new ParquetWriter({ writer: fileWriter(path), schema: parquetSchema(columns), createdBy });
  let data: unknown[][] = columns.map(() => []);
  let rows = 0;
  let chars = 0;
  const flush = () => {
    if (!rows) return;
    void writer.write({ columnData: columns.map((c, k) => ({ name: c.name, data: data[k] })), rowGroupSize: rows });
    data = columns.map(() => []);
    rows = chars = 0;
  };
  return {
    write(row) {
      for (let k = 0; k < columns.length; k++) {
        const v = row[columns[k].name];
        if (typeof v === 'string') chars += v.length;
        data[k].push(v);
      }
      if (++rows >= GROUP_ROWS || chars >= GROUP_CHARS) flush();
    },
    close() {
      flush();
      void writer.finish();
    },
  };
}
