/**
 * The fast path for the recorder's event lines (fast-event.ts): it stores exactly what the full
 * parser would, and hands everything else to the full check, which refuses what must be refused.
 * A negative parent, which the pattern for integers lets through, is one of those: only the
 * range check stands between such a line and the corpus.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fastEvent } from '../../src/store/fast-event.js';
import { pyJson } from '../../src/semantics/json.js';
import { cleanTempDirs, jsonl, refusedIngest, traceRecords } from './fixtures.js';

afterAll(cleanTempDirs);

/** The row the slow path (JSON.parse + canonical re-encoding) would store. */
function slowRow(line: string) {
  const e = JSON.parse(line);
  return [
    0,
    e.seq,
    e.event,
    e.frame,
    e.func,
    e.line,
    e.src,
    pyJson(e.locals),
    e.arg,
    e.parent,
    e.cut === undefined ? null : pyJson(e.cut),
  ];
}

describe('the canonical event fast path', () => {
  it('takes recorder-format lines and stores exactly what the full parser would', () => {
    const tag = ' é "q"\t \\ \u0001 \u007f 😀 </>';
    const recs = [...traceRecords({ n: 3, tag }), ...traceRecords({ n: 2, exit: 'error' })];
    const withCut = { ...recs[5], cut: ['acc', '<arg>'] };
    const lines = jsonl([...recs, withCut])
      .split('\n')
      .filter((l) => l.includes('"type": "event"'));
    for (const line of lines) {
      const seq = JSON.parse(line).seq;
      const out: unknown[] = [];
      expect(fastEvent(line, seq, out), line).toBe(true);
      expect(out).toEqual(slowRow(line));
    }
  });

  it('leaves everything else to the full parser', () => {
    const [, , , line] = jsonl(traceRecords({ n: 3 })).split('\n'); // seq 2: parent 1
    const e = JSON.parse(line);
    const reject = (text: string, seq = e.seq) => expect(fastEvent(text, seq, []), text).toBe(false);
    reject(JSON.stringify(e)); // compact layout
    reject(line, e.seq + 1); // not the expected seq
    reject(line.replace('"parent": 1', '"parent": 2')); // parent must be earlier
    reject(line.replace('"frame": 1', '"frame": -1'));
    reject(line.replace('"func": "f"', '"func": "\\/f"')); // a non-canonical escape
    reject(line.replace('"func": "f"', '"func": "é"')); // raw non-ASCII (canonical escapes it)
    reject(line.replace('"event": "call"', '"event": "jump"'));
    reject(line.replace('"n": "3"', '"n": 3')); // a repr must be a string
    reject(`${line.slice(0, -1)}, "extra": 1}`); // an unknown field
    reject(line + ' ');
    // Spellings that are valid JSON but not canonical: the slow path re-encodes them, so
    // the content hash sees one form.
    reject(line.replace('"frame": 1', '"frame": -0'));
    reject(line.replace('"func": "f"', '"func": "\\u0009f"')); // canonical: \t
    reject(line.replace('"func": "f"', '"func": "\\u000af"')); // canonical: \n
    reject(line.replace('"func": "f"', '"func": "\\ud800f"')); // a lone surrogate: spelt out
    reject(line.replace('"func": "f"', '"func": "\\udc00f"'));
    reject(line.replace('"func": "f"', '"func": "\\ude00\\ud83d"')); // a pair the wrong way round
    reject(line.replace('"parent": 1', '"parent": 1, "cut": []'));
    reject(line.replace('"locals": {"n": "3"}', '"locals": {"n": "3", "n": "4"}')); // a name twice
  });

  it('takes surrogate pairs, a backslash before "ud", and distinct names that share a prefix', () => {
    const [, , , line] = jsonl(traceRecords({ n: 3 })).split('\n');
    for (const text of [
      line.replace('"func": "f"', '"func": "\\ud83d\\ude00"'),
      line.replace('"func": "f"', '"func": "\\\\ud800"'), // an escaped backslash, then text
      line.replace('"locals": {"n": "3"}', '"locals": {"n": "3", "n2": "4", "m": "n"}'),
      line.replace('"locals": {"n": "3"}', '"locals": {"n": "a\\", \\"n\\": \\"b", "x": "1"}'),
    ]) {
      const out: unknown[] = [];
      expect(fastEvent(text, 2, out), text).toBe(true);
      expect(out).toEqual(slowRow(text));
    }
  });
});

describe('duplicate names in canonical locals', () => {
  const [, , , line] = jsonl(traceRecords({ n: 3 })).split('\n');
  const withLocals = (names: string[]) =>
    line.replace('"locals": {"n": "3"}', `"locals": {${names.map((n, i) => `"${n}": "${i}"`).join(', ')}}`);
  const many = Array.from({ length: 40 }, (_, i) => `v${i}`);

  it('takes many distinct names', () => {
    const out: unknown[] = [];
    expect(fastEvent(withLocals(many), 2, out)).toBe(true);
    expect(out).toEqual(slowRow(withLocals(many)));
  });

  it('refuses a repeated name wherever the two copies sit', () => {
    for (const [a, b] of [
      [0, 1],
      [0, 5],
      [4, 5],
      [5, 6],
      [0, 39],
      [6, 7],
      [30, 39],
      [2, 20],
    ]) {
      const names = many.slice();
      names[b] = names[a];
      expect(fastEvent(withLocals(names), 2, []), `${a} and ${b}`).toBe(false);
    }
  });
});

/** The recorder-layout lines of a small trace: line 4 is the event with seq 2, parent 1. */
function lines(): string[] {
  return jsonl(traceRecords({ name: 'f', n: 1 }))
    .split('\n')
    .slice(0, -1);
}

describe('the parent on the fast path', () => {
  it('a negative parent is not taken by the fast path', () => {
    const line = lines()[3].replace('"parent": 1', '"parent": -1');
    expect(line).toContain('"parent": -1}');
    const out: unknown[] = [];
    expect(fastEvent(line, 2, out)).toBe(false);
    expect(out).toEqual([]);
  });

  it('a recorder-layout line with a negative parent is refused on its line, nothing stored', async () => {
    const ls = lines();
    ls[3] = ls[3].replace('"parent": 1', '"parent": -1');
    expect(await refusedIngest(ls, 'f.jsonl')).toBe(
      'f.jsonl:4: expected "parent" to be null or the seq of an earlier event (0 to 1), got -1',
    );
  });

  it('a parent of 0 is stored as 0 from a recorder-layout line', async () => {
    const ls = lines();
    ls[3] = ls[3].replace('"parent": 1', '"parent": 0');
    const out: unknown[] = [];
    expect(fastEvent(ls[3], 2, out)).toBe(true);
    expect(out[9]).toBe(0);
  });
});
