// The record checks of validate.ts, each through the slow path: the records are written as
// compact JSON (`{"type":"event",...}`), not the recorder's layout, so no event line takes
// the fast path of fast-event.ts and every one reaches RecordChecker. Each bad record must be
// refused with exactly `FILE:LINE: what was expected, got what`, and the corpus left empty;
// the good variants next to them must be stored. A line of blanks of any length is an empty
// line; JSON that is not an object is named as such; a number too large for a double (1e999,
// read as Infinity) is not a number and is shown as Infinity. Everything is built inside each
// test (Stryker's per-test coverage does not see beforeAll).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IngestError, openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, refusedIngest, tempDir, traceRecords, type Rec } from './fixtures.js';

afterAll(cleanTempDirs);

const FILE = 'trace.jsonl';

/** The lines of a small trace (n = 1: line 1 the header, 2–9 the events, 10 the end), compact JSON. */
function lines(): string[] {
  return traceRecords({ name: 'g', n: 1 }).map((r) => JSON.stringify(r));
}

/** Record `i` (0 = the header, 1.. the events, 9 the end) changed by `edit`. */
function edited(i: number, edit: (r: Rec) => void): string[] {
  const recs = traceRecords({ name: 'g', n: 1 });
  edit(recs[i]);
  return recs.map((r) => JSON.stringify(r));
}

/** Ingests the lines into a fresh corpus: the error's message, or 'stored' (and the trace). */
async function ingest(ls: string[]): Promise<{ outcome: string; corpus: ReturnType<typeof openCorpus> }> {
  const corpus = openCorpus(join(tempDir(), 'c.db'), { create: true });
  const text = ls.map((l) => l + '\n').join('');
  async function* one() {
    yield Buffer.from(text);
  }
  const outcome = await corpus.ingestStream(one(), FILE).then(
    () => 'stored',
    (e: unknown) => {
      expect(e).toBeInstanceOf(IngestError);
      expect(corpus.counts().traces).toBe(0);
      return (e as IngestError).message;
    },
  );
  return { outcome, corpus };
}

/** The message refusing the lines (see refusedIngest), from a fresh corpus. */
const refusal = (ls: string[]) => refusedIngest(ls, FILE);

async function refused(ls: string[], line: number, message: string): Promise<void> {
  const { outcome, corpus } = await ingest(ls);
  corpus.close();
  expect(outcome).toBe(`${FILE}:${line}: ${message}`);
}

async function stored(ls: string[]): Promise<ReturnType<typeof openCorpus>> {
  const { outcome, corpus } = await ingest(ls);
  expect(outcome).toBe('stored');
  return corpus;
}

describe('validate: lines that are not records', () => {
  it('a line of one space is an empty line, not invalid JSON', async () => {
    const ls = lines();
    ls.splice(2, 0, ' ');
    await refused(ls, 3, 'expected a JSON record, got an empty line');
  });

  it('a short line that is JSON but not an object is named as such', async () => {
    const ls = lines();
    ls.splice(2, 0, '[]');
    await refused(ls, 3, 'expected a JSON object, got []');
  });
});

describe('validate: the header', () => {
  it('a missing "format" is reported as nothing', async () => {
    await refused(
      edited(0, (r) => delete r.format),
      1,
      'expected "format": "stepscope-trace", got nothing',
    );
  });

  it('a long bad value is cut to 57 characters and "..."; one of 60 is shown whole', async () => {
    await refused(
      edited(0, (r) => (r.format = 'x'.repeat(100))),
      1,
      `expected "format": "stepscope-trace", got "${'x'.repeat(56)}...`,
    );
    await refused(
      edited(0, (r) => (r.format = 'y'.repeat(58))),
      1,
      `expected "format": "stepscope-trace", got "${'y'.repeat(58)}"`,
    );
  });

  it('a missing string field is named with the record it belongs to', async () => {
    await refused(
      edited(0, (r) => delete r.name),
      1,
      'expected a "name" field (a string) in the trace header',
    );
    await refused(
      edited(0, (r) => delete r.context_inverse),
      1,
      'expected a "context_inverse" field (a string) in the trace header',
    );
  });

  it('"mode": "script" is stored; any other mode but "call" is refused', async () => {
    const corpus = await stored(edited(0, (r) => (r.mode = 'script')));
    expect(corpus.listTraces().rows.map((t) => t.mode)).toEqual(['script']);
    corpus.close();
    await refused(
      edited(0, (r) => (r.mode = 'module')),
      1,
      'expected "mode": "script" or "call", got "module"',
    );
  });

  it('each field of the wrong type is named with the type expected', async () => {
    await refused(
      edited(0, (r) => (r.hashseed = '0')),
      1,
      'expected "hashseed" to be an integer, got "0"',
    );
    await refused(
      edited(0, (r) => (r.call = 5)),
      1,
      'expected "call" to be a string or null, got 5',
    );
    await refused(
      edited(0, (r) => (r.meta = [])),
      1,
      'expected "meta" to be an object, got []',
    );
    await refused(
      edited(0, (r) => ((r.limits as Rec).seconds = '10')),
      1,
      'expected "seconds" to be a number, got "10"',
    );
  });

  it('"limits" names its own missing and unexpected fields', async () => {
    await refused(
      edited(0, (r) => delete (r.limits as Rec).events),
      1,
      'expected a "events" field (a number) in "limits"',
    );
    await refused(
      edited(0, (r) => ((r.limits as Rec).cpu = 1)),
      1,
      'unexpected field "cpu" in "limits"',
    );
  });
});

