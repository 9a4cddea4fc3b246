// The checks before and after JSON.parse (json-guard.ts), where the quieter mutation run
// found them untested: a string holding an escaped quote is read to its real end (so a key
// named twice is still caught, and brackets inside a value are not nesting); a closed
// container stops counting (its keys are not the outer object's, its depth is gone); and
// spelling out lone surrogates keeps a key named `__proto__`. Small inputs only: some
// mutants of the scanner make it walk the text wrongly, and a test must fail fast.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { checkJsonShape, wellFormed } from '../../src/store/json-guard.js';
import { cleanTempDirs, oneChunk, refusedIngest, tempDir, traceRecords } from './fixtures.js';

afterAll(cleanTempDirs);

describe('json-guard: strings holding escaped quotes', () => {
  it('a key with an escaped quote, named twice, is a duplicate', () => {
    expect(checkJsonShape(String.raw`{"a\"b": 1, "a\"b": 2}`)).toBe(String.raw`duplicate key "a\"b" in the record: expected each key once`);
  });

  it('two keys that differ after an escaped quote are not duplicates', () => {
    expect(checkJsonShape(String.raw`{"a\"b": 1, "a\"c": 2}`)).toBeNull();
  });

  it('brackets inside a value holding escaped quotes are text, not nesting', () => {
    expect(checkJsonShape(`{"v": "say \\"${'['.repeat(101)}\\"", "w": 1}`)).toBeNull();
  });

  it('a key named twice after a value holding an escaped quote is a duplicate', () => {
    expect(checkJsonShape(String.raw`{"v": "\"", "v": 1}`)).toBe('duplicate key "v" in the record: expected each key once');
  });
});

describe('json-guard: closing a container', () => {
  it('a key of a closed inner object may be used again in the outer one', () => {
    expect(checkJsonShape('{"a": {"x": 1}, "x": 2}')).toBeNull();
  });

  it('a key named twice after a closed list is still a duplicate of the record', () => {
    expect(checkJsonShape('{"a": [1], "b": 2, "b": 3}')).toBe('duplicate key "b" in the record: expected each key once');
  });

  it('a key named twice after a closed object is a duplicate of the object holding it', () => {
    expect(checkJsonShape('{"m": {"a": {}, "b": 2, "b": 3}}')).toBe('duplicate key "b" in "m": expected each key once');
  });

  it('depth counts open containers, not all of them: 150 lists side by side pass', () => {
    expect(checkJsonShape(`{"a": [${Array(150).fill('[1]').join(', ')}]}`)).toBeNull();
  });
});

describe('json-guard: wellFormed keeps every key', () => {
  it('a key named __proto__ stays an own field, beside a lone surrogate', () => {
    const v = wellFormed(JSON.parse('{"__proto__": {"a": 1}, "s": "\\ud800", "l": {"__proto__": "7"}}'));
    expect(JSON.stringify(v)).toBe('{"__proto__":{"a":1},"s":"\\\\ud800","l":{"__proto__":"7"}}');
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('ingest stores a local named __proto__ from a line holding a lone surrogate', async () => {
    const lines = traceRecords({ name: 'p', n: 1 }).map((r) => JSON.stringify(r));
    // Line 4 is the event with seq 2; its locals are {"n":"1"}.
    lines[3] = lines[3].replace('"locals":{', '"locals":{"__proto__":"7","s":"\\ud800",');
    lines[0] = lines[0].replace('"meta":{', '"meta":{"__proto__":{"k":"\\udc00"},');
    const corpus = openCorpus(join(tempDir(), 'c.db'), { create: true });
    try {
      await corpus.ingestStream(oneChunk(lines), 'p.jsonl');
      const [trace] = corpus.listTraces().rows;
      expect(JSON.stringify(corpus.getEvents(trace.id)[2].locals)).toBe('{"__proto__":"7","s":"\\\\ud800","n":"1"}');
      expect(JSON.stringify(corpus.getTrace(trace.id)?.meta)).toContain('"__proto__":{"k":"\\\\udc00"}');
    } finally {
      corpus.close();
    }
  });

  it('a line naming a key twice behind escaped quotes is refused, not stored', async () => {
    const lines = traceRecords({ name: 'q', n: 1 }).map((r) => JSON.stringify(r));
    lines[3] = lines[3].replace('"locals":{', '"locals":{"a\\"b":"1","a\\"b":"2",');
    expect(await refusedIngest(lines, 'q.jsonl')).toBe(String.raw`q.jsonl:4: duplicate key "a\"b" in "locals": expected each key once`);
  });
});
