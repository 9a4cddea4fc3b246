// The natural-sort key of trace names (name-key.ts): the orders a user sees when listing
// traces by name, at the rule's edges.
import { describe, expect, it } from 'vitest';
import { nameKey } from '../../src/store/name-key.js';

/** The names in the order their keys sort as bytes (what SQLite's ORDER BY name_key does). */
const sorted = (names: string[]) =>
  [...names].sort((a, b) => Buffer.compare(Buffer.from(nameKey(a)), Buffer.from(nameKey(b))));

describe('nameKey', () => {
  it('leading zeros are ignored, whatever their number; zeros inside a number are kept', () => {
    expect(sorted(['t_8', 't_007'])).toEqual(['t_007', 't_8']);
    expect(sorted(['t_105', 't_16'])).toEqual(['t_16', 't_105']);
    expect(nameKey('t_0')).toBe('t_010');
    expect(nameKey('t_007')).toBe('t_017');
  });

  it('a 10-digit number sorts after a 9-digit one', () => {
    expect(sorted(['n1234567890', 'n123456789'])).toEqual(['n123456789', 'n1234567890']);
  });

  it('runs of more than 99 digits compare by their first 99', () => {
    const ninetyNineOnes = 'r' + '1'.repeat(99);
    const hundredNines = 'r' + '9'.repeat(100);
    expect(sorted([hundredNines, ninetyNineOnes])).toEqual([ninetyNineOnes, hundredNines]);
    expect(nameKey(hundredNines)).toBe('r99' + '9'.repeat(99));
  });
});
