import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeSummary, SettledDashboard } from '../../src/contract/dashboards';
import { SESSION_HEADER } from '../../src/contract/envelope';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/** Real-time and settled dashboards at Union Station (1) only. */
const DESK = 'dash-desk@example.com';
/** Settled dashboard only, everywhere. */
const BOOKS = 'dash-books@example.com';

/**
 * The clock of these tests: 15:00 UTC on Monday 4 March 2030 is 09:00 in Chicago (1, 2) and 07:00 in Seattle (3),
 * years after anything the demo seed writes, so every figure below is these payments' alone.
 */
const NOW = '2030-03-04T15:00:00Z';
const PAYMENTS = [
  // location, paid (UTC), stay minutes, amount, fee, refunded, settled
  [1, '2030-03-04T14:30:00Z', 120, '12.50', '0.66', '0', null], // 08:30 today in Chicago, still parked
  [1, '2030-03-04T14:45:00Z', 5, '4.00', '0.42', '1.00', null], // 08:45 today, left at 08:50
  [1, '2030-03-04T05:30:00Z', 60, '9.99', '0.59', '0', '2030-03-04'], // 23:30 on 3 March in Chicago: yesterday
  [1, '2030-02-25T14:10:00Z', 60, '3.00', '0.39', '0', '2030-02-26'], // 08:10 on Monday last week
  [3, '2030-03-04T14:00:00Z', 90, '30.00', '1.17', '0', null], // 06:00 today in Seattle
  [3, '2030-03-01T20:00:00Z', 90, '20.00', '0.88', '5.00', '2030-03-04'],
  [2, '2030-03-01T18:00:00Z', 60, '7.00', '0.50', '0', '2030-03-02'],
] as const;

interface SseEvent {
  event: string;
  id: string;
  data: RealtimeSummary;
}

