// Empty lines where a chunk's bytes start with the line break (lines.ts), found untested by
// the quieter mutation run: an empty line must be read as a line of its own, wherever the
// chunks of the stream begin and end, so that the record checker refuses it on the right
// line; skipping it would store a trace whose file has a blank line in it, and every later
// line number in a message would be one too low. Small inputs only.
import { describe, expect, it } from 'vitest';
import { forEachLine } from '../../src/store/lines.js';

async function* chunks(parts: string[]) {
  for (const p of parts) yield Buffer.from(p);
}

type Seen = Array<[string, number, boolean]>;

async function read(parts: string[]): Promise<Seen> {
  const seen: Seen = [];
  await forEachLine(chunks(parts), 'f.jsonl', (t, n, term) => seen.push([t, n, term]), 30);
  return seen;
}

describe('lines: an empty line at a chunk boundary', () => {
  it('is read when a chunk starts with its newline and nothing is carried', async () => {
    expect(await read(['a\n', '\nb\n'])).toEqual([['a', 1, true], ['', 2, true], ['b', 3, true]]);
  });

  it('is read when a chunk starts with its newline after a line ending in the chunk before', async () => {
    expect(await read(['a\n', '\n', 'b\n'])).toEqual([['a', 1, true], ['', 2, true], ['b', 3, true]]);
  });

  it('is read when it follows a line carried over from the chunk before', async () => {
    expect(await read(['ab', 'c\n\n', 'd\n'])).toEqual([['abc', 1, true], ['', 2, true], ['d', 3, true]]);
  });

  it('lines after chunks that end with a newline are whole, however many such chunks come', async () => {
    const parts = ['a\n', 'b\n', 'c', 'd\n', 'e', 'f', '\n', 'g'];
    expect(await read(parts)).toEqual([['a', 1, true], ['b', 2, true], ['cd', 3, true], ['ef', 4, true], ['g', 5, false]]);
  });
});
