/**
 * Vitest's order of test files, with the slowest started first. On a fresh clone (CI) vitest
 * has no timings yet and starts larger files first; some of the slowest files are small
 * (a test that runs 2,548 CRUXEval generations is 80 lines) and started last, so one worker
 * ran them alone while the other was idle. Longest first keeps both busy to the end.
 * Files keep their project's place (vitest runs the projects' files in its own order).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The slowest files, slowest first (seconds on two cores, quiet, with npm test's recording; 2026-12-02). */
export const SLOW_FILES = [
  'test/cli/corpus-cli.test.ts', // 51
  'test/scoring/cruxeval-published.test.ts', // 37
  'test/predictions/cruxeval-cli.test.ts', // 27
  'test/scoring/faults.test.ts', // 24
  'test/semantics/cli.test.ts', // 23
  'test/main/electronegativity.test.ts', // 18
  'test/predictions/execute.test.ts', // 16
  'test/recorder/record-cli.test.ts', // 15
  'test/cli/annotations-cli.test.ts', // 13
  'test/predictions/create.test.ts', // 11 (its horizon and next-state tests)
];

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FILES.findIndex((s) => f.moduleId.endsWith(`/${s}`));
      return i < 0 ? SLOW_FILES.length : i;
    };
    const project = new Map<string, number>();
    for (const f of sorted) if (!project.has(f.project.name)) project.set(f.project.name, project.size);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort(
        (a, b) => project.get(a.f.project.name)! - project.get(b.f.project.name)! || rank(a.f) - rank(b.f) || a.i - b.i,
      )
      .map(({ f }) => f);
  }
}