describe.each(BACKENDS)('dashboard endpoints on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;

  beforeAll(async () => {
    const db = context.database.db;
    api().clock.now = new Date(NOW);
    await applyUserSeed(db, [
      { email: DESK, password: 'secret1', permissions: { rd: { v: [1] }, sd: { v: [1] } } },
      { email: BOOKS, password: 'secret1', permissions: { sd: { v: [1, 2, 3, 4, 5, 6] } } },
    ]);
    for (const [location, paid, minutes, amount, fee, refunded, settled] of PAYMENTS) {
      await db.query(
        `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount, fee,
           refunded_amount, status, settled_date)
         VALUES ($1, 'DASH1', $2::timestamptz, $2::timestamptz + make_interval(mins => $3), $4, $5, $6,
                 CASE WHEN $6::numeric > 0 THEN 'partially_refunded' ELSE 'paid' END, $7)`,
        [location, paid, minutes, amount, fee, refunded, settled],
      );
    }
  });

  const realtime = (email: string, query = '') => api().getAs<RealtimeSummary>(email, `/dashboards/realtime${query}`);
  const settled = (email: string, query: string) => api().getAs<SettledDashboard>(email, `/dashboards/settled?${query}`);

  it('sums today in each location’s own zone, beside the same weekday last week, from the rollups', async () => {
    const result = await realtime(DESK);
    expect(result.status).toBe(200);
    const data = result.body.data!;
    expect(data.locations).toEqual([
      expect.objectContaining({
        location_id: 1,
        local_day: '2030-03-04',
        payments: 2,
        gross_cents: 1650,
        refunded_cents: 100,
        active_sessions: 1,
      }),
    ]);
    expect(data.hours).toHaveLength(24);
    expect(data.hours[8]).toEqual({ hour: 8, payments: 2, gross_cents: 1650, last_week_payments: 1, last_week_gross_cents: 300 });
    expect(data.hours.filter((hour) => hour.payments > 0).map((hour) => hour.hour)).toEqual([8]);
    // Newest first; only location 1.
    expect(data.latest.map((payment) => [payment.location_id, payment.amount_cents]).slice(0, 4)).toEqual([
      [1, 400],
      [1, 1250],
      [1, 999],
      [1, 300],
    ]);
    expect(data.choices.map((choice) => choice.location_id)).toEqual([1]);
  });

  it('shows every location to a user with rd everywhere, and one when filtered', async () => {
    const all = (await realtime('finance@example.com')).body.data!;
    const seattle = all.locations.find((location) => location.location_id === 3);
    expect(seattle).toMatchObject({ local_day: '2030-03-04', payments: 1, gross_cents: 3000, active_sessions: 1 });
    expect(all.hours[6]?.payments).toBe(1); // 06:00 in Seattle
    expect(all.locations.map((location) => location.location_id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const one = (await realtime('admin@example.com', '?locationId=3')).body.data!;
    expect(one.locations.map((location) => location.location_id)).toEqual([3]);
    expect(one.latest.every((payment) => payment.location_id === 3)).toBe(true);
  });

  it('refuses users without the permission, other locations and bad input', async () => {
    expect((await realtime('noaccess@example.com')).status).toBe(403);
    expect((await realtime(BOOKS)).status).toBe(403);
    const elsewhere = await realtime(DESK, '?locationId=3');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toContain('location 3');
    const bad = await realtime(DESK, '?locationId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('locationId');
    expect((await api().call('GET', '/dashboards/realtime')).status).toBe(401);
    expect((await api().call('GET', '/dashboards/settled')).status).toBe(401);
    expect((await settled('noaccess@example.com', 'from=2030-03-01&to=2030-03-04')).status).toBe(403);
    expect((await settled(DESK, 'from=2030-03-01&to=2030-03-04&locationId=2')).status).toBe(403);
    for (const [query, field] of [
      ['from=2030-02-30&to=2030-03-04', 'from'],
      ['from=2030-03-05&to=2030-03-04', 'from'],
      ['from=yesterday', 'from'],
      ['from=2000-01-01&to=2030-03-04', 'to'],
      ['from=2029-03-03&to=2030-03-04', 'to'], // 367 days: one more than a range may span
      ['range=tomorrow', 'range'],
    ] as const) {
      const result = await settled(BOOKS, query);
      expect(result.status, query).toBe(400);
      expect(result.body.message, query).toContain(field);
    }
  });

  it('accepts a range of 366 days, the longest', async () => {
    const result = await settled(BOOKS, 'from=2028-03-05&to=2029-03-05');
    expect(result.status).toBe(200);
    expect(result.body.data!.days).toHaveLength(366);
  });

  it('resolves named ranges in the locations’ own zones, each ending on the last day over at all of them', async () => {
    const clock = api().clock;
    const before = clock.now;
    try {
      // 06:30 UTC on 5 March: 00:30 on the 5th in Chicago, still 22:30 on the 4th in Seattle.
      clock.now = new Date('2030-03-05T06:30:00Z');
      const days = async (email: string, query: string) => {
        const data = (await settled(email, query)).body.data!;
        return [data.from, data.to];
      };
      expect(await days(DESK, 'range=yesterday')).toEqual(['2030-03-04', '2030-03-04']);
      expect(await days(BOOKS, 'range=yesterday&locationId=1')).toEqual(['2030-03-04', '2030-03-04']);
      // Over every location the 4th is not over in Seattle yet.
      expect(await days(BOOKS, 'range=yesterday')).toEqual(['2030-03-03', '2030-03-03']);
      expect(await days(DESK, 'range=thisMonth')).toEqual(['2030-03-01', '2030-03-04']);
      expect(await days(DESK, 'range=last30')).toEqual(['2030-02-03', '2030-03-04']);
      expect(await days(DESK, '')).toEqual(['2030-02-26', '2030-03-04']);
      // 05:30 UTC: the 4th is still today in Chicago, so its yesterday is the 3rd (UTC's would be the 4th).
      clock.now = new Date('2030-03-05T05:30:00Z');
      expect(await days(DESK, 'range=yesterday')).toEqual(['2030-03-03', '2030-03-03']);
    } finally {
      clock.now = before;
    }
  });

  it('gives settled money by settlement day and location, exact to the cent, within the user’s locations', async () => {
    const result = await settled(BOOKS, 'from=2030-03-01&to=2030-03-04');
    expect(result.status).toBe(200);
    const data = result.body.data!;
    expect(data.days).toEqual([
      { day: '2030-03-01', payments: 0, gross_cents: 0, fee_cents: 0, refunded_cents: 0, net_cents: 0 },
      { day: '2030-03-02', payments: 1, gross_cents: 700, fee_cents: 50, refunded_cents: 0, net_cents: 650 },
      { day: '2030-03-03', payments: 0, gross_cents: 0, fee_cents: 0, refunded_cents: 0, net_cents: 0 },
      { day: '2030-03-04', payments: 2, gross_cents: 2999, fee_cents: 147, refunded_cents: 500, net_cents: 2352 },
    ]);
    expect(Object.fromEntries(data.locations.map((location) => [location.location_id, location.net_cents]))).toEqual({
      1: 940,
      2: 650,
      3: 1412,
    });
    expect(data.totals).toEqual({ payments: 3, gross_cents: 3699, fee_cents: 197, refunded_cents: 500, net_cents: 3002 });
    // DESK sees Union Station only: the same range holds its 9.99 alone.
    const desk = (await settled(DESK, 'from=2030-03-01&to=2030-03-04')).body.data!;
    expect(desk.totals).toEqual({ payments: 1, gross_cents: 999, fee_cents: 59, refunded_cents: 0, net_cents: 940 });
    expect(desk.locations.map((location) => location.location_id)).toEqual([1]);
  });

  it('exports the settled rows as CSV, the same money as the dashboard', async () => {
    const { token } = await api().signIn(DESK);
    const response = await api().app.request('/dashboards/settled/export?from=2030-02-20&to=2030-03-04', {
      headers: { Authorization: `Bearer ${idTokenFor(DESK)}`, [SESSION_HEADER]: token },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Disposition')).toContain('settled-2030-03-04.csv');
    const rows = parse((await response.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      { 'Settled day': '2030-02-26', 'Location ID': '1', Location: 'Union Station Garage', Payments: '1', Gross: '3.00', Fees: '0.39', Refunds: '0.00', Net: '2.61' },
      { 'Settled day': '2030-03-04', 'Location ID': '1', Location: 'Union Station Garage', Payments: '1', Gross: '9.99', Fees: '0.59', Refunds: '0.00', Net: '9.40' },
    ]);
    const refused = await api().app.request('/dashboards/settled/export?from=2030-02-20&to=2030-03-04&locationId=3', {
      headers: { Authorization: `Bearer ${idTokenFor(DESK)}`, [SESSION_HEADER]: token },
    });
    expect(refused.status).toBe(403);
  });

  /** Opens the stream as a user; `next()` resolves with the next event, or undefined after `waitMs`. */
  async function openStream(email: string, query = '') {
    const { token } = await api().signIn(email);
    const controller = new AbortController();
    const response = await api().app.request(`/dashboards/realtime/stream${query}`, {
      headers: { Authorization: `Bearer ${idTokenFor(email)}`, [SESSION_HEADER]: token },
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let pending: Promise<ReadableStreamReadResult<string>> | undefined;
    async function next(waitMs = 5000): Promise<SseEvent | undefined> {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(
            block.split('\n').filter((line) => !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
          );
          if (fields.event && fields.data) return { event: fields.event, id: fields.id, data: JSON.parse(fields.data) } as SseEvent;
          continue;
        }
        pending ??= reader.read();
        const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now())));
        const result = await Promise.race([pending, timeout]);
        if (result === 'timeout') return undefined;
        pending = undefined;
        if (result.done) return undefined;
        buffer += result.value;
      }
    }
    const close = async () => {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    };
    return { status: response.status, next, close };
  }

  const pay = (location: number, amount: string) =>
    context.database.db.query(
      `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount)
       VALUES ($1, 'LIVE1', $2::timestamptz, $2::timestamptz + interval '1 hour', $3)`,
      [location, new Date(Date.parse(NOW) - 60_000).toISOString(), amount],
    );

  it('streams the whole summary at once and again after each change at the user’s locations only', async () => {
    const stream = await openStream(DESK);
    try {
      expect(stream.status).toBe(200);
      const first = await stream.next();
      expect(first?.event).toBe('summary');
      const before = first!.data.locations[0]!;
      expect(first!.data.locations.map((location) => location.location_id)).toEqual([1]);

      // A payment at Pike Place (3) moves nothing on this user's dashboard: no event at all.
      await pay(3, '55.00');
      expect(await stream.next(700)).toBeUndefined();

      await pay(1, '2.25');
      const second = await stream.next();
      expect(second?.event).toBe('summary');
      expect(Number(second!.id)).toBeGreaterThanOrEqual(Number(first!.id));
      expect(second!.data.locations).toEqual([
        expect.objectContaining({ location_id: 1, payments: before.payments + 1, gross_cents: before.gross_cents + 225 }),
      ]);
      expect(second!.data.latest[0]).toMatchObject({ location_id: 1, amount_cents: 225 });
      expect(second!.data.latest.every((payment) => payment.location_id === 1)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('starts a reconnected stream from the whole figures, so nothing is counted twice', async () => {
    const first = await openStream(DESK);
    const seen = (await first.next())!.data.locations[0]!;
    await first.close();
    await pay(1, '1.00');
    const again = await openStream(DESK);
    try {
      const snapshot = (await again.next())!.data.locations[0]!;
      expect(snapshot.payments).toBe(seen.payments + 1);
      expect(snapshot.gross_cents).toBe(seen.gross_cents + 100);
    } finally {
      await again.close();
    }
  });

  it('refuses the stream without the permission or outside the user’s locations', async () => {
    expect((await api().getAs('noaccess@example.com', '/dashboards/realtime/stream')).status).toBe(403);
    expect((await api().getAs(BOOKS, '/dashboards/realtime/stream')).status).toBe(403);
    expect((await api().getAs(DESK, '/dashboards/realtime/stream?locationId=3')).status).toBe(403);
    expect((await api().call('GET', '/dashboards/realtime/stream')).status).toBe(401);
  });
});