describe('validate: event records (full check)', () => {
  // Record 3 is the event with seq 2, on line 4 (parent 1, frame 1).
  const cases: Array<[string, (r: Rec) => void, string]> = [
    ['a frame that is not an integer', (r) => (r.frame = 'a'), 'expected "frame" to be an integer, got "a"'],
    ['a negative frame', (r) => (r.frame = -1), 'expected "frame" to be 0 or more, got -1'],
    ['a func that is not a string', (r) => (r.func = 5), 'expected "func" to be a string, got 5'],
    ['a line that is not an integer', (r) => (r.line = 1.5), 'expected "line" to be an integer, got 1.5'],
    ['a src that is null', (r) => (r.src = null), 'expected "src" to be a string, got null'],
    ['locals that are a string', (r) => (r.locals = 'x'), 'expected "locals" to be an object, got "x"'],
    ['locals that are null', (r) => (r.locals = null), 'expected "locals" to be an object, got null'],
    ['an arg that is a number', (r) => (r.arg = 5), 'expected "arg" to be a string or null, got 5'],
    [
      'a negative parent',
      (r) => (r.parent = -1),
      'expected "parent" to be null or the seq of an earlier event (0 to 1), got -1',
    ],
    ['a cut list holding a number', (r) => (r.cut = [1]), 'expected "cut" to be a list of names, got [1]'],
    ['a cut that is a string', (r) => (r.cut = 'x'), 'expected "cut" to be a list of names, got "x"'],
  ];
  for (const [what, edit, message] of cases) {
    it(`refused: ${what}`, async () => {
      await refused(edited(3, edit), 4, message);
    });
  }

  it('stored: a parent of 0 (the first event), through the full check', async () => {
    const corpus = await stored(edited(3, (r) => (r.parent = 0)));
    expect(corpus.getEvents(corpus.listTraces().rows[0].id)[2].parent).toBe(0);
    corpus.close();
  });
});

describe('validate: the end record', () => {
  it('an unknown exit is refused', async () => {
    await refused(
      edited(9, (r) => (r.exit = 'crashed')),
      10,
      'expected "exit": "normal", "error" or "never", got "crashed"',
    );
  });

  it('"stdout_bytes" must be an integer when given', async () => {
    await refused(
      edited(9, (r) => (r.stdout_bytes = '12')),
      10,
      'expected "stdout_bytes" to be an integer, got "12"',
    );
    const corpus = await stored(edited(9, (r) => (r.stdout_bytes = 12)));
    corpus.close();
  });

  it('a missing field is named with "the end record"', async () => {
    await refused(
      edited(9, (r) => delete r.seconds),
      10,
      'expected a "seconds" field (a number) in the end record',
    );
  });
});

describe('validate: blank lines', () => {
  for (const [what, blank] of [
    ['three spaces', '   '],
    ['a tab and spaces', ' \t  '],
    ['a CRLF blank line', ' \r'],
  ] as const) {
    it(`a line of blanks is an empty line, whatever its length (${what})`, async () => {
      const ls = lines();
      ls.splice(2, 0, blank);
      expect(await refusal(ls)).toBe(`${FILE}:3: expected a JSON record, got an empty line`);
    });
  }
});

describe('validate: JSON that is not an object', () => {
  for (const value of ['null', '5', '"abc"', 'true']) {
    it(`a line holding ${value} is refused as not an object`, async () => {
      const ls = lines();
      ls.splice(2, 0, value);
      expect(await refusal(ls)).toBe(`${FILE}:3: expected a JSON object, got ${value}`);
    });
    it(`a first line holding ${value} is refused as not an object`, async () => {
      expect(await refusal([value, ...lines()])).toBe(`${FILE}:1: expected a JSON object, got ${value}`);
    });
  }
});

describe('validate: numbers too large for a double', () => {
  it('"seconds": 1e999 in "limits" is refused and shown as Infinity', async () => {
    const ls = lines();
    expect(ls[0]).toContain('"seconds":10,');
    ls[0] = ls[0].replace('"seconds":10,', '"seconds":1e999,');
    expect(await refusal(ls)).toBe(`${FILE}:1: expected "seconds" to be a number, got Infinity`);
  });

  it('"seconds": -1e999 in the end record is refused', async () => {
    const ls = lines();
    expect(ls[9]).toContain('"seconds":0.001');
    ls[9] = ls[9].replace('"seconds":0.001', '"seconds":-1e999');
    expect(await refusal(ls)).toBe(`${FILE}:10: expected "seconds" to be a number, got -Infinity`);
  });

  it('"events": 1e999 in the end record is not an integer, shown as Infinity', async () => {
    const ls = lines();
    ls[9] = ls[9].replace('"events":8', '"events":1e999');
    expect(await refusal(ls)).toBe(`${FILE}:10: expected "events" to be an integer, got Infinity`);
  });
});
