#!/usr/bin/env node
// Ingest benchmark. Prints, all measured in this run:
// - ingest rows/s vs a bare better-sqlite3 insert of the same rows (one prepared statement,
//   one transaction, same schema and pragmas): the ratio must be >= 0.7; and vs a bare
//   insert that binds 16 rows per statement as ingest does (the honest cost of parsing);
// Each figure is the best of three runs, each in a fresh process, interleaved.
// - peak RSS of a separate process ingesting a 1,000,000-event trace (target < 500 MB);
// - a value search (LIKE over every locals) and an event-window read on that corpus;
// - the corpus browser's list queries over 50,000 traces.
// Usage: npm run build:core && node bench/ingest.mjs [--events 200000] [--big 1000000]
// Exits 1 when a target is missed. Helpers: bench/_ingest-data.mjs, bench/_ingest-child.mjs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMany, writeTrace } from './_ingest-data.mjs';

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('--events', 200_000);
const BIG = arg('--big', 1_000_000);
const root = new URL('..', import.meta.url).pathname;
const { openCorpus } = await import(join(root, 'dist/store/corpus.js'));
const dir = mkdtempSync(join(tmpdir(), 'stepscope-bench-'));
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

function child(mode, what) {
  const db = join(dir, `${mode}-${Math.random().toString(36).slice(2)}.db`);
  const r = spawnSync(process.execPath, [join(root, 'bench/_ingest-child.mjs'), mode, String(what), db], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  rmSync(db, { force: true });
  return JSON.parse(r.stdout);
}
const rate = (r) => (r.rows / r.ms) * 1000;

const small = join(dir, 'small.jsonl');
await writeTrace(small, N);
// Alternate the two, best of three each, so machine noise hits both alike.
const base = [];
const multi = [];
const ing = [];
for (let k = 0; k < 3; k++) {
  base.push(rate(child('baseline', N)));
  ing.push(rate(child('ingest', small)));
  multi.push(rate(child('multi', N)));
}
const b = Math.max(...base);
const m = Math.max(...multi);
const i = Math.max(...ing);
console.log(
  `events per run:            ${N.toLocaleString('en')} (${(statSync(small).size / N).toFixed(0)} bytes per line)`,
);
console.log(`bare insert (baseline):    ${Math.round(b).toLocaleString('en')} rows/s`);
console.log(`stepscope ingest:          ${Math.round(i).toLocaleString('en')} rows/s (read, validate, hash, insert)`);
console.log(`ratio ingest / baseline:   ${(i / b).toFixed(2)} (target >= 0.70)`);
console.log(
  `bare 16-row insert:        ${Math.round(m).toLocaleString('en')} rows/s (ingest's write pattern; ingest / this = ${(i / m).toFixed(2)}, the cost of reading, validating and hashing)`,
);

const big = join(dir, 'big.jsonl');
await writeTrace(big, BIG);
const bigDb = join(dir, 'big.db');
const r = JSON.parse(
  spawnSync(process.execPath, [join(root, 'bench/_ingest-child.mjs'), 'ingest', big, bigDb], { encoding: 'utf8' })
    .stdout,
);
console.log(
  `${BIG.toLocaleString('en')}-event trace (${(statSync(big).size / 2 ** 20).toFixed(0)} MiB): ingested in ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.maxRssMb.toFixed(0)} MB (target < 500 MB)`,
);

const c = openCorpus(bigDb, { readonly: true });
const id = c.listTraces().rows[0].id;
let t0 = process.hrtime.bigint();
const hit = c.listTraces({ value: 'no such value anywhere' });
console.log(
  `value search, no match, ${BIG.toLocaleString('en')} events: ${ms(t0).toFixed(0)} ms (${hit.total} traces)`,
);
t0 = process.hrtime.bigint();
for (let k = 0; k < 100; k++) c.getEvents(id, BIG / 2 + k * 1000, BIG / 2 + k * 1000 + 100);
console.log(`event window of 100 in the middle: ${(ms(t0) / 100).toFixed(2)} ms each`);
c.close();

// The corpus browser's queries over many traces.
const MANY = arg('--traces', 50_000);
const manyFile = join(dir, 'many.jsonl');
await writeMany(manyFile, MANY);
const many = openCorpus(join(dir, 'many.db'), { create: true });
await many.ingest(manyFile);
const timed = (label, q) => {
  const t = process.hrtime.bigint();
  const res = many.listTraces(q);
  console.log(
    `${label.padEnd(44)} ${ms(t).toFixed(1).padStart(7)} ms (${res.total} of ${MANY.toLocaleString('en')}, ${res.rows.length} rows)`,
  );
};
timed('list, sort by name, page at offset 25,000:', { sort: 'name', limit: 50, offset: 25_000 });
timed('list, sort by events desc, first page:', { sort: 'events', desc: true, limit: 50 });
timed('list, exit = error, sort by name:', { exit: 'error', sort: 'name', limit: 50 });
timed('list, name contains "12345":', { search: '12345', limit: 50 });
timed('list, source contains "range(n)":', { code: 'range(n)', limit: 50 });
timed('list, a local repr contains "4999":', { value: '4999', limit: 50 });
many.close();
rmSync(dir, { recursive: true, force: true });
const missed = [i / b < 0.7 && 'rows/s ratio below 0.70', r.maxRssMb >= 500 && 'peak RSS 500 MB or more'].filter(
  Boolean,
);
if (missed.length) {
  console.log(`MISSED: ${missed.join('; ')}`);
  process.exitCode = 1;
}
