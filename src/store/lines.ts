/**
 * Splits a byte stream into lines without ever holding more than one line (plus one read
 * chunk) in memory. Contract:
 * - `onLine(text, lineNo, terminated)` is called synchronously, in order, for every line;
 *   lineNo is 1-based; `terminated` is false only for a last line with no `\n` after it.
 * - A line longer than `maxLineBytes` stops the read with an IngestError on that line, before
 *   the line is gathered, so a 500 MB line costs at most maxLineBytes of memory.
 * - Bytes that are not valid UTF-8 stop the read with an IngestError naming the line.
 */
import { isUtf8 } from 'node:buffer';
import { IngestError } from './errors.js';

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

export type LineHandler = (text: string, lineNo: number, terminated: boolean) => void;

export async function forEachLine(
  chunks: AsyncIterable<Buffer>,
  file: string,
  onLine: LineHandler,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): Promise<number> {
  let carry: Buffer[] = [];
  let carryLen = 0;
  let lineNo = 0;

  const tooLong = () =>
    new IngestError(
      file,
      lineNo + 1,
      `line is longer than ${formatBytes(maxLineBytes)}, the longest record this reader accepts`,
    );
  const badUtf8 = () => new IngestError(file, lineNo + 1, 'invalid UTF-8: expected the file to be UTF-8 text');

  const emitOne = (bytes: Buffer, terminated: boolean) => {
    if (bytes.length > maxLineBytes) throw tooLong();
    if (!isUtf8(bytes)) throw badUtf8();
    onLine(bytes.toString('utf8'), ++lineNo, terminated);
  };

  // Emits the complete lines of `region` (which holds no trailing newline).
  const emitRegion = (region: Buffer) => {
    if (!isUtf8(region)) {
      // Find which line holds the bad bytes, emitting the good ones before it in order.
      let start = 0;
      for (;;) {
        const nl = region.indexOf(10, start);
        const end = nl === -1 ? region.length : nl;
        emitOne(region.subarray(start, end), true);
        if (nl === -1) return;
        start = nl + 1;
      }
    }
    const text = region.toString('utf8');
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const end = nl === -1 ? text.length : nl;
      const line = text.slice(start, end);
      // Characters never outnumber bytes, so only long lines need their bytes counted.
      if (line.length > maxLineBytes / 3 && Buffer.byteLength(line) > maxLineBytes) throw tooLong();
      onLine(line, ++lineNo, true);
      if (nl === -1) return;
      start = nl + 1;
    }
  };

  for await (const chunk of chunks) {
    const last = chunk.lastIndexOf(10);
    if (last === -1) {
      if (carryLen + chunk.length > maxLineBytes) throw tooLong();
      carry.push(chunk);
      carryLen += chunk.length;
      continue;
    }
    let start = 0;
    if (carryLen > 0) {
      const first = chunk.indexOf(10);
      if (carryLen + first > maxLineBytes) throw tooLong();
      carry.push(chunk.subarray(0, first));
      emitOne(Buffer.concat(carry), true);
      carry = [];
      carryLen = 0;
      start = first + 1;
    }
    if (start <= last) emitRegion(chunk.subarray(start, last));
    if (last + 1 < chunk.length) {
      const rest = chunk.subarray(last + 1);
      if (rest.length > maxLineBytes) throw tooLong();
      // Nothing is carried at this point (a carried line was emitted above): a new carry,
      // not a push, so the carry never holds more than the current line's pieces.
      carry = [rest];
      carryLen = rest.length;
    }
  }
  if (carryLen > 0) emitOne(Buffer.concat(carry), false);
  return lineNo;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  return `${n} bytes`;
}
