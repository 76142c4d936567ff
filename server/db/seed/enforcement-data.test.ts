import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  PURGE_AFTER_SECONDS,
  SYNC_RECORD_SCHEMAS,
  SYNC_TYPES,
  type BookingRecord,
  type TransactionRecord,
} from '../../../src/contract/enforcement';
import { DEMO_LOCATION_IDS } from './demo-locations';
import {
  DEFAULT_FIRST_IDS,
  generateEnforcementDataset,
  generateEnforcementRecords,
  splitRecords,
  type EnforcementRecordOptions,
} from './enforcement-data';
import { normalizePlate, STATE_PLATE_FORMATS, VANITY_PLATES } from './us-plates';

const NOW = new Date('2026-03-02T15:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const HOUR = 3600;
const DAY = 24 * HOUR;
const OPTIONS: EnforcementRecordOptions = {
  counts: splitRecords(10_000),
  locations: DEMO_LOCATION_IDS,
  seed: 42,
  tieSize: 25,
  now: NOW,
};
const data = generateEnforcementDataset(OPTIONS);
const transactions = (): TransactionRecord[] => [...data.valid, ...data.expired];
const bookings = (): BookingRecord[] => [...data.spothero, ...data.parkwhiz];
const seconds = (iso: string) => Date.parse(iso) / 1000;

/** A state's serial formats as a regular expression over normalized plates. */
const SERIAL_PLATE = new RegExp(
  `^(?:${[...new Set(Object.values(STATE_PLATE_FORMATS).flat())]
    .map((format) => [...format].map((symbol) => ({ '@': '[A-HJ-NPR-Z]', '#': '\\d', N: '[1-9]' })[symbol]).join(''))
    .join('|')})$`,
);

describe('splitRecords', () => {
  it('splits evenly, the first types taking the remainder', () => {
    expect(splitRecords(500)).toEqual({ valid: 100, expired: 100, spothero: 100, parkwhiz: 100, monthly_parkers: 100 });
    expect(Object.values(splitRecords(7))).toEqual([2, 2, 1, 1, 1]);
    expect(Object.values(splitRecords(0))).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('generateEnforcementRecords', () => {
  it('is deterministic per seed', () => {
    const small = { ...OPTIONS, counts: splitRecords(500) };
    expect(generateEnforcementDataset(small)).toEqual(generateEnforcementDataset(small));
    expect(generateEnforcementDataset({ ...small, seed: 43 })).not.toEqual(generateEnforcementDataset(small));
    expect(generateEnforcementDataset({ ...small, seed: '42' })).toEqual(generateEnforcementDataset(small));
  });

  it('makes exactly the counts asked for, type by type in sync order', () => {
    const counts = { valid: 3, expired: 0, spothero: 5, parkwhiz: 1, monthly_parkers: 7 };
    const types = [...generateEnforcementRecords({ ...OPTIONS, counts })].map((entry) => entry.type);
    expect(types).toEqual(SYNC_TYPES.flatMap((type) => Array<string>(counts[type]).fill(type)));
    for (const type of SYNC_TYPES) expect(data[type]).toHaveLength(2000);
  });

  it('makes records in exactly the contract shapes', () => {
    for (const type of SYNC_TYPES) {
      for (const record of data[type]) z.strictObject(SYNC_RECORD_SCHEMAS[type].shape).parse(record);
    }
  });

  it('keeps ids unique, starting where asked', () => {
    const ids = transactions().map((record) => record.transaction_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.min(...ids)).toBe(DEFAULT_FIRST_IDS.transaction);
    for (const source of ['spothero', 'parkwhiz'] as const) {
      const bookingIds = data[source].map((record) => record.id);
      expect(bookingIds[0]).toBe(DEFAULT_FIRST_IDS[source]);
      expect(bookingIds.every((id, index) => index === 0 || id > bookingIds[index - 1]!)).toBe(true);
    }
    const shifted = generateEnforcementDataset({
      ...OPTIONS,
      counts: splitRecords(50),
      firstIds: { transaction: 7, spothero: 70, parkwhiz: 700, parker: 7000 },
    });
    expect(shifted.valid[0]?.transaction_id).toBe(7);
    expect(shifted.expired[0]?.transaction_id).toBe(7 + shifted.valid.length);
    expect(shifted.spothero[0]?.id).toBe(70);
    expect(shifted.parkwhiz[0]?.id).toBe(700);
    expect(shifted.monthly_parkers[0]?.parkerid).toBe(7000);
  });

  it('writes US plates: letters and digits, mostly state serial formats, some vanity', () => {
    const plates = [...transactions(), ...bookings(), ...data.monthly_parkers].map((record) => record.license_plate);
    expect(plates.every((plate) => /^[A-Z0-9]{2,8}$/.test(plate) && normalizePlate(plate) === plate)).toBe(true);
    const serial = plates.filter((plate) => SERIAL_PLATE.test(plate)).length;
    expect(serial / plates.length).toBeGreaterThan(0.9);
    const vanity = plates.filter((plate) => VANITY_PLATES.some((word) => plate.startsWith(word)));
    expect(vanity.length).toBeGreaterThan(0);
  });

  it('gives each location mostly plates of its own state', () => {
    // Location 1 is in Chicago: Illinois plates are two letters and five digits, or a letter and six.
    const chicago = data.valid.filter((record) => record.location_id === 1).map((record) => record.license_plate);
    const illinois = chicago.filter((plate) => /^(?:[A-Z]{2}\d{5}|[A-Z]\d{6})$/.test(plate));
    expect(illinois.length / chicago.length).toBeGreaterThan(0.5);
  });

  it('brings the same cars back across types and locations', () => {
    const typesOf = new Map<string, Set<string>>();
    const locationsOf = new Map<string, Set<number>>();
    for (const type of SYNC_TYPES) {
      for (const record of data[type]) {
        typesOf.set(record.license_plate, (typesOf.get(record.license_plate) ?? new Set()).add(type));
        locationsOf.set(record.license_plate, (locationsOf.get(record.license_plate) ?? new Set()).add(record.location_id));
      }
    }
    const everywhere = [...typesOf].filter(([plate, types]) => types.size >= 3 && locationsOf.get(plate)!.size >= 3);
    expect(everywhere.length).toBeGreaterThan(20);
  });

  it('spreads valid transactions over the next 24 h, paid before expiry and before now', () => {
    for (const record of data.valid) {
      expect(record.expiry_date_time_unix).toBe(seconds(record.expiry_date_time));
      expect(record.expiry_date_time_unix).toBeGreaterThan(NOW_S);
      expect(record.expiry_date_time_unix).toBeLessThanOrEqual(NOW_S + DAY);
      expect(seconds(record.payment_time)).toBeLessThanOrEqual(NOW_S);
      expect(record.updated_at).toBeGreaterThanOrEqual(seconds(record.payment_time));
      expect(record.updated_at).toBeLessThanOrEqual(NOW_S);
    }
  });

  it('spreads expired transactions over the last 30 days, about a third past the 21-day window', () => {
    for (const record of data.expired) {
      expect(record.expiry_date_time_unix).toBeLessThanOrEqual(NOW_S);
      expect(record.expiry_date_time_unix).toBeGreaterThan(NOW_S - 30 * DAY);
      expect(seconds(record.payment_time)).toBeLessThan(record.expiry_date_time_unix);
      expect(record.updated_at).toBeGreaterThanOrEqual(seconds(record.payment_time));
      expect(record.updated_at).toBeLessThanOrEqual(NOW_S);
    }
    const old = data.expired.filter((record) => record.expiry_date_time_unix <= NOW_S - PURGE_AFTER_SECONDS);
    expect(old.length / data.expired.length).toBeGreaterThan(0.2);
    expect(old.length / data.expired.length).toBeLessThan(0.45);
  });

  it('books ahead: created, then paid, then expired, within 30 days back and a day ahead', () => {
    for (const record of bookings()) {
      const created = seconds(record.created_at);
      const paid = seconds(record.payment_time);
      const expiry = seconds(record.expiry_date_time);
      expect(created).toBeLessThanOrEqual(paid);
      expect(paid).toBeLessThan(expiry);
      expect(paid).toBeLessThanOrEqual(NOW_S);
      expect(expiry).toBeGreaterThan(NOW_S - 30 * DAY);
      expect(expiry).toBeLessThanOrEqual(NOW_S + DAY);
      expect(record.updated_at).toBeGreaterThanOrEqual(paid);
      expect(record.updated_at).toBeLessThanOrEqual(NOW_S);
    }
    expect(bookings().some((record) => seconds(record.expiry_date_time) > NOW_S)).toBe(true);
  });

  it('charges $2–$60 in cents', () => {
    for (const record of [...transactions(), ...bookings()]) {
      expect(record.payment_amount).toBeGreaterThanOrEqual(2);
      expect(record.payment_amount).toBeLessThanOrEqual(60);
      expect(Math.round(record.payment_amount * 100) / 100).toBe(record.payment_amount);
    }
    const amounts = new Set(transactions().map((record) => record.payment_amount));
    expect(amounts.size).toBeGreaterThan(10);
  });

  it('pays more by day than at night, in the location time zone', () => {
    // Location 1 is Chicago, UTC−6 in March: 09:00–17:00 local against 00:00–05:00 local.
    const localHours = data.expired
      .filter((record) => record.location_id === 1)
      .map((record) => (new Date(record.payment_time).getUTCHours() + 18) % 24);
    const day = localHours.filter((hour) => hour >= 9 && hour < 17).length;
    const night = localHours.filter((hour) => hour < 5).length;
    expect(day).toBeGreaterThan(night * 3);
  });

  it('writes phone numbers in the fictional 555-01xx range, or none', () => {
    const phones = [
      ...transactions().map((record) => record.phone_number),
      ...data.monthly_parkers.flatMap((record) => [record.homephone, record.mobilephone, record.workphone]),
    ];
    for (const phone of phones) if (phone !== null) expect(phone).toMatch(/^\+1 \d{3} 555 01\d{2}$/);
    expect(phones.some((phone) => phone === null)).toBe(true);
    expect(phones.filter((phone) => phone?.startsWith('+1 312 ') || phone?.startsWith('+1 773 ')).length).toBeGreaterThan(10);
  });

  it('makes monthly parkers with names, statuses, several vehicles and some updated today', () => {
    const rows = data.monthly_parkers;
    const keys = rows.map((row) => `${row.location_id}/${row.parkerid}/${row.license_plate}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(rows.map((row) => row.parkerStatus))).toEqual(new Set(['Active', 'Inactive', 'Suspended']));
    expect(new Set(rows.map((row) => row.vehicleStatus))).toEqual(new Set(['Active', 'Removed']));
    expect(rows.every((row) => row.fname.length > 0 && row.lname.length > 0)).toBe(true);
    const vehicles = new Map<number, number>();
    for (const row of rows) vehicles.set(row.parkerid, (vehicles.get(row.parkerid) ?? 0) + 1);
    expect([...vehicles.values()].some((count) => count >= 2)).toBe(true);
    expect(rows.some((row) => row.updated_at > NOW_S - 6 * HOUR)).toBe(true);
    expect(rows.every((row) => row.updated_at <= NOW_S && row.updated_at > NOW_S - 181 * DAY)).toBe(true);
  });

  it.each(SYNC_TYPES)('puts about tieSize %s records on each updated_at', (type) => {
    const stamps = new Map<number, number>();
    for (const record of data[type]) stamps.set(record.updated_at, (stamps.get(record.updated_at) ?? 0) + 1);
    const mean = data[type].length / stamps.size;
    expect(mean).toBeGreaterThan(25 / 2);
    expect(mean).toBeLessThan(25 * 2);
    expect(Math.max(...stamps.values())).toBeGreaterThan(25);
  });

  it('makes ties rare with tie size 1', () => {
    const sparse = generateEnforcementDataset({ ...OPTIONS, counts: splitRecords(2500), tieSize: 1 });
    const stamps = new Set(sparse.expired.map((record) => record.updated_at));
    expect(sparse.expired.length / stamps.size).toBeLessThan(1.05);
  });

  it('needs a location', () => {
    expect(() => generateEnforcementDataset({ ...OPTIONS, locations: [] })).toThrow(/location/);
  });

  it('makes 100,000 records in well under a few seconds', () => {
    const started = performance.now();
    let count = 0;
    for (const _ of generateEnforcementRecords({ ...OPTIONS, counts: splitRecords(100_000) })) count++;
    expect(count).toBe(100_000);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
