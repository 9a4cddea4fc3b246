// Vitest setup file (vitest.config.ts, vitest.mutation.config.ts): `toThrow` / `toThrowError` pass
// only when a real Error was thrown or rejected.
//
// Why: vitest 4's toThrow accepts any expected message when the thrown or rejected value is undefined
// or null (vitest-dev/vitest#7260):
//   expect(() => { throw undefined }).toThrow('some message')                    // passed
//   await expect(Promise.reject(undefined)).rejects.toThrow('some message')     // passed
// so code that rejects with nothing (`reject(err)` with err undefined) passed every such assertion.
//
// Contract, for a non-negated toThrow/toThrowError (any argument: none, string, RegExp, class, Error,
// asymmetric matcher):
// - vitest's own check runs first, unchanged (its failure messages stay as they were);
// - then the thrown (function) or rejected (`.rejects`) value must be an Error: an `instanceof Error`,
//   or a native Error of another realm (its tag is [object Error]). Anything else fails with
//   "expected an Error to be thrown/rejected, but got <value>".
// Non-Error values (undefined, null, strings, plain objects such as { message }) are refused too:
// product code that throws them shows users "undefined" or "[object Object]" and loses the stack.
// A test that means to check a non-Error throw says so with `.rejects.toBe(value)` / `.toEqual(...)`
// or a try/catch, not with toThrow.
// `.not.toThrow(...)` is left exactly as vitest does it.
import { chai } from 'vitest';

const { flag } = chai.util;

/** True for Errors, including native Errors of another realm (vm contexts, happy-dom windows). */
export function isErrorValue(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return chai.util.inspect(value);
}

for (const name of ['toThrow', 'toThrowError']) {
  chai.util.overwriteMethod(
    chai.Assertion.prototype,
    name,
    (_super: (...args: unknown[]) => unknown) =>
      function strictThrow(this: Chai.Assertion, ...args: unknown[]): unknown {
        if (flag(this, 'negate')) return _super.apply(this, args);
        const promise = flag(this, 'promise');
        if (promise === 'rejects') {
          // `.rejects` has already awaited the promise and stored what it rejected with.
          const rejected: unknown = flag(this, 'object');
          const result = _super.apply(this, args);
          if (!isErrorValue(rejected)) {
            throw new chai.AssertionError(
              `expected an Error to be rejected, but the promise rejected with ${describeValue(rejected)}`,
              { actual: rejected },
              flag(this, 'ssfi'),
            );
          }
          return result;
        }
        const fn: unknown = flag(this, 'object');
        if (typeof fn !== 'function') return _super.apply(this, args);
        // Run the function under test through a wrapper that keeps what it throws.
        let threw = false;
        let thrown: unknown;
        const captureThrow = function (this: unknown, ...callArgs: unknown[]): unknown {
          try {
            return (fn as (...a: unknown[]) => unknown).apply(this, callArgs);
          } catch (err) {
            threw = true;
            thrown = err;
            throw err;
          }
        };
        // vitest's messages name the function under test ("expected [Function fn] to throw ...").
        Object.defineProperty(captureThrow, 'name', { value: fn.name });
        flag(this, 'object', captureThrow);
        const result = _super.apply(this, args);
        if (threw && !isErrorValue(thrown)) {
          throw new chai.AssertionError(
            `expected an Error to be thrown, but the function threw ${describeValue(thrown)}`,
            { actual: thrown },
            flag(this, 'ssfi'),
          );
        }
        return result;
      },
  );
}
