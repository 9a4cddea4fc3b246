// Reading a predictions file, the cases the import tests leave out: what is refused (and with
// which words, at which line), what is skipped, and files that start with blank lines or end
// their lines with CRLF. readPredictionsFile alone: no corpus, items resolved by a small map.
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPredictionsFile } from '../../src/predictions/read-file.js';
import { IngestError } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { fileWriter, tempDir } from './helpers.js';

afterAll(() => cleanTempDirs());

/** Item ids 1 and 2; keys sample_0 → 1, sample_146 → 2. */
const resolve = (id: number | string) =>
  typeof id === 'number'
    ? [1, 2].includes(id)
      ? id
      : undefined
    : ({ sample_0: 1, sample_146: 2 } as Record<string, number>)[id];
const dir = tempDir('stepscope-readfile-');
const file = fileWriter(dir, 'p', 'json');
const read = (text: string, refused: string | null = null) => readPredictionsFile(file(text), resolve, refused);

/** The IngestError reading `text` throws: its message with the file's path replaced by FILE. */
function refusal(text: string): string {
  const f = file(text);
  try {
    readPredictionsFile(f, resolve);
  } catch (e) {
    expect(e).toBeInstanceOf(IngestError);
    expect((e as IngestError).code).toBe('bad-input');
    return (e as Error).message.replace(f, 'FILE');
  }
  throw new Error(`no error reading ${JSON.stringify(text)}`);
}

describe('JSON Lines', () => {
  it('an id that is neither an integer nor a string is named as such, not as an unknown item', () => {
    expect(refusal('{"id": 1.5, "completion": "a"}\n')).toBe(
      'FILE:1: expected "id" to be an item id (an integer) or an item key (a string), got 1.5',
    );
    expect(refusal('{"id": 1, "completion": "a"}\n{"id": null, "completion": "a"}\n')).toBe(
      'FILE:2: expected "id" to be an item id (an integer) or an item key (a string), got null',
    );
    expect(refusal('{"id": true, "completion": "a"}\n')).toMatch(/^FILE:1: expected "id" to be an item id .*got true$/);
  });

  it('a line that is JSON but not an object is refused at its line', () => {
    expect(refusal('{"id": 1, "completion": "a"}\n5\n')).toBe(
      'FILE:2: expected a JSON object like {"id": 17, "completion": "…"}',
    );
    expect(refusal('null\n')).toBe('FILE:1: expected a JSON object like {"id": 17, "completion": "…"}');
    expect(refusal('"text"\n')).toBe('FILE:1: expected a JSON object like {"id": 17, "completion": "…"}');
  });

  it("a line that is not JSON: the message ends with the parser's reason", () => {
    expect(refusal('{"id": 1, "completion": "a"}\n{"id": 2, "completion": \n')).toMatch(
      /^FILE:2: expected a JSON object like \{"id": 17, "completion": "…"\} \(.*JSON.*\)$/,
    );
  });

  it('a non-string first completion of a list is refused (index 0)', () => {
    expect(refusal('{"id": 1, "completions": [3, "a"]}\n')).toBe(
      'FILE:1: expected "completions"[0] to be a string, got 3',
    );
  });

  it('an object with "completions" but no id on one line is a JSON Lines record missing its id', () => {
    expect(refusal('{"completions": ["a"]}\n')).toBe(
      'FILE:1: expected an "id" key (the item id from evalset export) or a "prompt" key (the item\'s exact prompt)',
    );
  });

  // A line may name its item by its exact prompt (harnesses that echo the prompt); a prompt two
  // items share names neither, so the line is refused rather than scored against one of them.
  describe('items named by prompt', () => {
    const prompts: Record<string, number[]> = { 'x = 1<|frame_sep|>': [1], 'same<|frame_sep|>': [1, 2] };
    const byPrompt = (p: string) => prompts[p] ?? [];
    const reading = (text: string) => () => readPredictionsFile(file(text), resolve, null, byPrompt);

    it('a prompt of one item names it', () => {
      const r = readPredictionsFile(
        file('{"prompt": "x = 1<|frame_sep|>", "completion": "a"}\n'),
        resolve,
        null,
        byPrompt,
      );
      expect([...r.byItem]).toEqual([[1, ['a']]]);
    });

    it('a prompt two items share is refused at its line, naming both', () => {
      expect(reading('{"id": 2, "completion": "a"}\n{"prompt": "same<|frame_sep|>", "completion": "b"}\n')).toThrow(
        /:2: "prompt" is the prompt of items 1, 2: name the item by "id" instead$/,
      );
    });

    it("a prompt of no item is refused with the prompt's ending", () => {
      expect(reading('{"prompt": "other", "completion": "b"}\n')).toThrow(
        /:1: expected "prompt" to be the exact prompt of an item of this set; no item's prompt is it \(it ends "other"\)$/,
      );
    });
  });

  it("blank lines (also of spaces, or a CRLF file's lone \\r) are skipped, even before the first record", () => {
    const r = read(
      '\n   \n{"id": 1, "completion": "a"}\r\n\r\n{"id": "sample_146", "completions": ["b", "c"]}\r\n  \r\n',
    );
    expect(r.format).toBe('state');
    expect([...r.byItem]).toEqual([
      [1, ['a']],
      [2, ['b', 'c']],
    ]);
  });
});

