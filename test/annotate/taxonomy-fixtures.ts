// Shared by the taxonomy tests: a label draft, and a refusal's sentence.
import { expect } from 'vitest';
import type { LabelDraft } from '../../src/annotate/index.js';
import { UserError } from '../../src/common/errors.js';

/** A new label for the Data group, with `over` changed. */
export const draft = (over: Partial<LabelDraft> = {}): LabelDraft => ({
  group: 'data',
  key: 6,
  name: 'Off by one',
  description: 'A count one too high or too low.',
  example: { predicted: '{"n": "3"}', truth: '{"n": "2"}' },
  ...over,
});

/** The sentence `f` is refused with; the refusal must be a UserError with the code the CLI and API map to bad input. */
export function badInput(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as UserError).code).toBe('bad-input');
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}
