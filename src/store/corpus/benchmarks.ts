/**
 * The leakage guard's knowledge of benchmark programs (queries/benchmarks.ts): what the
 * corpus says by itself (trace meta, CRUXEval sets) and what a person marked.
 */
import {
  evalsetBenchmarkPrograms,
  markedPrograms,
  markPrograms,
  tracedBenchmarkPrograms,
  unmarkPrograms,
  type MarkedProgram,
  type ProgramOf,
} from '../queries/benchmarks.js';
import type { CorpusClass } from './base.js';

export function BenchmarkReads<B extends CorpusClass>(Base: B) {
  return class BenchmarkReads extends Base {
    /** Program rows of traces recorded from a benchmark, with the benchmark's name. */
    tracedBenchmarkPrograms(): ProgramOf[] {
      return this.guard(() => tracedBenchmarkPrograms(this.conn));
    }

    /** Program rows of CRUXEval evaluation sets' items, with the set's name. */
    evalsetBenchmarkPrograms(): ProgramOf[] {
      return this.guard(() => evalsetBenchmarkPrograms(this.conn));
    }

    /** Programs (source hashes) a person marked as a benchmark's. */
    markedPrograms(): MarkedProgram[] {
      return this.guard(() => markedPrograms(this.conn));
    }
  };
}

export function BenchmarkWrites<B extends CorpusClass>(Base: B) {
  return class BenchmarkWrites extends Base {
    /** Marks source hashes as the benchmark's; returns how many were new. */
    markPrograms(benchmark: string, programs: string[], added = new Date().toISOString()): number {
      this.assertWritable();
      return this.guard(() => markPrograms(this.conn, benchmark, programs, added));
    }

    /** Unmarks the benchmark's programs (all when `programs` is undefined); returns how many. */
    unmarkPrograms(benchmark: string, programs?: string[]): number {
      this.assertWritable();
      return this.guard(() => unmarkPrograms(this.conn, benchmark, programs));
    }
  };
}
