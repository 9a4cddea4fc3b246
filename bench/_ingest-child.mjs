// Child process of bench/ingest.mjs, so each measurement starts from a clean heap.
//   node _ingest-child.mjs baseline COUNT DB   bare insert of COUNT prebuilt rows, one row per run()
//   node _ingest-child.mjs multi COUNT DB      the same, 16 rows per run() (as ingest does)
//   node _ingest-child.mjs ingest FILE DB      stepscope ingest of FILE
// Prints {ms, rows, maxRssMb} as JSON.
import { join } from 'node:path';
import { rows } from './_ingest-data.mjs';

const [mode, what, dbPath] = process.argv.slice(2);
const root = new URL('..', import.meta.url).pathname;
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const { connectionOf } = await import(join(root, 'dist/store/connection.js'));
const c = openCorpus(dbPath, { create: true });
let ms;
let count;
if (mode === 'baseline' || mode === 'multi') {
  const data = rows(Number(what));
  const db = connectionOf(c);
  db.prepare(
    "INSERT INTO programs (id, hash, filename, source, context_forward, context_inverse) VALUES (1, 'h', 'f', 's', 'c', 'c')",
  ).run();
  db.prepare(
    "INSERT INTO traces (id, program_id, name, mode, python, hashseed, limits, meta, exit, events, seconds, hash, created) VALUES (1, 1, 'b', 'call', '3', 0, '{}', '{}', 'normal', 0, 0, 'h', 'now')",
  ).run();
  const ins = db.prepare(
    'INSERT INTO events (trace_id, seq, event, frame, func, line, src, locals, arg, parent, cut) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const B = 16;
  const many = db.prepare(
    `INSERT INTO events (trace_id, seq, event, frame, func, line, src, locals, arg, parent, cut) VALUES ${Array(B).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
  );
  const params = new Array(B * 11);
  const t0 = process.hrtime.bigint();
  db.transaction(() => {
    if (mode === 'baseline') {
      for (const r of data) ins.run(1, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9]);
      return;
    }
    let i = 0;
    for (; i + B <= data.length; i += B) {
      let p = 0;
      for (let j = i; j < i + B; j++) {
        params[p++] = 1;
        for (let c = 0; c < 10; c++) params[p++] = data[j][c];
      }
      many.run(params);
    }
    for (; i < data.length; i++) ins.run(1, ...data[i]);
  })();
  ms = Number(process.hrtime.bigint() - t0) / 1e6;
  count = data.length;
} else {
  const t0 = process.hrtime.bigint();
  const res = await c.ingest(what);
  ms = Number(process.hrtime.bigint() - t0) / 1e6;
  count = res.events;
}
c.close();
console.log(JSON.stringify({ ms, rows: count, maxRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6 }));