describe('CRUXEval files', () => {
  it('a generations file after blank lines is still a generations file', () => {
    const r = read('\n\n  {"sample_0": ["1"], "sample_146": ["2", "3"]}\n');
    expect(r.format).toBe('generations');
    expect([...r.byItem]).toEqual([
      [1, ['1']],
      [2, ['2', '3']],
    ]);
  });

  it('a scored file is read as scored', () => {
    expect(read(JSON.stringify({ raw_generations: { sample_0: ['1'] }, pass_at_1: 0 })).format).toBe('scored');
  });

  it('raw_generations that is not an object is refused at its line', () => {
    for (const v of ['[["1"]]', 'null', '"sample_0"', '3']) {
      expect(refusal(`{\n  "pass_at_1": 0,\n  "raw_generations": ${v}\n}\n`), v).toBe(
        'FILE:3: expected raw_generations to be an object of task id → list of generations',
      );
    }
  });

  it('no generations at all is refused, and a task with an empty list gives no item', () => {
    expect(refusal('{}\n')).toBe('FILE: expected generations in the generations object; there are none');
    expect(refusal('{"sample_0": []}\n')).toBe('FILE: expected generations in the generations object; there are none');
    expect(refusal('{"raw_generations": {}}\n')).toBe('FILE: expected generations in raw_generations; there are none');
    expect([...read('{"sample_0": [], "sample_146": ["x"]}').byItem]).toEqual([[2, ['x']]]);
  });

  it('a generation that is not a string is refused with its index, the first one too', () => {
    expect(refusal('{\n  "sample_0": ["1"],\n  "sample_146": ["a", 3]\n}\n')).toBe(
      'FILE:3: expected "sample_146"[1] to be a string, got 3',
    );
    expect(refusal('{\n  "sample_0": [null, "1"]\n}\n')).toBe(
      'FILE:2: expected "sample_0"[0] to be a string, got null',
    );
  });

  it('errors inside raw_generations point into it, not at the same task under the scored verdicts before it', () => {
    // The scored verdicts come first here and name the same task: the line must be raw_generations'.
    const spaced =
      '{\n  "raw_scored_generations": {\n    "sample_9": [false]\n  },\n  "raw_generations" : {\n    "sample_9": ["x"]\n  }\n}\n';
    expect(refusal(spaced)).toMatch(/^FILE:6: unknown task "sample_9"/);
    const tight = '{\n"raw_scored_generations":{\n"sample_9":[false]},\n"raw_generations":{\n"sample_9":["x"]}}\n';
    expect(refusal(tight)).toMatch(/^FILE:5: unknown task "sample_9"/);
  });

  it('an unknown task whose name has regular-expression characters is found at its line', () => {
    expect(refusal('{\n  "sample_0": ["1"],\n  "what?(x)": ["2"]\n}\n')).toMatch(/^FILE:3: unknown task "what\?\(x\)"/);
  });

  it('an unknown task written with JSON escapes is still refused by name (at line 1 when its text is not found)', () => {
    expect(refusal('{\n  "sample_0": ["1"],\n  "s\\u0041": ["2"]\n}\n')).toBe(
      'FILE:1: unknown task "sA": expected a task id of this set (sample_0 …)',
    );
  });

  it('a parser message that quotes the file is not read for a line number ("line 12" in the file is none)', () => {
    // V8: Unexpected token 'x', "{\n"line 12": x\n}\n" is not valid JSON (no position given).
    const msg = refusal('{\n"line 12": x\n}\n');
    expect(msg).not.toMatch(/^FILE:12:/);
    expect(msg).toMatch(/^FILE(:2)?: expected one JSON object \(a CRUXEval generations file\) or JSON Lines \(/);
  });

  it('a file that is not JSON: the line where the parser stopped, none when it names no position', () => {
    expect(refusal('{\n  "sample_0": ["1"],\n  "sample_146": ["2"\n}\n')).toMatch(/^FILE:4: expected one JSON object/);
    expect(refusal('{\n"sample_0": [')).toBe(
      'FILE: expected one JSON object (a CRUXEval generations file) or JSON Lines (Unexpected end of JSON input)',
    );
  });
});

it('a file that cannot be read is refused with the reason', () => {
  const missing = join(dir, 'nope.jsonl');
  expect(() => readPredictionsFile(missing, resolve)).toThrow(new RegExp(`^${missing}: cannot read: ENOENT`));
});

describe('bytes, keys and numbers as the file has them', () => {
  const bytesFile = (...parts: (string | number[])[]) => {
    const f = join(dir, `bytes${parts.length}-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(f, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));
    return f;
  };
  const refusedBytes = (f: string) => {
    try {
      readPredictionsFile(f, resolve);
    } catch (e) {
      expect(e).toBeInstanceOf(IngestError);
      return (e as Error).message.replace(f, 'FILE');
    }
    throw new Error('no error');
  };

  it('bytes that are not UTF-8 are refused at FILE:LINE with their byte offset, never read as U+FFFD', () => {
    // "café" in Latin-1: the é is the byte 0xe9, after the 29 bytes of line 1 and 28 of line 2.
    const f = bytesFile('{"id": 1, "completion": "a"}\n{"id": 2, "completion": "caf', [0xe9], '"}\n');
    expect(refusedBytes(f)).toBe(
      'FILE:2: expected UTF-8 text: the byte 0xe9 at byte offset 57 is not valid UTF-8 (save the file as UTF-8)',
    );
    // An encoded surrogate (CESU-8) and a truncated sequence are not UTF-8 either.
    expect(refusedBytes(bytesFile('{"id": 1, "completion": "', [0xed, 0xa0, 0x80], '"}\n'))).toMatch(
      /^FILE:1: expected UTF-8 text: the byte 0xed at byte offset 25 /,
    );
    expect(refusedBytes(bytesFile('{"sample_0": ["', [0xe2, 0x82], '"]}'))).toMatch(/^FILE:1: .* offset 15 /);
  });

  it('a UTF-8 byte-order mark at the start is accepted, in JSON Lines and in a generations file', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const lines = readPredictionsFile(bytesFile(bom, '{"id": 1, "completion": "a"}\n'), resolve);
    expect(lines).toMatchObject({ format: 'state', byItem: new Map([[1, ['a']]]) });
    const gens = readPredictionsFile(bytesFile(bom, '{"sample_0": ["1"], "sample_146": ["2"]}'), resolve);
    expect(gens).toMatchObject({
      format: 'generations',
      byItem: new Map([
        [1, ['1']],
        [2, ['2']],
      ]),
    });
    // Elsewhere it is not a byte-order mark: a line starting with U+FEFF is not JSON.
    expect(refusedBytes(bytesFile('{"id": 1, "completion": "a"}\n', bom, '{"id": 2, "completion": "b"}\n'))).toMatch(
      /^FILE:2: expected a JSON object/,
    );
  });

  it('a task given twice in generations.json is refused naming both lines, not the last kept', () => {
    expect(refusal('{\n  "sample_0": ["1"],\n  "sample_146": ["2"],\n  "sample_0": ["3"]\n}\n')).toBe(
      'FILE:4: "sample_0" is given twice, on line 2 and on line 4; JSON would keep only the last: remove one or merge them',
    );
    // Inside a scored file's raw_generations too; the same key in two different objects is fine.
    const scored =
      '{"raw_generations": {"sample_0": ["1"], "sample_146": ["2"]},\n' +
      ' "raw_scored_generations": {"sample_0": [true], "sample_146": [false]}}';
    expect(readPredictionsFile(file(scored), resolve).byItem.size).toBe(2);
    expect(refusal('{"raw_generations": {"sample_0": ["1"],\n"sample_0": ["2"]}}')).toMatch(
      /^FILE:2: "sample_0" is given twice, on line 1 and on line 2/,
    );
  });

  it('an id too large for a number is quoted as written, not reported as null', () => {
    expect(refusal('{"id": 1e400, "completion": "a"}\n')).toBe(
      'FILE:1: expected "id" to be an item id (an integer) or an item key (a string), got 1e400, a number too large',
    );
    expect(refusal('{"id": 1, "completion": -2E+999}\n')).toBe(
      'FILE:1: expected "completion" to be a string, got -2E+999, a number too large',
    );
  });
});
