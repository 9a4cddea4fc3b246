// `call-args` jobs: a predicted set of arguments (an inv_call state's locals) is a valid
// alternative when calling the function with it returns the true value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecPool } from '../../src/scoring/pool.js';
import type { CallArgsJob } from '../../src/scoring/types.js';

let pool: ExecPool;
beforeAll(() => {
  pool = new ExecPool({ workers: 2 });
});
afterAll(() => pool.close());

const program = [
  'def smallest(xs):',
  '    return sorted(xs)[0]',
  'def pack(a, *rest, sep="-", **opts):',
  '    return (a, rest, sep, opts)',
  'def mix(a, /, b, *, c):',
  '    return a - b * c',
  'def add(a, b=5):',
  '    return a + b',
  'def ratio(x):',
  '    return x / 2',
  'def fresh():',
  '    return object()',
  'class Box:',
  '    @staticmethod',
  '    def make(n):',
  '        return [n] * n',
  'if __name__ == "__main__":',
  '    raise SystemExit("the module body runs as __program__, not __main__")',
].join('\n');
const check = (fn: string, args: Record<string, string>, expect: Partial<CallArgsJob>) =>
  pool.submit({ id: fn, kind: 'call-args', source: program, function: fn, args, ...expect });

describe('call-args', () => {
  it('passes other arguments that give the same result (a valid alternative), fails others', async () => {
    expect(await check('smallest', { xs: '[3, 1, 2]' }, { expected_repr: '1' })).toMatchObject({
      status: 'pass',
      got: '1',
    });
    expect(await check('smallest', { xs: '[1]' }, { expected_repr: '1' })).toMatchObject({ status: 'pass' });
    expect(await check('smallest', { xs: '[5, 7]' }, { expected_repr: '1' })).toMatchObject({
      status: 'fail',
      got: '5',
    });
  });

  it('binds *args and **kwargs as the recorder shows them, keyword-only and positional-only too', async () => {
    const args = { a: '1', rest: '(2, 3)', sep: "'+'", opts: "{'k': 4}" };
    expect(await check('pack', args, { expected_repr: "(1, (2, 3), '+', {'k': 4})" })).toMatchObject({
      status: 'pass',
    });
    expect(await check('mix', { c: '3', b: '2', a: '10' }, { expected: '4' })).toMatchObject({
      status: 'pass',
      got: '4',
    });
    expect(await check('add', { a: '1' }, { expected_repr: '6' })).toMatchObject({ status: 'pass' }); // b's default
  });

  it('compares by repr and by == when both are given', async () => {
    expect(await check('ratio', { x: '3' }, { expected_repr: '1.5', expected: '3 / 2' })).toMatchObject({
      status: 'pass',
    });
    // 1.0 == 1
    expect(await check('ratio', { x: '2' }, { expected: '1' })).toMatchObject({ status: 'pass', got: '1.0' });
    // repr differs
    expect(await check('ratio', { x: '2' }, { expected_repr: '1', expected: '1' })).toMatchObject({ status: 'fail' });
    // == fails
    expect(await check('ratio', { x: '4' }, { expected_repr: '2.0', expected: '3' })).toMatchObject({ status: 'fail' });
    expect(await check('ratio', { x: 'inf' }, { expected: "float('inf')" })).toMatchObject({
      status: 'pass',
      got: 'inf',
    });
  });

  it('normalises addresses in the result as a trace does', async () => {
    expect(await check('fresh', {}, { expected_repr: '<object object at 0x1>' })).toMatchObject({ status: 'pass' });
  });

  it('reaches static methods by dotted name', async () => {
    expect(await check('Box.make', { n: '2' }, { expected_repr: '[2, 2]' })).toMatchObject({ status: 'pass' });
  });

  it('reports arguments that are not values or do not fit as errors', async () => {
    expect((await check('smallest', { xs: '[1, 2' }, { expected_repr: '1' })).error).toMatch(
      /^argument 'xs' is not a value: SyntaxError/,
    );
    expect((await check('smallest', { ys: '[1]' }, { expected_repr: '1' })).error).toMatch(
      /no parameter named 'ys' \(parameters: xs\)/,
    );
    expect((await check('mix', { a: '1', b: '2' }, { expected_repr: '0' })).error).toMatch(
      /missing a required argument: 'c'/,
    );
    expect((await check('smallest', { xs: '[]' }, { expected_repr: '1' })).error).toBe(
      "IndexError('list index out of range')",
    );
  });

  it('skips what cannot be checked, saying why', async () => {
    expect(await check('nope', {}, { expected_repr: '1' })).toMatchObject({
      status: 'skipped',
      reason: "no function 'nope' at module level",
    });
    expect(await check('smallest', { xs: "'abc…<cut 12 chars>" }, { expected_repr: '1' })).toMatchObject({
      status: 'skipped',
      reason: "argument 'xs' was cut by the recorder",
    });
    expect(await check('smallest', { xs: '[1]' }, {})).toMatchObject({
      status: 'skipped',
      reason: 'nothing to compare with (no expected value)',
    });
  });

  it('reports a program that fails before the call', async () => {
    const v = await pool.submit({
      id: 'bad',
      kind: 'call-args',
      source: 'def f(:\n',
      function: 'f',
      args: {},
      expected_repr: '1',
    });
    expect(v.status).toBe('error');
    expect(v.error).toMatch(/^the program failed before the call: SyntaxError/);
  });
});
