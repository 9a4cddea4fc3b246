import { describe, expect, it } from 'vitest';
import { fastEvent } from '../../src/store/fast-event.js';
import { pyJson } from '../../src/semantics/json.js';
import { jsonl, traceRecords } from './fixtures.js';

/** The row the slow path (JSON.parse + canonical re-encoding) would store. */
function slowRow(line: string) {
  const e = JSON.parse(line);
  return [0, e.seq, e.event, e.frame, e.func, e.line, e.src, pyJson(e.locals), e.arg, e.parent, e.cut === undefined ? null : pyJson(e.cut)];
}

describe('the canonical event fast path', () => {
  it('takes recorder-format lines and stores exactly what the full parser would', () => {
    const tag = ' é "q"\t \\ \u0001 \u007f 😀 </>';
    const recs = [...traceRecords({ n: 3, tag }), ...traceRecords({ n: 2, exit: 'error' })];
    const withCut = { ...recs[5], cut: ['acc', '<arg>'] };
    const lines = jsonl([...recs, withCut]).split('\n').filter((l) => l.includes('"type": "event"'));
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
  });
});
