import { describe, expect, it } from 'vitest';
import { wholeNumberIn } from './whole-number.js';

describe('wholeNumberIn(text, min, max)', () => {
  it('takes decimal digits within the bounds, blanks around them, and a minus where the bounds allow it', () => {
    expect(wholeNumberIn('0', 0, 65_535)).toBe(0);
    expect(wholeNumberIn(' 3100\n', 0, 65_535)).toBe(3100);
    expect(wholeNumberIn('65535', 0, 65_535)).toBe(65_535);
    expect(wholeNumberIn('-5', -10, 10)).toBe(-5);
  });

  it('refuses what is not a whole number in range: fractions, exponents, hex, signs, blanks inside, huge values', () => {
    for (const text of ['', ' ', '1.5', '1e3', '0x10', '+1', '1 000', 'ten', '65536', '-1', '99999999999999999999'])
      expect(wholeNumberIn(text, 0, 65_535), JSON.stringify(text)).toBeUndefined();
    expect(wholeNumberIn('9007199254740993', 0, Number.MAX_VALUE)).toBeUndefined();
  });
});
