import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../migrate';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../../testing/test-database';
import { seedDemoLocations } from './demo-seed';
import { writePaymentHistory } from './payment-history';
import { seedRefundTickets } from './refund-tickets';

const NOW = new Date('2026-03-11T20:00:00Z');

describe.each(BACKENDS)('seeded refund tickets on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(backend);
    await migrate(database.db);
    await seedDemoLocations(database.db);
    await writePaymentHistory(database.db, { locationIds: [1, 2, 3], days: 7, total: 2000, seed: 3, now: NOW, refundRate: 0 });
  });
  afterAll(() => database?.dispose());

  it('makes a mix of open, approved, rejected and refunded tickets, refunds consistent with their payments', async () => {
    const result = await seedRefundTickets(database.db, { count: 120, seed: 3, now: NOW });
    expect(result.tickets).toBe(120);
    const { rows: statuses } = await database.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM refund_tickets GROUP BY status ORDER BY status',
    );
    expect(statuses.map((row) => row.status)).toEqual(['approved', 'open', 'refunded', 'rejected']);
    expect(statuses.find((row) => row.status === 'refunded')?.n).toBe(result.refunded);
    const { rows: money } = await database.db.query<{ bad: number; refunds: number; audits: number }>(
      `SELECT (SELECT count(*)::int FROM transactions t
                WHERE t.refunded_amount <> coalesce((SELECT sum(amount) FROM refunds r WHERE r.transaction_id = t.transaction_id), 0)
                   OR t.refunded_amount > t.payment_amount
                   OR t.status <> CASE WHEN t.refunded_amount = 0 THEN 'paid'
                                       WHEN t.refunded_amount = t.payment_amount THEN 'refunded' ELSE 'partially_refunded' END) AS bad,
              (SELECT count(*)::int FROM refunds WHERE ticket_id IS NOT NULL) AS refunds,
              (SELECT count(*)::int FROM audit_log WHERE entity = 'refund_ticket' AND action = 'create') AS audits`,
    );
    expect(money[0]).toEqual({ bad: 0, refunds: result.refunded, audits: 120 });
    // Run again: other payments, never a second ticket on one.
    await seedRefundTickets(database.db, { count: 30, seed: 4, now: NOW });
    const { rows: twice } = await database.db.query('SELECT transaction_id FROM refund_tickets GROUP BY transaction_id HAVING count(*) > 1');
    expect(twice).toEqual([]);
  });
});
