import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { TransactionDetail, TransactionRow } from '../../src/contract/transactions';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { writeAudit } from '../db/audit';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { addNamedLocations } from '../testing/named-locations';
import { useSeededApi } from '../testing/seeded-api';

/** Refund portal view at Union Station (1) only. */
const DESK = 'desk@example.com';

/** A handful of payments with known fields; ids are fixed so tests can name them. */
const PAYMENTS = [
  // id, location, plate, paid (UTC), amount, fee, phone, status, refunded
  [9001, 1, 'ABC1234', '2026-03-01T14:30:00Z', '12.50', '0.66', '(312) 555-0142', 'paid', '0'],
  [9002, 1, 'XYZ9876', '2026-03-02T05:30:00Z', '4.00', '0.42', '312-555-0177', 'partially_refunded', '1.00'],
  [9003, 2, 'ABD1234', '2026-03-02T16:00:00Z', '30.00', '1.17', null, 'paid', '0'],
  // At Pike Place (Seattle, 3): outside the desk's locations.
  [9004, 3, 'ABC1239', '2026-03-02T18:00:00Z', '12.50', '0.66', '206-555-0142', 'refunded', '12.50'],
  // 05:30 UTC on 2 March is still 1 March in Chicago (23:30 CST): the date filter must say so.
] as const;

