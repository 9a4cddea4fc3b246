/**
 * What leaves the corpus: traces written back in the trace file format (../export.ts), and
 * the curated dataset export's reads (queries/export.ts; src/export/ plans and writes): row
 * sources, weights per program, rows in a fixed order, and one read snapshot around it all
 * (the leakage guard's benchmark programs: benchmarks.ts). Reads only.
 */
import type { Writable } from 'node:stream';
import type { ExportFilter, ExportKind } from '../../semantics/export-select.js';
import { exportTraces } from '../export.js';
import {
  beginRead,
  hasAnnotations,
  iterateExportRows,
  iterateProgramSources,
  programWeights,
  rowSources,
  schemaVersion,
  type RowSource,
} from '../queries/export.js';
import type { CorpusClass } from './base.js';

export function ExportReads<B extends CorpusClass>(Base: B) {
  return class ExportReads extends Base {
    /** Writes the given traces to `out` in the trace file format. */
    export(ids: Iterable<number>, out: Writable): Promise<{ traces: number; events: number }> {
      return exportTraces(this.conn, ids, out);
    }

    /** Where rows of `kind` come from under the filter (refuses keys that do not apply). */
    exportSources(kind: ExportKind, f: ExportFilter): RowSource[] {
      return rowSources(kind, f);
    }

    /** Rows per program id that a source gives under the filter. */
    exportWeights(src: RowSource, f: ExportFilter): Map<number, number> {
      return this.guard(() => programWeights(this.conn, src, f));
    }

    /** The source's rows in a fixed order, one at a time. */
    iterateExportRows(src: RowSource, f: ExportFilter): IterableIterator<Record<string, unknown>> {
      return this.guard(() => iterateExportRows(this.conn, src, f));
    }

    iterateProgramSources(): IterableIterator<{ id: number; source: string }> {
      return this.guard(() => iterateProgramSources(this.conn));
    }

    hasAnnotations(): boolean {
      return this.guard(() => hasAnnotations(this.conn));
    }

    schemaVersion(): number {
      return this.guard(() => schemaVersion(this.conn));
    }

    /** Starts one read snapshot; call the function returned to end it. */
    beginRead(): () => void {
      return this.guard(() => beginRead(this.conn));
    }
  };
}
