// The data files themselves (src/export/writers.ts, shards.ts): JSONL past its write buffer,
// the Parquet schema other readers see, Parquet row groups cut at 50,000 rows or 32 MiB of
// text (what bounds an export's memory), and a split's shards filled in the planned order.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { COLUMNS, type Column } from '../../src/export/columns.js';
import { shardNames, SplitWriter } from '../../src/export/shards.js';
import { jsonlWriter, parquetFileWriter } from '../../src/export/writers.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { hyparquetRead, jsonlRead } from './helpers.js';

afterAll(cleanTempDirs);

const metadata = (file: string) => {
  const buf = readFileSync(file);
  return parquetMetadata(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
};
const groups = (file: string) => metadata(file).row_groups.map((g) => Number(g.num_rows));
const TWO: Column[] = [
  { name: 'id', type: 'int' },
  { name: 'text', type: 'string' },
];

function writeParquet(rows: { id: number; text: string }[]): string {
  const file = join(tempDir('stepscope-writers-'), 'f.parquet');
  const w = parquetFileWriter(file, TWO, 'test');
  for (const r of rows) w.write(r);
  w.close();
  return file;
}

describe('JSONL', () => {
  it('a file of several megabytes (past the 1 MiB buffer) holds every row once, in order, one a line', () => {
    const file = join(tempDir('stepscope-writers-'), 'f.jsonl');
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, text: `${i}:`.padEnd(1000, 'x') }));
    const w = jsonlWriter(file);
    for (const r of rows) w.write(r);
    w.close();
    expect(readFileSync(file, 'utf8')).toBe(rows.map((r) => JSON.stringify(r) + '\n').join(''));
  });
});

describe('Parquet', () => {
  it('the schema: required columns, nullable ones optional, string lists as the LIST of the Parquet spec', () => {
    const file = join(tempDir('stepscope-writers-'), 'f.parquet');
    const w = parquetFileWriter(file, COLUMNS.traces, 'test');
    w.write({
      name: 'a',
      trace: 1,
      program: 'h',
      labels: ['x.y'],
      seq: 0,
      event: 'call',
      frame: 1,
      func: 'f',
      line: 1,
      src: 'def f():',
      locals: '{}',
      arg: null,
      parent: null,
    });
    w.close();
    const schema = metadata(file)
      .schema.slice(1)
      .map((e) => [e.name, e.repetition_type, e.converted_type ?? null]);
    expect(schema).toEqual([
      ['name', 'REQUIRED', 'UTF8'],
      ['trace', 'REQUIRED', null],
      ['program', 'REQUIRED', 'UTF8'],
      ['labels', 'REQUIRED', 'LIST'],
      ['list', 'REPEATED', null],
      ['element', 'REQUIRED', 'UTF8'],
      ['seq', 'REQUIRED', null],
      ['event', 'REQUIRED', 'UTF8'],
      ['frame', 'REQUIRED', null],
      ['func', 'REQUIRED', 'UTF8'],
      ['line', 'REQUIRED', null],
      ['src', 'REQUIRED', 'UTF8'],
      ['locals', 'REQUIRED', 'UTF8'],
      ['arg', 'OPTIONAL', 'UTF8'],
      ['parent', 'OPTIONAL', null],
    ]);
  });

  it('row groups of at most 50,000 rows, none empty; every row read back after the first group', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, text: `t${i}` }));
    const small = writeParquet(rows(3));
    expect(groups(small)).toEqual([3]);
    expect(groups(writeParquet(rows(50_000)))).toEqual([50_000]);
    const big = writeParquet(rows(50_003));
    expect(groups(big)).toEqual([50_000, 3]);
    const back = await hyparquetRead(big);
    expect(back.length).toBe(50_003);
    expect(back.slice(49_998)).toEqual(rows(50_003).slice(49_998));
  });

  it('a row group is written once its text reaches 32 MiB, however few its rows', async () => {
    const mib = 'x'.repeat((1 << 20) - 1);
    const rows = Array.from({ length: 33 }, (_, i) => ({ id: i, text: `${i % 10}${mib}` }));
    const file = writeParquet(rows);
    expect(groups(file)).toEqual([32, 1]);
    const back = await hyparquetRead(file);
    expect(back.map((r) => [r.id, (r.text as string).length, (r.text as string)[0]])).toEqual(
      rows.map((r) => [r.id, 1 << 20, String(r.id % 10)]),
    );
  });
});

describe('the shards of a split', () => {
  it('fills the planned files in order, shardRows rows each, and refuses a row that needs a file past them', () => {
    const dir = tempDir('stepscope-shards-');
    mkdirSync(join(dir, 'data'));
    const names = shardNames('train', 5, 2, 'jsonl');
    expect(names).toEqual([
      'data/train-00000-of-00003.jsonl',
      'data/train-00001-of-00003.jsonl',
      'data/train-00002-of-00003.jsonl',
    ]);
    expect(shardNames('test', 0, 2, 'jsonl')).toEqual([]);
    const w = new SplitWriter(dir, names, 2, 'jsonl', TWO, 'test');
    for (let i = 0; i < 5; i++) w.write({ id: i, text: `r${i}` });
    expect(w.written).toBe(5);
    // The last file has room for one more (the export compares the rows written with the
    // plan afterwards); the row after that would need a fourth file.
    w.write({ id: 5, text: 'r5' });
    expect(() => w.write({ id: 6, text: 'r6' })).toThrow(
      'more rows than the plan counted (the corpus changed during the export)',
    );
    w.close();
    expect(names.map((f) => jsonlRead([join(dir, f)]).map((r) => r.id))).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });
});
