/**
 * Writes stored traces back out as a trace file (docs/trace-format.md) in canonical form
 * (serialize.ts). Ingesting the output again stores nothing new; ingesting it into an
 * empty corpus stores the same traces. Events are read in pages rather than through one
 * open iterator, so the connection stays usable while the output stream drains.
 */
import type Database from 'better-sqlite3';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { UserError } from '../common/errors.js';
import { getEvents } from './queries/events.js';
import { getTrace } from './queries/traces.js';
import { endLine, eventLine, headerLine } from './serialize.js';

const PAGE = 10_000;

export async function exportTraces(
  db: Database.Database,
  ids: Iterable<number>,
  out: Writable,
): Promise<{ traces: number; events: number }> {
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let traces = 0;
  let events = 0;
  for (const id of ids) {
    const t = getTrace(db, id);
    if (!t) throw new UserError(`no trace with id ${id}`, 'not-found');
    await write(headerLine(t) + '\n');
    for (let from = 0; from < t.events; from += PAGE) {
      let chunk = '';
      for (const e of getEvents(db, id, from, from + PAGE)) chunk += eventLine(e) + '\n';
      await write(chunk);
    }
    await write(endLine(t) + '\n');
    traces++;
    events += t.events;
  }
  return { traces, events };
}
