/**
 * Vitest's order of test files, with the slowest started first. On a fresh clone (CI) vitest
 * has no timings yet and starts larger files first; some of the slowest files are small
 * (a test that runs 2,548 CRUXEval generations is 80 lines) and started last, so one worker
 * ran them alone while the other was idle. Longest first keeps both busy to the end.
 * Files keep their project's place (vitest runs the projects' files in its own order).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The slowest files, slowest first (seconds on a fresh clone on two cores, 2026-12-01). */
export const SLOW_FILES = [
  'test/cli/corpus-cli.test.ts', // 95
  'test/predictions/cruxeval-cli.test.ts', // 83
  'test/server/answers.test.ts', // 37
  'test/scoring/cruxeval-published.test.ts', // 35
  'test/semantics/cli.test.ts', // 20
  'test/export/export.test.ts', // 19
  'test/main/electronegativity.test.ts', // 19
  'test/api/pool.test.ts', // 17
  'test/cli/annotations-cli.test.ts', // 15
  'test/cli/options.test.ts', // 15
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
      .sort((a, b) => project.get(a.f.project.name)! - project.get(b.f.project.name)! || rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
