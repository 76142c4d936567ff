import { describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../../../contract/enforcement';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { verdictFor } from './verdict';
import { SEARCH_CATEGORIES, type PlateRow, type PlateSearchResult, type TransactionRow } from '../../../../worker/enforcement-worker-api';
import { fullyRefunded, toPlateRow } from '../../../../worker/store-records';

/** Refunds in the officer's verdict (issue 34): all of a payment given back pays for nothing; part of it still pays. */

const NOW = Date.parse('2026-11-21T18:00:00Z');
const LOCATIONS = new Map<number, LocationRef>([[1, { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' }]]);
const PLATE = 'RFD123';

/** A stored payment of `paid` dollars with `refunded` of them refunded (undefined: cached before refunds synced). */
function record(id: number, minutesToExpiry: number, paid: number, refunded: number | undefined): TransactionRecord {
  const expiry = Math.floor(NOW / 1000) + minutesToExpiry * 60;
  return {
    transaction_id: id,
    location_id: 1,
    license_plate: PLATE,
    expiry_date_time: new Date(expiry * 1000).toISOString(),
    expiry_date_time_unix: expiry,
    phone_number: null,
    payment_time: '2026-11-21T16:00:00Z',
    payment_amount: paid,
    ...(refunded === undefined ? {} : { refunded_amount: refunded }),
    updated_at: 1,
  };
}

/** The search row the worker makes of it. */
const payment = (id: number, minutesToExpiry: number, paid: number, refunded?: number) =>
  toPlateRow(minutesToExpiry > 0 ? 'valid' : 'expired', { ...record(id, minutesToExpiry, paid, refunded), sync_time: 0 }, 'exact') as TransactionRow;

function answer(...rows: PlateRow[]): PlateSearchResult {
  const result = {} as PlateSearchResult;
  for (const category of SEARCH_CATEGORIES) {
    const own = rows.filter((row) => row.category === category);
    result[category] = { total: own.length, exactTotal: own.length, page: 0, rows: own };
  }
  return result;
}

const verdict = (...rows: PlateRow[]) =>
  verdictFor({ query: PLATE, result: answer(...rows), now: NOW, similar: true, locations: LOCATIONS, dataAge: '' });

describe('a fully refunded payment', () => {
  it.each([
    [12.5, 12.5, true],
    [12.5, 12.49, false],
    [12.5, 0, false],
    [12.5, undefined, false],
    [0, 0, false],
  ])('paid %s, refunded %s: fully refunded %s', (paid, refunded, expected) => {
    expect(fullyRefunded(record(1, 90, paid, refunded))).toBe(expected);
    expect(payment(1, 90, paid, refunded).refunded).toBe(expected);
  });
});

describe('the verdict on a refunded payment', () => {
  it('reads REFUNDED, not paid, when all of a valid payment was refunded', () => {
    const v = verdict(payment(1, 90, 12.5, 12.5));
    expect(v.headline).toBe('REFUNDED');
    expect(v.tone).toBe('stop');
    expect(v.detail).toContain(PLATE);
    expect(v.detail).toContain('Union Station Garage');
  });

  it('still reads PAID after a partial refund, and for a record cached before refunds were synced', () => {
    for (const row of [payment(1, 90, 12.5, 12.49), payment(1, 90, 12.5)]) {
      const v = verdict(row);
      expect(v.headline).toBe('PAID');
      expect(v.tone).toBe('ok');
    }
  });

  it('reads PAID when another valid payment of the plate was not refunded, whatever their order', () => {
    expect(verdict(payment(1, 30, 5, 5), payment(2, 90, 8, 0)).headline).toBe('PAID');
    expect(verdict(payment(2, 90, 8, 0), payment(1, 30, 5, 5)).headline).toBe('PAID');
  });

  it('lets an active booking win over a refunded payment, and a refunded one over an expired one', () => {
    const booking: PlateRow = {
      category: 'spothero',
      match: 'exact',
      id: 9,
      location_id: 1,
      license_plate: PLATE,
      expiry_date_time: new Date(NOW + 3_600_000).toISOString(),
      created_at: '2026-11-21T10:00:00Z',
      payment_amount: 9,
      payment_time: '2026-11-21T10:00:00Z',
    };
    expect(verdict(payment(1, 90, 12, 12), booking).headline).toBe('BOOKED');
    expect(verdict(payment(1, 90, 12, 12), payment(2, -30, 4, 0)).headline).toBe('REFUNDED');
    expect(verdict(payment(2, -30, 4, 4)).headline).toBe('EXPIRED');
  });
});
