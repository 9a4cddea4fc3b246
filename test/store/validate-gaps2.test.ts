// Lines the record checker (validate.ts) must refuse with the right words, where the
// quieter mutation run found them untested: a line of blanks of any length is an empty line;
// a line of JSON that is not an object (null, a number, a string, true) is named as such,
// not a TypeError; a number too large for a double (1e999, read as Infinity) is not a
// number, and is shown as Infinity, not as null. The records are compact JSON, so every line
// takes the full check (no fast path); everything is built inside each test.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanTempDirs, refusedIngest, traceRecords } from './fixtures.js';

afterAll(cleanTempDirs);

const FILE = 'gaps2.jsonl';

/** A small trace as compact JSON lines: line 1 the header, 2–9 the events, 10 the end. */
function lines(): string[] {
  return traceRecords({ name: 'g', n: 1 }).map((r) => JSON.stringify(r));
}

const refusal = (ls: string[]) => refusedIngest(ls, FILE);

describe('validate: blank lines', () => {
  for (const [what, blank] of [['three spaces', '   '], ['a tab and spaces', ' \t  '], ['a CRLF blank line', ' \r']] as const) {
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
