// One measured run for bench/export.mjs, in a fresh process: `export FORMAT DB OUT` runs
// the curated export of kind traces; `baseline DB OUT` reads the same rows with one plain
// SELECT and writes each with JSON.stringify to a file. Prints {rows, ms, rssMb}.
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const [mode, a, b, c] = process.argv.slice(2);
const root = new URL('..', import.meta.url).pathname;
const t0 = process.hrtime.bigint();
let rows;
if (mode === 'export') {
  const { exportDataset } = await import(join(root, 'dist/export/run.js'));
  const m = await exportDataset(b, c, {
    kind: 'traces',
    select: [],
    format: a,
    allowOverlap: true,
    shardRows: 250_000,
  });
  rows = m.rows;
} else {
  const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
  const corpus = openCorpus(a, { readonly: true });
  const fd = openSync(b, 'w');
  let buf = '';
  rows = 0;
  const q = corpus.query(
    "SELECT t.name, t.id AS trace, p.hash AS program, json('[]') AS labels, e.seq, e.event, e.frame, e.func, e.line, e.src, e.locals, e.arg, e.parent FROM traces t JOIN programs p ON p.id = t.program_id JOIN events e ON e.trace_id = t.id ORDER BY t.id, e.seq",
  );
  for (const r of q) {
    r.labels = [];
    buf += JSON.stringify(r) + '\n';
    rows++;
    if (buf.length >= 1 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  corpus.close();
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
console.log(JSON.stringify({ rows, ms, rssMb: process.resourceUsage().maxRSS / 1024 }));
