// The toThrow guard (test/helpers/strict-throw.ts, a setup file of the node project): toThrow and
// toThrowError pass only when a real Error was thrown or rejected. Plain vitest 4 passes
// `expect(() => { throw undefined }).toThrow('any message')` and the same with `.rejects`.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

/** Runs an assertion expected to fail and returns its failure message (awaiting `.rejects`). */
async function failureOf(assertion: () => unknown): Promise<string> {
  try {
    await assertion();
  } catch (err) {
    if (!(err instanceof Error))
      throw new Error(`the assertion failed with a non-Error: ${String(err)}`, { cause: err });
    return err.message;
  }
  throw new Error('the assertion passed, but it should have failed');
}

const THREW_UNDEFINED = 'expected an Error to be thrown, but the function threw undefined';
const REJECTED_UNDEFINED = 'expected an Error to be rejected, but the promise rejected with undefined';

describe('a function that throws something that is not an Error', () => {
  const throwsUndefined = (): never => {
    throw undefined;
  };

  it('fails toThrow / toThrowError with any expectation, naming what was thrown', async () => {
    expect(await failureOf(() => expect(throwsUndefined).toThrow('some message'))).toBe(THREW_UNDEFINED);
    expect(await failureOf(() => expect(throwsUndefined).toThrow(/some message/))).toBe(THREW_UNDEFINED);
    expect(await failureOf(() => expect(throwsUndefined).toThrow())).toBe(THREW_UNDEFINED);
    expect(await failureOf(() => expect(throwsUndefined).toThrowError('some message'))).toBe(THREW_UNDEFINED);
    expect(
      await failureOf(() =>
        expect(() => {
          throw null;
        }).toThrow('some message'),
      ),
    ).toBe('expected an Error to be thrown, but the function threw null');
  });

  // Decision: non-Error values are refused even when their text matches. Users of code that throws
  // them see no stack and often "[object Object]"; a test meaning to check one uses toBe/toEqual.
  it('fails for a thrown string or a plain object even when the message matches', async () => {
    expect(
      await failureOf(() =>
        expect(() => {
          throw 'boom';
        }).toThrow('boom'),
      ),
    ).toBe('expected an Error to be thrown, but the function threw the string "boom"');
    expect(
      await failureOf(() =>
        expect(() => {
          throw { message: 'boom' };
        }).toThrow('boom'),
      ),
    ).toBe("expected an Error to be thrown, but the function threw { message: 'boom' }");
  });
});

describe('a promise that rejects with something that is not an Error', () => {
  it('fails rejects.toThrow / toThrowError with any expectation', async () => {
    expect(await failureOf(() => expect(Promise.reject(undefined)).rejects.toThrow('some message'))).toBe(
      REJECTED_UNDEFINED,
    );
    expect(await failureOf(() => expect(Promise.reject(undefined)).rejects.toThrow())).toBe(REJECTED_UNDEFINED);
    expect(await failureOf(() => expect(Promise.reject(undefined)).rejects.toThrowError(/some/))).toBe(
      REJECTED_UNDEFINED,
    );
    expect(await failureOf(() => expect(Promise.reject(null)).rejects.toThrow('some message'))).toBe(
      'expected an Error to be rejected, but the promise rejected with null',
    );
    expect(await failureOf(() => expect(Promise.reject({ message: 'boom' })).rejects.toThrow('boom'))).toBe(
      "expected an Error to be rejected, but the promise rejected with { message: 'boom' }",
    );
  });

  it('works with a function returning the promise too', async () => {
    expect(await failureOf(() => expect(() => Promise.reject(undefined)).rejects.toThrow('x'))).toBe(
      REJECTED_UNDEFINED,
    );
  });
});

describe('real Errors', () => {
  class RunFailed extends Error {}
  const throwsRunFailed = (): never => {
    throw new RunFailed('the run failed: HTTP 500');
  };

  it('pass as before with a message, a RegExp, a class, an Error or nothing', async () => {
    expect(throwsRunFailed).toThrow('HTTP 500');
    expect(throwsRunFailed).toThrow(/run failed/);
    expect(throwsRunFailed).toThrow(RunFailed);
    expect(throwsRunFailed).toThrow(new RunFailed('the run failed: HTTP 500'));
    expect(throwsRunFailed).toThrow(expect.objectContaining({ message: 'the run failed: HTTP 500' }));
    expect(throwsRunFailed).toThrowError();
    await expect(Promise.reject(new TypeError('bad id'))).rejects.toThrow('bad id');
    await expect(Promise.reject(new TypeError('bad id'))).rejects.toThrowError(TypeError);
    await expect(async () => throwsRunFailed()).rejects.toThrow(/HTTP 500/);
  });

  it('pass when the Error comes from another realm', async () => {
    const foreign: unknown = runInNewContext('new Error("from a vm context")');
    expect(foreign instanceof Error).toBe(false);
    expect(() => {
      throw foreign;
    }).toThrow('from a vm context');
    await expect(Promise.reject(foreign)).rejects.toThrow('from a vm context');
  });

  it("still fail with vitest's own message when the message is wrong", async () => {
    expect(await failureOf(() => expect(throwsRunFailed).toThrow('timeout'))).toBe(
      "expected [Function throwsRunFailed] to throw error including 'timeout' but got 'the run failed: HTTP 500'",
    );
    expect(await failureOf(() => expect(Promise.reject(new Error('HTTP 500'))).rejects.toThrow('timeout'))).toMatch(
      /to throw error including 'timeout' but got 'HTTP 500'/,
    );
  });

  it('call the function under test once', () => {
    let calls = 0;
    expect(() => {
      calls += 1;
      throw new Error(`failed on call ${calls}`);
    }).toThrow('failed on call 1');
    expect(calls).toBe(1);
  });
});

describe('.not.toThrow()', () => {
  it('behaves as before', async () => {
    expect(() => 42).not.toThrow();
    expect(() => {
      throw new Error('boom');
    }).not.toThrow('other message');
    expect(
      await failureOf(() =>
        expect(() => {
          throw new Error('boom');
        }).not.toThrow(),
      ),
    ).toMatch(/to not throw an error but 'Error: boom' was thrown/);
  });
});

describe('a function that does not throw', () => {
  it("fails toThrow with vitest's own message", async () => {
    expect(await failureOf(() => expect(() => 42).toThrow('boom'))).toMatch(/to throw an error/);
  });
});
