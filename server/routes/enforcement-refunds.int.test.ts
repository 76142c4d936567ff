import { beforeAll, describe, expect, it } from 'vitest';
import { ENFORCEMENT_TRANSACTIONS_PATH, SYNC_PAGE_SIZE, type TransactionRecord } from '../../src/contract/enforcement';
import type { RefundResult } from '../../src/contract/refunds';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Refunds reach the officers (issue 34): a refund moves the payment's updated_at, so the next incremental sync (the
 * cursor of docs/enforcement-sync.md) brings the payment again, with what was refunded.
 */

/** Enforcement view and refund-portal edit at Union Station (1). */
const OFFICER = 'refund.officer@example.com';
const LOCATION = 1;

let nextPaymentId = 8100;

type Cursor = { updated_at?: number; offset: number; lastId?: number };

describe.each(BACKENDS)('refunds in the enforcement sync on %s', (backend) => {
  const context = useSeededApi(backend);
  const db = () => context.database.db;
  let session: string;

  beforeAll(async () => {
    await applyUserSeed(db(), [{ email: OFFICER, password: 'secret1', permissions: { e: { v: [LOCATION] }, rp: { e: [LOCATION] } } }]);
    session = (await context.api.signIn(OFFICER)).token;
  });

  /** The database's current unix second, as the column's default computes it. */
  const dbSecond = async () =>
    (await db().query<{ s: number }>('SELECT extract(epoch FROM now())::bigint::float8 AS s')).rows[0]!.s;

  /** A payment valid at the API's clock (two more hours), last touched at `updatedAt`. */
  async function payment(amount: string, updatedAt: number): Promise<number> {
    const id = nextPaymentId++;
    const expiry = new Date(context.api.clock.now.getTime() + 2 * 3600_000).toISOString();
    await db().query(
      `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time, payment_amount, fee, updated_at)
       VALUES ($1, $2, $3, $4::timestamptz - interval '1 hour', $4, $5, 0.30, $6)`,
      [id, LOCATION, `SYN${id}`, expiry, amount, updatedAt],
    );
    return id;
  }

  async function refund(transactionId: number, amountCents: number) {
    const result = await context.api.call<RefundResult>('POST', `/transactions/${transactionId}/refunds`, {
      idToken: idTokenFor(OFFICER),
      session,
      json: { amount_cents: amountCents, reason: 'Gate did not open' },
      headers: { 'Idempotency-Key': `sync-${transactionId}-${amountCents}` },
    });
    expect(result.status, result.body.message).toBe(200);
  }

  /**
   * The console's incremental sync of valid transactions from `cursor` to the end, by the worker's rules
   * (docs/enforcement-sync.md "Cursor and ties"): pages of 2000 from the newest second held and how many of it are
   * held; the first page asked one record early, and when that record is not the last one held (a record of the run
   * moved away), the run is read again from its start.
   */
  async function syncFrom(cursor: Cursor): Promise<{ records: TransactionRecord[]; cursor: Cursor }> {
    const ask = async (at: Cursor) => {
      const { lastId: _, ...body } = at;
      const result = await context.api.postAs<TransactionRecord[]>(OFFICER, ENFORCEMENT_TRANSACTIONS_PATH, {
        type: 'valid',
        locationId: [LOCATION],
        limit: SYNC_PAGE_SIZE,
        ...body,
      });
      expect(result.status, result.body.message).toBe(200);
      return result.body.data!;
    };
    let next = cursor;
    let page: TransactionRecord[];
    if (cursor.lastId === undefined) page = await ask(cursor);
    else {
      page = await ask({ ...cursor, offset: cursor.offset - 1 });
      const overlap = page[0];
      if (overlap?.transaction_id === cursor.lastId && overlap.updated_at * 1000 === cursor.updated_at) page = page.slice(1);
      else page = await ask((next = { updated_at: cursor.updated_at, offset: 0 }));
    }
    const records: TransactionRecord[] = [];
    for (;;) {
      records.push(...page);
      const last = page.at(-1);
      if (last) {
        const sameSecond = page.filter((record) => record.updated_at === last.updated_at).length;
        const runGoesOn = next.updated_at === last.updated_at * 1000 && page.every((r) => r.updated_at === last.updated_at);
        next = {
          updated_at: last.updated_at * 1000,
          offset: runGoesOn ? next.offset + sameSecond : sameSecond,
          lastId: last.transaction_id,
        };
      }
      if (page.length < SYNC_PAGE_SIZE - 1) return { records, cursor: next };
      page = await ask(next);
    }
  }

  const find = (records: TransactionRecord[], id: number) => records.find((record) => record.transaction_id === id);

  it.each([
    ['a full refund', '12.50', 1250, 12.5],
    ['a partial refund', '12.50', 450, 4.5],
  ])('%s brings the payment back in the next incremental sync, with its refunded amount', async (_, amount, cents, refunded) => {
    const before = (await dbSecond()) - 600;
    const id = await payment(amount, before);
    // A second earlier: the refunded payment leaves the run of its second, which the next sync reads again.
    const untouched = await payment('3.00', before - 1);
    const first = await syncFrom({ offset: 0 });
    expect(find(first.records, id)).toMatchObject({ payment_amount: 12.5, refunded_amount: 0, updated_at: before });

    await refund(id, cents);
    const next = await syncFrom(first.cursor);
    const record = find(next.records, id);
    expect(record, 'the refunded payment is in the next sync').toBeDefined();
    expect(record!.refunded_amount).toBe(refunded);
    expect(record!.payment_amount).toBe(12.5);
    expect(record!.updated_at).toBeGreaterThan(before);
    // Only what changed comes again.
    expect(find(next.records, untouched)).toBeUndefined();
  });

  it('brings back a payment refunded in the very second it was written, after a sync in that second', async () => {
    const now = await dbSecond();
    const id = await payment('7.00', now);
    const first = await syncFrom({ offset: 0 });
    expect(find(first.records, id)?.refunded_amount).toBe(0);

    await refund(id, 700);
    const next = await syncFrom(first.cursor);
    expect(find(next.records, id)?.refunded_amount).toBe(7);
    expect(find(next.records, id)!.updated_at).toBeGreaterThan(now);
  });

  it('keeps an updated_at a writer sets itself', async () => {
    const id = await payment('5.00', 1000);
    await db().query('UPDATE transactions SET refunded_amount = 5, status = $2, updated_at = 1234 WHERE transaction_id = $1', [
      id,
      'refunded',
    ]);
    const { rows } = await db().query<{ updated_at: number }>(
      'SELECT updated_at::float8 AS updated_at FROM transactions WHERE transaction_id = $1',
      [id],
    );
    expect(rows[0]!.updated_at).toBe(1234);
  });
});
