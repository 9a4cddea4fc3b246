// CRUXEval's own files as scoring reads them (`scores --generations`, the benchmark file):
// bytes that are not UTF-8, a byte-order mark and a task given twice (issue 31, item 19).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCruxevalTasks, readGenerations } from '../../src/scoring/files.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

afterAll(cleanTempDirs);
const dir = tempDir('stepscope-scoring-files-');
let n = 0;
const fileOf = (...parts: (string | number[])[]) => {
  const f = join(dir, `f${n++}.json`);
  writeFileSync(f, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));
  return f;
};
const BOM = [0xef, 0xbb, 0xbf];
const task = (id: string) => JSON.stringify({ id, code: 'def f(x):\n    return x', input: '1', output: '1' }) + '\n';

describe('generations.json', () => {
  it('a task given twice is refused naming both lines (JSON.parse would keep the last)', () => {
    const f = fileOf('{\n  "sample_0": ["a"],\n  "sample_1": ["b"],\n  "sample_0": ["c"]\n}\n');
    expect(() => readGenerations(f)).toThrow(
      `${f}:4: "sample_0" is given twice, on line 2 and on line 4; JSON would keep only the last: remove one or merge them`,
    );
    // Key text compared as decoded: "sample\u005f0" is sample_0.
    expect(() => readGenerations(fileOf('{"sample_0": ["a"], "sample\\u005f0": ["c"]}'))).toThrow(/given twice/);
  });

  it('a byte-order mark is accepted; bytes that are not UTF-8 are refused with line and byte offset', () => {
    expect(readGenerations(fileOf(BOM, '{"sample_0": ["a"]}')).generations).toEqual({ sample_0: ['a'] });
    const f = fileOf('{"sample_0":\n ["', [0xff], '"]}');
    expect(() => readGenerations(f)).toThrow(
      `${f}:2: expected UTF-8 text: the byte 0xff at byte offset 16 is not valid UTF-8 (save the file as UTF-8)`,
    );
  });
});

describe('cruxeval.jsonl', () => {
  it('a byte-order mark is accepted; bytes that are not UTF-8 are refused, not read as U+FFFD', () => {
    expect(readCruxevalTasks(fileOf(BOM, task('sample_0'), task('sample_1'))).map((t) => t.id)).toEqual([
      'sample_0',
      'sample_1',
    ]);
    const f = fileOf(task('sample_0'), '{"id": "sample_1", "code": "', [0xc0, 0xaf], '", "input": "", "output": ""}\n');
    expect(() => readCruxevalTasks(f)).toThrow(
      new RegExp(`^${f}:2: expected UTF-8 text: the byte 0xc0 at byte offset \\d+ `),
    );
  });
});
