/**
 * The columns of each kind (docs/export.md lists them): their order in a JSONL row, their
 * Parquet type and the dataset card's features come from here. Every row starts with
 * `name` (trace name), `trace`, `program` (sha256 of the program's source) and `labels`.
 */
import type { ExportKind } from '../semantics/export-select.js';

/** `spans`: a list of `[start, end]` pairs of int32 (a list of lists). */
export type ColumnType = 'string' | 'int' | 'strings' | 'spans';

export interface Column {
  name: string;
  type: ColumnType;
  /** May be null (only scalars). */
  nullable?: true;
}

const col = (name: string, type: ColumnType = 'string', nullable?: true): Column =>
  nullable ? { name, type, nullable } : { name, type };

const COMMON: Column[] = [col('name'), col('trace', 'int'), col('program'), col('labels', 'strings')];

export const COLUMNS: Record<ExportKind, Column[]> = {
  trajectories: [
    ...COMMON,
    col('id', 'int'),
    col('text'),
    col('direction'),
    col('entry', 'int'),
    col('actions', 'strings'),
    col('exit', 'string', true),
    col('target_spans', 'spans'),
  ],
  'prompt-target': [
    ...COMMON,
    col('source'),
    col('id', 'int'),
    col('set', 'string', true),
    col('key', 'string', true),
    col('step', 'int'),
    col('direction'),
    col('entry', 'int'),
    col('actions', 'strings'),
    col('action'),
    col('prompt'),
    col('target'),
  ],
  corrections: [
    ...COMMON,
    col('prediction', 'int'),
    col('item', 'int'),
    col('set'),
    col('key'),
    col('model'),
    col('sample', 'int'),
    col('direction'),
    col('action'),
    col('step', 'int', true),
    col('prompt'),
    col('chosen'),
    col('rejected'),
    col('wrong', 'strings'),
  ],
  traces: [
    ...COMMON,
    col('seq', 'int'),
    col('event'),
    col('frame', 'int'),
    col('func'),
    col('line', 'int'),
    col('src'),
    col('locals'),
    col('arg', 'string', true),
    col('parent', 'int', true),
  ],
};

export type Row = Record<string, string | number | string[] | [number, number][] | null>;
