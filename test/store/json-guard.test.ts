// The checks before and after JSON.parse (json-guard.ts). Before: the depth limit is 100
// levels exactly and counts open containers only; a string repeated in an array is not a
// duplicate key; a string is read to its real end, past escaped quotes and backslashes (so a
// key named twice is still caught, and brackets inside a value are not nesting); a closed
// container's keys are not the outer object's; a malformed key escape is left to JSON.parse's
// error. After: spelling out lone surrogates keeps arrays arrays and keeps a key named
// `__proto__`. Small inputs only: a scanner that walks the text wrongly must fail a test fast.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { checkJsonShape, wellFormed } from '../../src/store/json-guard.js';
import { cleanTempDirs, oneChunk, refusedIngest, tempDir, traceRecords } from './fixtures.js';

afterAll(cleanTempDirs);

describe('json-guard: depth, repeated strings and escapes', () => {
  it('nesting of exactly 100 levels passes, 101 is refused', () => {
    expect(checkJsonShape(`{"a": ${'['.repeat(99)}${']'.repeat(99)}}`)).toBeNull();
    expect(checkJsonShape(`{"a": ${'['.repeat(100)}${']'.repeat(100)}}`)).toBe(
      'JSON nested deeper than 100 levels: expected at most 100',
    );
  });

  it('the same string twice in an array is not a duplicate key', () => {
    expect(checkJsonShape('{"meta": {"tags": ["x", "y", "x", "y"]}}')).toBeNull();
  });

  it('keys ending in an escaped backslash are compared whole', () => {
    expect(checkJsonShape(String.raw`{"a\\": "1", "b": "2"}`)).toBeNull();
    expect(checkJsonShape(String.raw`{"a\\": "1", "c": {"b\\\\": "2", "b\\\\": "3"}}`)).toBe(
      String.raw`duplicate key "b\\\\" in "c": expected each key once`,
    );
  });

  it('keys with a malformed escape are left to JSON.parse (no duplicate-key message)', () => {
    expect(checkJsonShape(String.raw`{"\x": 1, "\x": 2}`)).toBeNull();
  });
});

describe('json-guard: wellFormed keeps arrays', () => {
  it('spells out lone surrogates inside arrays and keeps them arrays', () => {
    const v = wellFormed(JSON.parse('{"cut": ["\\ud800", "b"], "n": [1, [2]]}'));
    expect(v).toEqual({ cut: ['\\ud800', 'b'], n: [1, [2]] });
    expect(Array.isArray((v as { cut: unknown }).cut)).toBe(true);
  });
});

describe('json-guard: strings holding escaped quotes', () => {
  it('a key with an escaped quote, named twice, is a duplicate', () => {
    expect(checkJsonShape(String.raw`{"a\"b": 1, "a\"b": 2}`)).toBe(
      String.raw`duplicate key "a\"b" in the record: expected each key once`,
    );
  });

  it('two keys that differ after an escaped quote are not duplicates', () => {
    expect(checkJsonShape(String.raw`{"a\"b": 1, "a\"c": 2}`)).toBeNull();
  });

  it('brackets inside a value holding escaped quotes are text, not nesting', () => {
    expect(checkJsonShape(`{"v": "say \\"${'['.repeat(101)}\\"", "w": 1}`)).toBeNull();
  });

  it('a key named twice after a value holding an escaped quote is a duplicate', () => {
    expect(checkJsonShape(String.raw`{"v": "\"", "v": 1}`)).toBe(
      'duplicate key "v" in the record: expected each key once',
    );
  });
});

describe('json-guard: closing a container', () => {
  it('a key of a closed inner object may be used again in the outer one', () => {
    expect(checkJsonShape('{"a": {"x": 1}, "x": 2}')).toBeNull();
  });

  it('a key named twice after a closed list is still a duplicate of the record', () => {
    expect(checkJsonShape('{"a": [1], "b": 2, "b": 3}')).toBe(
      'duplicate key "b" in the record: expected each key once',
    );
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
    expect(await refusedIngest(lines, 'q.jsonl')).toBe(
      String.raw`q.jsonl:4: duplicate key "a\"b" in "locals": expected each key once`,
    );
  });
});
