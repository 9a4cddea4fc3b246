// The API contract served over a real corpus: validation at the boundary, and the methods'
// answers checked against the corpus and the semantics.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createApi } from '../../src/api/handlers/index.js';
import { decodeSkeleton } from '../../src/contract/index.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { tempDir, writeTraces } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { dispatch } from './call.js';

let corpus: Corpus;
let api: ReturnType<typeof createApi>;

beforeAllOrFail(async () => {
  const dir = tempDir('stepscope-api-');
  const file = writeTraces(dir, 't.jsonl', [{ name: 'sum_3', n: 3 }, { name: 'sum_5', n: 5, tag: 'needle' }, { name: 'cut', n: 2, exit: 'never' }]);
  corpus = openCorpus(join(dir, 'c.db'), { create: true });
  await corpus.ingest(file);
  api = createApi(corpus);
});
afterAll(() => corpus.close());

const call = <M extends string>(m: M, p: unknown) => dispatch(api, m, p);

describe('validation at the boundary', () => {
  it('refuses unknown methods, wrong types and unknown fields with a message naming them', async () => {
    expect(await call('dropAll', {})).toEqual({ ok: false, error: { code: 'bad-input', message: 'unknown API method "dropAll"' } });
    const wrong = await call('getEvents', { traceId: '1', from: 0, to: 1 });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.error.message).toMatch(/^getEvents\.traceId: expected an integer/);
    const extra = await call('getTrace', { id: 1, sql: 'x' });
    expect(!extra.ok && extra.error.message).toBe("getTrace: unknown field 'sql'");
    const act = await call('walk', { traceId: 1, direction: 'forward', actions: ['jump'] });
    expect(!act.ok && act.error.message).toMatch(/^walk\.actions\[0\]: expected an action/);
  });

  it('refuses a window over the limit and an unknown trace', async () => {
    const big = await call('getEvents', { traceId: 1, from: 0, to: 100_000 });
    expect(!big.ok && big.error.message).toMatch(/at most 5000 events/);
    const none = await call('getTrace', { id: 999 });
    expect(!none.ok && none.error.message).toBe('no trace with id 999');
  });

  it('reports an action of the other direction as the user\'s error', async () => {
    const r = await call('walk', { traceId: 1, direction: 'forward', actions: ['inv_step_into'] });
    expect(!r.ok && r.error.message).toMatch(/not a forward action/);
  });
});

describe('methods', () => {
  it('lists and filters traces in SQLite', async () => {
    const all = await call('listTraces', {});
    expect(all.ok && all.value.total).toBe(3);
    const byValue = await call('listTraces', { value: 'needle' });
    expect(byValue.ok && byValue.value.rows.map((r) => r.name)).toEqual(['sum_5']);
    const never = await call('listTraces', { exit: 'never' });
    expect(never.ok && never.value.rows.map((r) => r.name)).toEqual(['cut']);
    const page = await call('listTraces', { sort: 'events', desc: true, limit: 1, offset: 0 });
    expect(page.ok && page.value.rows.map((r) => r.name)).toEqual(['sum_5']);
  });

  it('gives a skeleton that matches the events column by column', async () => {
    const wire = await call('getSkeleton', { traceId: 2 });
    const evs = corpus.getEvents(2);
    expect(wire.ok).toBe(true);
    if (!wire.ok) return;
    const sk = decodeSkeleton(wire.value);
    expect(sk.count).toBe(evs.length);
    const kinds = ['call', 'line', 'return', 'exception'];
    evs.forEach((e, i) => {
      expect(kinds[sk.kind[i]]).toBe(e.event);
      expect(sk.parent[i]).toBe(e.parent ?? -1);
      expect(sk.frame[i]).toBe(e.frame);
      expect(sk.line[i]).toBe(e.line);
      expect(sk.funcs[sk.func[i]]).toBe(e.func);
    });
  });

  it('walks step_into to the exit, one state per event, text ending with the exit token', async () => {
    const n = corpus.getEvents(1).length;
    const r = await call('walk', { traceId: 1, direction: 'forward', actions: Array(n).fill('step_into') });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.states.map((s) => s.seq)).toEqual([...Array(n).keys()]);
    // The store's fixture stops at f's return: main never returns, so the entry exits never.
    expect(r.value.exit).toBe('exit_never');
    expect(r.value.text.endsWith('<|frame_sep|><|exit_never|><|trace_end|><|end_of_text|>')).toBe(true);
    // The first state shows all locals, as the model sees them.
    expect(r.value.shown[0]).toEqual(corpus.getEvents(1, 0, 1)[0].locals);
  });
});
