// @vitest-environment happy-dom
/** The renderer's API client keeps an error's code, so a view can react to the kind of failure. */
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../src/contract/index.js';

describe('renderer API client', () => {
  it('throws ApiCallError with the code and message the API answered', async () => {
    const answers: ApiResult<unknown>[] = [
      { ok: false, error: { code: 'not-found', message: 'no trace with id 9' } },
      { ok: true, value: { total: 0, rows: [] } },
    ];
    const calls: [string, unknown][] = [];
    window.stepscope = {
      invoke: async (method, params) => {
        calls.push([method, params]);
        return answers.shift()!;
      },
    };
    const { apiSource, ApiCallError } = await import('../../renderer/src/lib/source.js');
    const source = apiSource();
    const err = await source.call('getTrace', { id: 9 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiCallError);
    expect(err).toMatchObject({ code: 'not-found', message: 'no trace with id 9' });
    expect(await source.call('listTraces', {})).toEqual({ total: 0, rows: [] });
    expect(calls).toEqual([
      ['getTrace', { id: 9 }],
      ['listTraces', {}],
    ]);
  });
});
