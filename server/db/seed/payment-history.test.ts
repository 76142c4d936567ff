import { describe, expect, it } from 'vitest';
import { DEMO_LOCATIONS } from './demo-locations';
import { EnforcementSeedError } from './enforcement-data';
import {
  centsToNumeric,
  generatePaymentHistory,
  nextBusinessDay,
  numericToCents,
  PAYMENT_METHODS,
  planPaymentHistory,
  processorFeeCents,
  settledDate,
  type PaymentHistoryOptions,
  type PaymentRow,
} from './payment-history';

const HOUR = 3600;
const DAY = 24 * HOUR;
// Wednesday afternoon in the US.
const NOW = new Date('2026-03-11T20:00:00Z');
const CHICAGO = { location_id: 1, time_zone: 'America/Chicago', capacity: 1000, address: '1 Main St, Chicago, IL 60601' };

const generate = (options: PaymentHistoryOptions) => [...generatePaymentHistory(options)];
const seconds = (iso: string) => Date.parse(iso) / 1000;

const formats = new Map<string, Intl.DateTimeFormat>();
const format = (timeZone: string) => {
  if (!formats.has(timeZone)) {
    const options = { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit' } as const;
    formats.set(timeZone, new Intl.DateTimeFormat('en-US', options));
  }
  return formats.get(timeZone)!;
};

/** The local calendar date and hour of an instant, by Intl alone (independent of the generator's own arithmetic). */
function local(iso: string, timeZone: string) {
  const parts = Object.fromEntries(format(timeZone).formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  return { date, hour: Number(parts.hour) % 24, weekday: new Date(`${date}T00:00:00Z`).getUTCDay() };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);
}

/** The settlement rule written out plainly: the next Monday–Friday after the local day, once it has come. */
function expectedSettlement(row: PaymentRow, timeZone: string, now: Date): string | null {
  const { date, weekday } = local(row.payment_time, timeZone);
  const settles = addDays(date, weekday === 5 ? 3 : weekday === 6 ? 2 : 1);
  return settles <= local(now.toISOString(), timeZone).date ? settles : null;
}

describe('money in whole cents', () => {
  it('writes cents as numeric text and reads it back without floats', () => {
    expect([0, 1, 10, 99, 100, 1250, 123_456_789].map(centsToNumeric)).toEqual([
      '0.00', '0.01', '0.10', '0.99', '1.00', '12.50', '1234567.89',
    ]);
    expect(['0.00', '0.01', '12.5', '12.50', '7', '1234567.89'].map((text) => numericToCents(text))).toEqual([
      0, 1, 1250, 1250, 700, 123_456_789,
    ]);
    expect(numericToCents(0.29)).toBe(29);
    expect(() => numericToCents('1.234')).toThrow();
  });

  it('charges 30¢ + 2.9 % on cards, rounded half up to the cent', () => {
    expect(processorFeeCents(1000)).toBe(59); // 29.0
    expect(processorFeeCents(1017)).toBe(59); // 29.493
    expect(processorFeeCents(1018)).toBe(60); // 29.522
    expect(processorFeeCents(500)).toBe(45); // 14.5 rounds up
    expect(processorFeeCents(0)).toBe(30);
  });
});

describe('settlement dates', () => {
  // 2026-03-06 is a Friday.
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000 / DAY;
  it('settle on the next business day: Friday, Saturday and Sunday on Monday', () => {
    const next = (date: string) => new Date(nextBusinessDay(day(date)) * DAY * 1000).toISOString().slice(0, 10);
    expect(next('2026-03-05')).toBe('2026-03-06'); // Thursday → Friday
    expect(next('2026-03-06')).toBe('2026-03-09'); // Friday → Monday
    expect(next('2026-03-07')).toBe('2026-03-09'); // Saturday → Monday
    expect(next('2026-03-08')).toBe('2026-03-09'); // Sunday → Monday
    expect(next('2026-03-09')).toBe('2026-03-10'); // Monday → Tuesday
  });

  it('are null until that day has come', () => {
    expect(settledDate(day('2026-03-06'), day('2026-03-07'))).toBeNull(); // Friday's, seen on Saturday
    expect(settledDate(day('2026-03-06'), day('2026-03-08'))).toBeNull(); // … and on Sunday
    expect(settledDate(day('2026-03-06'), day('2026-03-09'))).toBe('2026-03-09');
    expect(settledDate(day('2026-03-09'), day('2026-03-09'))).toBeNull(); // today's
  });
});

describe('generatePaymentHistory', () => {
  const demo = generate({ locations: DEMO_LOCATIONS, days: 14, paymentsPerDay: 200, now: NOW, seed: 'unit' });

  it('is deterministic: same options, same rows; another seed, other rows', () => {
    const options = { locations: DEMO_LOCATIONS, days: 3, paymentsPerDay: 50, now: NOW, seed: 'same' };
    expect(generate(options)).toEqual(generate(options));
    const other = generate({ ...options, seed: 'other' });
    expect(other.map((row) => row.license_plate)).not.toEqual(generate(options).map((row) => row.license_plate));
  });

  it('fills the window ending now, in payment order, with ids counting up', () => {
    const rows = generate({ locations: DEMO_LOCATIONS, days: 2, paymentsPerDay: 100, now: NOW, firstTransactionId: 500 });
    expect(rows.map((row) => row.transaction_id)).toEqual(rows.map((_, index) => 500 + index));
    const times = rows.map((row) => seconds(row.payment_time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() / 1000 - 2 * DAY);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW.getTime() / 1000);
    expect(new Set(rows.map((row) => row.location_id))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it('makes exactly `total` payments, or about `paymentsPerDay` per location and day, shared by capacity', () => {
    const options = { locations: DEMO_LOCATIONS, days: 10, now: NOW };
    expect(generate({ ...options, total: 12_345 })).toHaveLength(12_345);
    expect(planPaymentHistory({ ...options, total: 12_345 }).total).toBe(12_345);
    const perDay = generate({ ...options, paymentsPerDay: 150 });
    expect(perDay.length / (6 * 10)).toBeGreaterThan(135);
    expect(perDay.length / (6 * 10)).toBeLessThan(165);
    // Sky Harbor (1200 spaces) against LoDo (140 spaces).
    const count = (id: number) => perDay.filter((row) => row.location_id === id).length;
    expect(count(6) / count(5)).toBeGreaterThan(1200 / 140 / 1.2);
    expect(count(6) / count(5)).toBeLessThan((1200 / 140) * 1.2);
    // Realistic by default: 0.9 a space a day.
    const perSpace = planPaymentHistory({ locations: [CHICAGO], days: 28, now: NOW }).total;
    expect(perSpace / 28 / 1000).toBeGreaterThan(0.8);
    expect(perSpace / 28 / 1000).toBeLessThan(1);
    expect(generate({ ...options, days: 0 })).toEqual([]);
  });

  it('refuses contradictory or impossible volumes', () => {
    const base = { locations: DEMO_LOCATIONS, days: 1, now: NOW };
    expect(() => planPaymentHistory({ ...base, total: 10, paymentsPerDay: 5 })).toThrow(EnforcementSeedError);
    expect(() => planPaymentHistory({ ...base, total: 1.5 })).toThrow(/whole/);
    expect(() => planPaymentHistory({ ...base, perSpace: -1 })).toThrow(/perSpace/);
    expect(() => planPaymentHistory({ ...base, days: -1 })).toThrow(/days/);
    expect(() => planPaymentHistory({ ...base, locations: [1, 1] })).toThrow(/once/);
  });

  it('follows the day and the week in local time', () => {
    const rows = generate({ locations: [CHICAGO], days: 28, perSpace: 1, now: NOW, seed: 'curve' });
    const perHour = { weekday: new Array<number>(24).fill(0), weekend: new Array<number>(24).fill(0) };
    const perWeekday = new Array<number>(7).fill(0);
    for (const row of rows) {
      const { hour, weekday } = local(row.payment_time, CHICAGO.time_zone);
      perHour[weekday === 0 || weekday === 6 ? 'weekend' : 'weekday'][hour]! += 1;
      perWeekday[weekday]! += 1;
    }
    const sum = (values: number[], from: number, to: number) => values.slice(from, to).reduce((a, b) => a + b, 0);
    // Busy weekday mornings, quiet nights.
    expect(sum(perHour.weekday, 7, 9)).toBeGreaterThan(15 * sum(perHour.weekday, 1, 3));
    expect(sum(perHour.weekday, 7, 9)).toBeGreaterThan(1.4 * sum(perHour.weekday, 14, 16));
    // Weekends start late and peak around midday (there are 2.5 times as many weekdays in the sample).
    expect(sum(perHour.weekend, 7, 9) * 2.5).toBeLessThan(sum(perHour.weekday, 7, 9) / 3);
    expect(sum(perHour.weekend, 11, 14)).toBeGreaterThan(2 * sum(perHour.weekend, 7, 10));
    // Friday busiest, Sunday quietest (four of each in 28 days; today, Wednesday, is partial).
    expect(perWeekday[5]!).toBeGreaterThan(perWeekday[1]!);
    expect(perWeekday[0]!).toBeLessThan(0.85 * perWeekday[1]!);
  });

  it('keeps money in whole cents: amounts, fees by payment method, refunds within the amount', () => {
    let refunded = 0;
    for (const row of demo) {
      for (const text of [row.payment_amount, row.fee, row.refunded_amount]) expect(text).toMatch(/^\d+\.\d{2}$/);
      const amount = numericToCents(row.payment_amount);
      expect(amount).toBeGreaterThan(0);
      const fee = numericToCents(row.fee);
      expect(fee).toBe(['card', 'apple_pay', 'google_pay'].includes(row.payment_method) ? processorFeeCents(amount) : 0);
      expect(PAYMENT_METHODS).toContain(row.payment_method);
      const refunds = row.refunds.map((refund) => numericToCents(refund.amount));
      const total = refunds.reduce((a, b) => a + b, 0);
      expect(numericToCents(row.refunded_amount)).toBe(total);
      expect(total).toBeLessThanOrEqual(amount);
      expect(row.status).toBe(total === 0 ? 'paid' : total === amount ? 'refunded' : 'partially_refunded');
      if (total > 0) refunded += 1;
      let last = seconds(row.payment_time);
      for (const refund of row.refunds) {
        expect(numericToCents(refund.amount)).toBeGreaterThan(0);
        expect(refund.reason.length).toBeGreaterThan(0);
        expect(refund.reason.length).toBeLessThanOrEqual(500);
        expect(seconds(refund.created_at)).toBeGreaterThan(last);
        last = seconds(refund.created_at);
      }
      expect(last).toBeLessThanOrEqual(NOW.getTime() / 1000);
      expect(row.updated_at).toBe(last);
    }
    expect(refunded / demo.length).toBeGreaterThan(0.008);
    expect(refunded / demo.length).toBeLessThan(0.025);
    expect(demo.some((row) => row.status === 'partially_refunded')).toBe(true);
    expect(demo.some((row) => row.status === 'refunded')).toBe(true);
    expect(new Set(demo.map((row) => row.payment_amount.slice(-1))).size).toBeGreaterThan(5);
  });

  it('gives unique references, fictional phones, US plates, regulars who return, and expiry = payment + stay', () => {
    expect(new Set(demo.map((row) => row.processor_reference)).size).toBe(demo.length);
    const plateVisits = new Map<string, number>();
    for (const row of demo) {
      const prefix = { card: 'ch_', apple_pay: 'ch_', google_pay: 'ch_', cash: 'ps_', account: 'ac_' }[row.payment_method];
      expect(row.processor_reference).toMatch(new RegExp(`^${prefix}[0-9a-z]{15}$`));
      if (row.phone_number !== null) expect(row.phone_number).toMatch(/^\+1 \d{3} 555 01\d{2}$/);
      expect(row.license_plate).toMatch(/^[A-Z0-9]{1,16}$/);
      const stay = seconds(row.expiry_date_time) - seconds(row.payment_time);
      expect(stay).toBeGreaterThanOrEqual(30 * 60);
      expect(stay).toBeLessThanOrEqual(DAY);
      const key = `${row.location_id}:${row.license_plate}`;
      plateVisits.set(key, (plateVisits.get(key) ?? 0) + 1);
    }
    expect([...plateVisits.values()].filter((visits) => visits >= 5).length).toBeGreaterThan(50);
    expect(demo.filter((row) => row.phone_number !== null).length / demo.length).toBeGreaterThan(0.5);
    expect(demo.some((row) => row.expiry_date_time > NOW.toISOString())).toBe(true);
  });

  it('settles on the next local business day, in each location’s time zone', () => {
    for (const row of demo) {
      const { time_zone } = DEMO_LOCATIONS.find((location) => location.location_id === row.location_id)!;
      expect(row.settled_date).toBe(expectedSettlement(row, time_zone, NOW));
    }
    // Chicago, Thursday 23:30 local is Friday in UTC: it settles on Friday, not on Monday.
    const thursdayNight = demo.filter(
      (row) => row.location_id === 1 && row.payment_time >= '2026-03-06T04:00' && row.payment_time < '2026-03-06T06:00',
    );
    expect(thursdayNight.length).toBeGreaterThan(0);
    for (const row of thursdayNight) expect(row.settled_date).toBe('2026-03-06');
  });

  it('leaves Friday unsettled over the weekend and settles it on Monday', () => {
    const saturday = new Date('2026-03-07T18:00:00Z');
    const monday = new Date('2026-03-09T18:00:00Z');
    const options = { locations: [CHICAGO], days: 3, paymentsPerDay: 200, seed: 'weekend' };
    const fridayOf = (rows: PaymentRow[]) => rows.filter((row) => local(row.payment_time, CHICAGO.time_zone).date === '2026-03-06');
    const onSaturday = generate({ ...options, now: saturday });
    expect(fridayOf(onSaturday).length).toBeGreaterThan(50);
    for (const row of fridayOf(onSaturday)) expect(row.settled_date).toBeNull();
    const thursday = onSaturday.filter((row) => local(row.payment_time, CHICAGO.time_zone).date === '2026-03-05');
    for (const row of thursday) expect(row.settled_date).toBe('2026-03-06');
    const onMonday = generate({ ...options, now: monday });
    for (const row of onMonday) {
      const { date } = local(row.payment_time, CHICAGO.time_zone);
      expect(row.settled_date).toBe(date === '2026-03-09' ? null : '2026-03-09');
    }
  });

  it('keeps local days right across daylight saving time', () => {
    // Chicago springs forward on Sunday 2026-03-08 (a 23-hour day) and falls back on Sunday 2026-11-01 (25 hours).
    for (const now of [new Date('2026-03-10T12:00:00Z'), new Date('2026-11-03T12:00:00Z')]) {
      const rows = generate({ locations: [CHICAGO], days: 4, perSpace: 1, now, seed: 'dst' });
      for (const row of rows) expect(row.settled_date).toBe(expectedSettlement(row, CHICAGO.time_zone, now));
      const sunday = rows.filter((row) => local(row.payment_time, CHICAGO.time_zone).weekday === 0);
      expect(sunday.length).toBeGreaterThan(400);
      expect(new Set(sunday.map((row) => local(row.payment_time, CHICAGO.time_zone).date)).size).toBe(1);
    }
  });
});
