/**
 * Test helpers: record real traces with the Python recorder and read trace files.
 * Nothing here re-implements the semantics under test.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError } from '../../src/common/errors.js';
import type { Action, Direction } from '../../src/semantics/index.js';
import type { TraceEnd, TraceEvent, TraceHeader } from '../../src/trace/types.js';

export const repoRoot = resolve(import.meta.dirname, '../..');
// All the data the tests read is inside the repository (provenance notes beside it).
/** CRUXEval's model files for tests: the released generations and the leaderboard's files. */
export const cruxevalDir = resolve(repoRoot, 'test/data/cruxeval');
/** The CRUXEval benchmark itself, shipped with the product (record-cruxeval's default). */
export const cruxevalPath = resolve(repoRoot, 'resources/cruxeval/cruxeval.jsonl');
export const vectorsPath = resolve(repoRoot, 'test/data/semantics/trajectories.json');

/** One byte-exact test vector of the domain reference's examples (trajectories.json). */
export interface Vector {
  name: string;
  source: string;
  call: string;
  direction: Direction;
  entry_function: string;
  actions: Action[];
  states_seq: number[];
  exit: string | null;
  text: string;
}

export function readVectors(): Vector[] {
  return JSON.parse(readFileSync(vectorsPath, 'utf8')) as Vector[];
}

export interface Trace {
  header: TraceHeader;
  events: TraceEvent[];
  end: TraceEnd;
}

/** Reads a stepscope-trace JSONL file (one or more traces). */
export function readTraces(path: string): Trace[] {
  const out: Trace[] = [];
  let cur: Trace | null = null;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    if (r.type === 'trace') cur = { header: r, events: [], end: null as unknown as TraceEnd };
    else if (r.type === 'event') {
      const { type: _t, ...e } = r;
      cur!.events.push(e);
    } else if (r.type === 'end') {
      cur!.end = r;
      out.push(cur!);
      cur = null;
    }
  }
  return out;
}

function recorder(args: string[]): void {
  execFileSync('python3', ['-m', 'stepscope_recorder', ...args], {
    cwd: repoRoot,
    env: { ...process.env, PYTHONPATH: join(repoRoot, 'python') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

let work: string | undefined;
const dir = () => (work ??= mkdtempSync(join(tmpdir(), 'stepscope-sem-')));

let sources: Buffer | undefined;
/** The recorder's sources, as one key: any change to them records afresh. */
function recorderSources(): Buffer {
  if (!sources) {
    const h = createHash('sha256');
    const pkg = join(repoRoot, 'python/stepscope_recorder');
    for (const f of readdirSync(pkg)
      .filter((f) => f.endsWith('.py'))
      .sort())
      h.update(f).update(readFileSync(join(pkg, f)));
    sources = h.digest();
  }
  return sources;
}

/**
 * A recording kept in the temp dir under a key made of the recorder's sources and `inputs`,
 * made by `make(file)` when missing: the programs are deterministic, so each is recorded once
 * per recorder version rather than once per test run (or per mutant, under Stryker). Test
 * files run in parallel processes: one records, the others wait for its file.
 */
function cachedRecording(kind: string, inputs: (string | Buffer)[], make: (file: string) => void): string {
  const h = createHash('sha256').update(recorderSources());
  for (const x of inputs) h.update(x).update('\0');
  const path = join(tmpdir(), `stepscope-${kind}-${h.digest('hex').slice(0, 16)}.jsonl`);
  const lock = `${path}.lock`;
  const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  while (!existsSync(path)) {
    try {
      mkdirSync(lock);
    } catch {
      // A lock older than any recording was left by a killed run; one that just went is fine.
      const st = statSync(lock, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > 20 * 60_000) rmSync(lock, { recursive: true, force: true });
      sleep(500);
      continue;
    }
    try {
      const tmp = `${path}.${process.pid}.tmp`;
      make(tmp);
      renameSync(tmp, path);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return path;
}

/** Records `source` in call mode (`call` given) or as a script. */
export function record(source: string, call: string | null, extra: string[] = []): Trace {
  const path = cachedRecording('trace', [source, call === null ? '(script)' : `call ${call}`, ...extra], (out) => {
    const prog = join(mkdtempSync(join(dir(), 'p')), 'prog.py');
    writeFileSync(prog, source);
    recorder(['record', prog, '-o', out, ...(call === null ? [] : ['--call', call]), ...extra]);
  });
  return readTraces(path)[0];
}

/**
 * The trace file of all 800 CRUXEval tasks recorded by the recorder (a minute or two; kept like
 * any recording). Under `npm test` it is the one scripts/test-all.mjs recorded for this suite
 * and the recorder's (STEPSCOPE_TEST_CRUXEVAL), made by the same command.
 */
export function cruxevalRecording(): string {
  const given = process.env.STEPSCOPE_TEST_CRUXEVAL;
  if (given && existsSync(given)) return given;
  return cachedRecording('cruxeval', [readFileSync(cruxevalPath)], (out) =>
    recorder(['record-cruxeval', cruxevalPath, '-o', out, '--jobs', '2']),
  );
}

/** All 800 CRUXEval tasks recorded by the recorder (see cruxevalRecording). */
export function cruxevalTraces(): Trace[] {
  return readTraces(cruxevalRecording());
}

/** A loop calling a helper once per item: the program of the sampling tests. */
export const HELPER_LOOP = `def helper(v):
    return v * 2

def f(xs):
    out = []
    for x in xs:
        out.append(helper(x))
    return out
`;

/** Two calls in a row: the line calling h comes right after g's return. */
export const FGH = `def g(x):
    return x + 1

def h(x):
    return x * 2

def f(x):
    a = g(x)
    b = h(a)
    return b
`;

/** Actions by name; `bp:SRC` is a breakpoint on the line whose text is SRC. */
export const A = (...names: string[]): Action[] =>
  names.map((n) => (n.startsWith('bp:') ? { action: 'breakpoint', src: n.slice(3) } : { action: n }) as Action);

/** The UserError a call throws (fails the test when it does not throw one). */
export function refusal(f: () => unknown): UserError {
  try {
    f();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error('expected a UserError, nothing was thrown');
}

const recordedVectors = new Map<string, Trace>();
/** A vector's program and call recorded, once per process (several vectors share a program). */
export function vectorTrace(v: { source: string; call: string }): Trace {
  const key = v.source + '\0' + v.call;
  let t = recordedVectors.get(key);
  if (!t) recordedVectors.set(key, (t = record(v.source, v.call)));
  return t;
}
