// The line reader (lines.ts), at its edges: a line of exactly the limit is read however its
// bytes arrive in chunks, one byte more is refused; a long line is refused even when the chunk
// also holds invalid UTF-8; an invalid byte at the end of a chunk's last line is not dropped;
// lines followed by a newline are reported as terminated. An empty line is a line of its own
// wherever the chunks begin and end, so that the record checker refuses it on the right line
// (skipping it would store a file with a blank line in it, and number every later line one too
// low). Small inputs only.
import { describe, expect, it } from 'vitest';
import { forEachLine } from '../../src/store/lines.js';

const MAX = 30;

async function* chunks(parts: Buffer[]) {
  for (const p of parts) yield p;
}

function split(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

type Seen = Array<[string, number, boolean]>;

/** The lines read (text, number, terminated), or the error's message. */
async function read(parts: Buffer[], max = MAX): Promise<Seen | string> {
  const seen: Seen = [];
  try {
    await forEachLine(chunks(parts), 'f.jsonl', (t, n, term) => seen.push([t, n, term]), max);
    return seen;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('lines: the longest line', () => {
  const exact = 'x'.repeat(MAX);
  const body = Buffer.from(`a\n${exact}\nb\n`);
  const splits: Array<[string, () => Buffer[]]> = [
    ['one chunk', () => [body]],
    ['1-byte chunks', () => split(body, 1)],
    ['7-byte chunks', () => split(body, 7)],
    ['a chunk ending with the whole line', () => [Buffer.from(`a\n${exact}`), Buffer.from('\nb\n')]],
  ];
  for (const [what, parts] of splits) {
    it(`a line of exactly the limit is read (${what})`, async () => {
      expect(await read(parts())).toEqual([
        ['a', 1, true],
        [exact, 2, true],
        ['b', 3, true],
      ]);
    });
    it(`a line one byte longer is refused on its line (${what})`, async () => {
      const longer = Buffer.from(body.toString().replace(exact, exact + 'x'));
      const ps =
        what === 'one chunk'
          ? [longer]
          : what === 'a chunk ending with the whole line'
            ? [longer.subarray(0, 2 + MAX + 1), longer.subarray(2 + MAX + 1)]
            : split(longer, what === '1-byte chunks' ? 1 : 7);
      expect(await read(ps)).toBe('f.jsonl:2: line is longer than 30 bytes, the longest record this reader accepts');
    });
  }

  it('a long line is refused even when its chunk also holds invalid UTF-8 further on', async () => {
    const buf = Buffer.concat([Buffer.from(`a\n${'x'.repeat(MAX + 10)}\n`), Buffer.from([0xff]), Buffer.from('\n')]);
    expect(await read([buf])).toBe('f.jsonl:2: line is longer than 30 bytes, the longest record this reader accepts');
  });

  it('the limit is worded in MiB when it is a whole number of MiB, in bytes otherwise', async () => {
    const mib = 1024 * 1024;
    const big = [Buffer.alloc(mib + 8, 0x61)];
    expect(await read(big, mib)).toBe('f.jsonl:1: line is longer than 1 MiB, the longest record this reader accepts');
    expect(await read(big, mib + 1)).toBe(
      'f.jsonl:1: line is longer than 1048577 bytes, the longest record this reader accepts',
    );
  });
});

describe('lines: invalid UTF-8 and the terminated flag', () => {
  it("an invalid byte at the very end of a chunk's last line is refused on that line", async () => {
    const buf = Buffer.concat([Buffer.from('a\nb'), Buffer.from([0xff]), Buffer.from('\n')]);
    expect(await read([buf])).toBe('f.jsonl:2: invalid UTF-8: expected the file to be UTF-8 text');
  });

  it('the good lines before an invalid one are read, as terminated', async () => {
    const seen: Seen = [];
    const buf = Buffer.concat([Buffer.from('a\nb\n'), Buffer.from([0xff]), Buffer.from('\n')]);
    await expect(forEachLine(chunks([buf]), 'f.jsonl', (t, n, term) => seen.push([t, n, term]), MAX)).rejects.toThrow(
      'f.jsonl:3: invalid UTF-8',
    );
    expect(seen).toEqual([
      ['a', 1, true],
      ['b', 2, true],
    ]);
  });

  it('a line split across chunks is terminated; only a last line without newline is not', async () => {
    expect(await read([Buffer.from('ab'), Buffer.from('c\nd'), Buffer.from('e')])).toEqual([
      ['abc', 1, true],
      ['de', 2, false],
    ]);
  });
});

/** The lines read from chunks given as text. */
const readText = (parts: string[]) => read(parts.map((p) => Buffer.from(p)));

describe('lines: an empty line at a chunk boundary', () => {
  it('is read when a chunk starts with its newline and nothing is carried', async () => {
    expect(await readText(['a\n', '\nb\n'])).toEqual([
      ['a', 1, true],
      ['', 2, true],
      ['b', 3, true],
    ]);
  });

  it('is read when a chunk starts with its newline after a line ending in the chunk before', async () => {
    expect(await readText(['a\n', '\n', 'b\n'])).toEqual([
      ['a', 1, true],
      ['', 2, true],
      ['b', 3, true],
    ]);
  });

  it('is read when it follows a line carried over from the chunk before', async () => {
    expect(await readText(['ab', 'c\n\n', 'd\n'])).toEqual([
      ['abc', 1, true],
      ['', 2, true],
      ['d', 3, true],
    ]);
  });

  it('lines after chunks that end with a newline are whole, however many such chunks come', async () => {
    const parts = ['a\n', 'b\n', 'c', 'd\n', 'e', 'f', '\n', 'g'];
    expect(await readText(parts)).toEqual([
      ['a', 1, true],
      ['b', 2, true],
      ['cd', 3, true],
      ['ef', 4, true],
      ['g', 5, false],
    ]);
  });
});