describe.each(BACKENDS)('transaction endpoints on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;

  beforeAll(async () => {
    const db = context.database.db;
    await applyUserSeed(db, [{ email: DESK, password: 'secret1', permissions: { rp: { v: [1] } } }]);
    for (const [id, location, plate, paid, amount, fee, phone, status, refunded] of PAYMENTS) {
      await db.query(
        `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time,
           payment_amount, fee, phone_number, status, refunded_amount, payment_method, processor_reference, settled_date)
         VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz + interval '2 hours', $5, $6, $7, $8, $9, 'card', $10, '2026-03-03')`,
        [id, location, plate, paid, amount, fee, phone, status, refunded, `ch_${id}`],
      );
    }
    await db.query(`INSERT INTO refunds (transaction_id, amount, reason) VALUES (9002, 1.00, 'Charged twice')`);
    await writeAudit(db, { actor: null, entity: 'transaction', entityId: 9002, action: 'refund', before: { refunded_amount: 0 }, after: { refunded_amount: 1 } });
  });

  const search = (email: string, query: string) => api().getAs<Paged<TransactionRow>>(email, `/transactions?${query}`);
  const ids = (result: { body: { data?: Paged<TransactionRow> } }) => result.body.data?.rows.map((row) => row.transaction_id);

  // Issue 33: a superuser's location choice came in id order; names sort as people read them.
  it('offers a superuser every location by name, "Union …" before "UX …"', async () => {
    const added = await addNamedLocations(context.database.db, [
      { name: 'UX Choicetest Lot', offering: 'full' },
      { name: 'Union Choicetest Garage', offering: 'full' },
    ]);
    try {
      const choice = (await api().getAs<{ name: string }[]>('superuser@example.com', '/transactions/locations')).body.data!;
      const names = choice.map((location) => location.name);
      expect(names.filter((name) => name.includes('Choicetest'))).toEqual(['Union Choicetest Garage', 'UX Choicetest Lot']);
    } finally {
      await added.remove();
    }
  });

  it('finds a payment by a plate fragment, in any case, only at the user’s locations', async () => {
    expect(ids(await search(DESK, 'plate=bc12'))).toEqual([9001]);
    expect(ids(await search('finance@example.com', 'plate=bc12&sort=transaction_id&dir=asc'))).toEqual([9001, 9004]);
  });

  it('finds a payment by the last 4 digits of the phone, whatever its punctuation', async () => {
    expect(ids(await search(DESK, 'phone=0142'))).toEqual([9001]);
    expect(ids(await search(DESK, 'phone=0177'))).toEqual([9002]);
  });

  it('finds by transaction id and exact amount', async () => {
    expect(ids(await search(DESK, 'transactionId=9002'))).toEqual([9002]);
    expect(ids(await search(DESK, 'amount=12.5'))).toEqual([9001]);
    expect(ids(await search('finance@example.com', 'amount=12.50&sort=transaction_id'))).toEqual([9001, 9004]);
  });

  it('reads dates as days in the location’s time zone', async () => {
    // 9002 was paid at 05:30 UTC on 2 March: 23:30 on 1 March in Chicago.
    expect(ids(await search(DESK, 'from=2026-03-01&to=2026-03-01&sort=transaction_id'))).toEqual([9001, 9002]);
    expect(ids(await search(DESK, 'from=2026-03-02&to=2026-03-02'))).toEqual([]);
  });

  it('filters by status and location, and returns money in cents', async () => {
    const result = await search('finance@example.com', 'status=partially_refunded');
    expect(result.body.data?.rows).toEqual([
      expect.objectContaining({ transaction_id: 9002, amount_cents: 400, fee_cents: 42, refunded_cents: 100, phone_last4: '0177' }),
    ]);
    expect(ids(await search('finance@example.com', 'locationId=2'))).toEqual([9003]);
  });

  it('never lists, finds or opens a payment outside the user’s locations', async () => {
    expect(ids(await search(DESK, 'transactionId=9004'))).toEqual([]);
    // A filter outside the user's locations is refused, not answered empty (spec §5, issue 34).
    expect((await search(DESK, 'locationId=3')).status).toBe(403);
    const detail = await api().getAs(DESK, '/transactions/9004');
    expect(detail.status).toBe(404);
    expect((await api().getAs(DESK, '/transactions/9004/history')).status).toBe(404);
    const locations = await api().getAs<{ location_id: number }[]>(DESK, '/transactions/locations');
    expect(locations.body.data?.map((location) => location.location_id)).toEqual([1]);
  });

  it('opens a payment with its refunds and History, the phone reduced to its last 4 digits', async () => {
    const detail = await api().getAs<TransactionDetail>(DESK, '/transactions/9002');
    expect(detail.body.data).toMatchObject({
      transaction_id: 9002,
      location_name: 'Union Station Garage',
      time_zone: 'America/Chicago',
      processor_reference: 'ch_9002',
      settled_date: '2026-03-03',
      status: 'partially_refunded',
      refunds: [{ amount_cents: 100, reason: 'Charged twice', created_by: null }],
    });
    expect(JSON.stringify(detail.body.data)).not.toContain('555-0177');
    const history = await api().getAs<AuditEntry[]>(DESK, '/transactions/9002/history');
    expect(history.body.data?.[0]).toMatchObject({ action: 'refund', changes: [{ field: 'refunded_amount', before: 0, after: 1 }] });
  });

  it.each([
    ['officer@example.com', 403],
    ['promo@example.com', 403],
    ['noaccess@example.com', 403],
  ])('refuses %s', async (email, status) => {
    expect((await search(email, '')).status).toBe(status);
    expect((await api().getAs(email, '/transactions/9001')).status).toBe(status);
  });

  it.each([
    'plate=a',
    'plate=%27%3B%20DROP',
    'phone=12',
    'phone=abcd',
    'amount=-5',
    'amount=1.234',
    'from=2026-02-30',
    'from=2026-03-05&to=2026-03-01',
    'transactionId=0x1',
    'status=void',
    'sort=phone_number',
    'pageSize=1000',
    'page=1000',
  ])('answers 400 with the field for %s', async (query) => {
    const result = await search('finance@example.com', query);
    expect(result.status).toBe(400);
    expect(result.body.success).toBe(false);
    expect(result.body.message).toMatch(/plate|phone|amount|from|transactionId|status|sort|pageSize|page/);
  });

  it.each(['0x1', '1e3', '+9001', '09001'])('answers 400 for the id %s', async (id) => {
    expect((await api().getAs('finance@example.com', `/transactions/${id}`)).status).toBe(400);
  });

  it('exports the filtered payments as CSV that a standard parser reads back', async () => {
    const { token } = await api().signIn('finance@example.com');
    const response = await api().app.request('/transactions/export?amount=12.50&sort=transaction_id', {
      headers: { Authorization: `Bearer ${idTokenFor('finance@example.com')}`, JwtToken: token },
    });
    expect(response.status).toBe(200);
    const records: string[][] = parse((await response.text()).replace(/^\uFEFF/, ''));
    expect(records[0]?.[0]).toBe('Transaction ID');
    expect(records.slice(1).map((record) => [record[0], record[5]])).toEqual([
      ['9001', '12.50'],
      ['9004', '12.50'],
    ]);
  });
});
