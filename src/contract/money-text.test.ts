import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import fc from 'fast-check';
import {
  basisPointsToPercentText,
  centsToDollarsText,
  dollarsField,
  dollarsToCents,
  percentField,
  percentToBasisPoints,
} from './money-text';

describe('money as typed', () => {
  it('reads dollars the way people type them', () => {
    expect(dollarsToCents('5')).toBe(500);
    expect(dollarsToCents('$5')).toBe(500);
    expect(dollarsToCents(' 12.5 ')).toBe(1250);
    expect(dollarsToCents('1,234.56')).toBe(123456);
    expect(dollarsToCents('0.07')).toBe(7);
    expect(dollarsToCents('5.')).toBe(500);
    for (const bad of ['', 'abc', '-5', '5.001', '1,23', '$', '5 dollars']) expect(dollarsToCents(bad), bad).toBeNull();
  });

  it('round-trips every amount of cents exactly', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => dollarsToCents(centsToDollarsText(cents)) === cents));
  });

  it('says what is wrong with a typed amount, in words', () => {
    const field = dollarsField({ label: 'amount off', maxCents: 100_000 });
    const message = (text: string) => z.safeParse(field, text).error?.issues[0]?.message;
    expect(message('5')).toBeUndefined();
    expect(message('-1')).toBe('The amount off cannot be negative.');
    expect(message('1.234')).toBe('The amount off has at most two digits after the point (cents).');
    expect(message('0')).toBe('The amount off must be more than $0.00.');
    expect(message('1000.01')).toBe('The amount off can be at most $1000.00.');
    expect(message('five')).toBe('Enter the amount off in dollars, like 5 or 12.50.');
    expect(z.safeParse(dollarsField({ label: 'price', maxCents: 100, minCents: 0 }), '0').success).toBe(true);
  });

  it('reads percentages to hundredths of a percent', () => {
    expect(percentToBasisPoints('8.75')).toBe(875);
    expect(percentToBasisPoints('8.75 %')).toBe(875);
    expect(percentToBasisPoints('8')).toBe(800);
    expect(percentToBasisPoints('0.5%')).toBe(50);
    expect(percentToBasisPoints('8.755')).toBeNull();
    expect(basisPointsToPercentText(875)).toBe('8.75');
    expect(basisPointsToPercentText(850)).toBe('8.5');
    expect(basisPointsToPercentText(800)).toBe('8');
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000 }), (bp) => percentToBasisPoints(basisPointsToPercentText(bp)) === bp));
    const field = percentField({ label: 'tax', maxBasisPoints: 5000 });
    expect(z.safeParse(field, '50.01').error?.issues[0]?.message).toBe('The tax can be at most 50 %.');
    expect(z.safeParse(field, '-1').error?.issues[0]?.message).toBe('The tax cannot be negative.');
  });
});
