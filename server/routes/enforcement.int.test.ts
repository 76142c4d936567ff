import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  ENFORCEMENT_TRANSACTIONS_PATH,
  PURGE_AFTER_SECONDS,
  SYNC_RECORD_SCHEMAS,
  SYNC_TYPES,
  type BookingRecord,
  type SyncType,
  type TransactionRecord,
} from '../../src/contract/enforcement';
import type { SyncRecord } from '../db/enforcement';
import { DEMO_LOCATIONS } from '../db/seed/demo-locations';
import {
  generateEnforcementData,
  generateEnforcementDataset,
  type EnforcementDataset,
  type TypeCounts,
} from '../db/seed/enforcement-data';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

const NOW = new Date('2026-03-02T15:00:00Z');
const NOW_SECONDS = NOW.getTime() / 1000;
const OFFICER = 'officer@example.com';
const SUPERUSER = 'superuser@example.com';
const ADMIN = 'admin@example.com';
/** A few thousand records with heavy ties (40 per second on average) at locations 1–4; 5 and 6 stay empty. */
const COUNTS: TypeCounts = { valid: 700, expired: 900, spothero: 700, parkwhiz: 700, monthly_parkers: 600 };
const SEED = 'enforcement-int';
const TIE_SIZE = 40;
const DATA_LOCATIONS = [1, 2, 3, 4];

type Cursor = { updated_at?: number; offset?: number };
type Page = { status: number; records: SyncRecord[]; message: string | undefined };

/** What the endpoint should return for a type at some locations, by the rules of docs/api.md, in page order. */
function expectedRecords(dataset: EnforcementDataset, type: SyncType, locationIds: readonly number[]): SyncRecord[] {
  const at = (record: { location_id: number }) => locationIds.includes(record.location_id);
  const nowMs = NOW.getTime();
  const cutoffMs = nowMs - PURGE_AFTER_SECONDS * 1000;
  const expiry = (record: { expiry_date_time: string }) => Date.parse(record.expiry_date_time);
  const transactions = [...dataset.valid, ...dataset.expired].filter(at);
  const byUpdate = <T extends { updated_at: number }>(key: (record: T) => number) => (a: T, b: T) =>
    a.updated_at - b.updated_at || key(a) - key(b);
  switch (type) {
    case 'valid':
      return transactions
        .filter((record) => expiry(record) > nowMs)
        .sort(byUpdate<TransactionRecord>((r) => r.transaction_id));
    case 'expired':
      return transactions
        .filter((record) => expiry(record) <= nowMs && expiry(record) > cutoffMs)
        .sort(byUpdate<TransactionRecord>((r) => r.transaction_id));
    case 'spothero':
    case 'parkwhiz':
      return dataset[type].filter((r) => at(r) && expiry(r) > cutoffMs).sort(byUpdate<BookingRecord>((r) => r.id));
    case 'monthly_parkers':
      // Ties go by the surrogate key, which follows the order the records were written in: a stable sort keeps it.
      return dataset.monthly_parkers.filter(at).sort((a, b) => a.updated_at - b.updated_at);
  }
}

describe.each(BACKENDS)('POST /enforcement/transactions on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  let dataset: EnforcementDataset;

  beforeAll(async () => {
    const seeded = await generateEnforcementData(context.database.db, {
      counts: COUNTS,
      seed: SEED,
      tieSize: TIE_SIZE,
      now: NOW,
      locationIds: DATA_LOCATIONS,
      reset: true,
    });
    dataset = generateEnforcementDataset({
      counts: COUNTS,
      seed: SEED,
      tieSize: TIE_SIZE,
      now: NOW,
      locations: DEMO_LOCATIONS.filter((location) => DATA_LOCATIONS.includes(location.location_id)),
      firstIds: seeded.firstIds,
    });
  });
  beforeEach(() => {
    api().clock.now = NOW;
  });

  async function sync(email: string, body: unknown, query = ''): Promise<Page> {
    const result = await api().postAs<SyncRecord[]>(email, `${ENFORCEMENT_TRANSACTIONS_PATH}${query}`, body);
    return { status: result.status, records: result.body.data ?? [], message: result.body.message };
  }

  /** The console's loop (spec §4): next page from the last updated_at (× 1000) and how many of it were seen. */
  async function walk(email: string, type: SyncType, locationId: number[], limit: number) {
    const seen: SyncRecord[] = [];
    const pageSizes: number[] = [];
    const cursors: Cursor[] = [];
    let cursor: Cursor = {};
    for (let page = 0; page < 500; page++) {
      const result = await sync(email, { type, locationId, limit, ...cursor }, `?type=${type}`);
      expect(result.status, result.message).toBe(200);
      pageSizes.push(result.records.length);
      seen.push(...result.records);
      if (result.records.length < limit) break;
      const last = result.records.at(-1)!.updated_at;
      cursor = { updated_at: last * 1000, offset: seen.filter((record) => record.updated_at === last).length };
      cursors.push(cursor);
    }
    return { seen, pageSizes, cursors };
  }

  describe('paging', () => {
    it.each(SYNC_TYPES)('walks every %s record exactly once, in (updated_at, key) order', async (type) => {
      const expected = expectedRecords(dataset, type, [1, 2]);
      expect(expected.length).toBeGreaterThan(100);
      const limit = 47;
      const { seen, pageSizes, cursors } = await walk(OFFICER, type, [1, 2], limit);
      expect(seen).toEqual(expected);
      // Full pages, then one shorter page (empty when the count is a multiple of the limit).
      expect(pageSizes.slice(0, -1).every((size) => size === limit)).toBe(true);
      expect(pageSizes.at(-1)).toBeLessThan(limit);
      expect(pageSizes.at(-1)).toBe(expected.length % limit);
      // The data has ties across page boundaries, so the offset part of the cursor was exercised.
      expect(cursors.some((cursor) => (cursor.offset ?? 0) > 1)).toBe(true);
    });

    it('returns records in exactly the contract shapes, numbers as numbers', async () => {
      for (const type of SYNC_TYPES) {
        const { records } = await sync(SUPERUSER, { type, locationId: DATA_LOCATIONS, limit: 2000 });
        expect(records.length, type).toBeGreaterThan(0);
        for (const record of records) z.strictObject(SYNC_RECORD_SCHEMAS[type].shape).parse(record);
      }
      const { records } = await sync(OFFICER, { type: 'valid', locationId: [1], limit: 1 });
      const record = records[0] as TransactionRecord;
      expect(record.expiry_date_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(record.expiry_date_time) / 1000).toBe(record.expiry_date_time_unix);
      expect(typeof record.payment_amount).toBe('number');
      expect(typeof record.transaction_id).toBe('number');
    });

    it('serves one page of up to 2000 for a fresh sync, and more after it', async () => {
      const expected = expectedRecords(dataset, 'expired', DATA_LOCATIONS);
      const { records } = await sync(SUPERUSER, { type: 'expired', locationId: DATA_LOCATIONS, limit: 2000 });
      expect(records).toEqual(expected.slice(0, 2000));
    });

    it('reads updated_at in milliseconds, rounding down to the second', async () => {
      const all = expectedRecords(dataset, 'spothero', [1, 2]);
      const middle = all[Math.floor(all.length / 2)]!.updated_at;
      const from = all.filter((record) => record.updated_at >= middle);
      for (const updated_at of [middle * 1000, middle * 1000 + 999]) {
        const { records } = await sync(OFFICER, { type: 'spothero', locationId: [1, 2], limit: 2000, updated_at });
        expect(records).toEqual(from);
      }
      const { records } = await sync(OFFICER, { type: 'spothero', locationId: [1, 2], limit: 2000, updated_at: middle * 1000 + 1000 });
      expect(records).toEqual(all.filter((record) => record.updated_at > middle));
    });

    it('answers an empty page past the end, and for locations without data', async () => {
      const last = expectedRecords(dataset, 'valid', [1]).at(-1)!.updated_at;
      const after = await sync(OFFICER, { type: 'valid', locationId: [1], limit: 10, updated_at: (last + 1) * 1000 });
      expect(after).toMatchObject({ status: 200, records: [] });
      const beyond = await sync(OFFICER, { type: 'valid', locationId: [1], limit: 10, offset: 100_000 });
      expect(beyond).toMatchObject({ status: 200, records: [] });
      const empty = await sync(SUPERUSER, { type: 'monthly_parkers', locationId: [5, 6], limit: 10 });
      expect(empty).toMatchObject({ status: 200, records: [] });
    });

    it('does not repeat records when a location is listed twice', async () => {
      const once = await sync(OFFICER, { type: 'parkwhiz', locationId: [1, 2], limit: 2000 });
      const twice = await sync(OFFICER, { type: 'parkwhiz', locationId: [2, 1, 1, 2], limit: 2000 });
      expect(twice.records).toEqual(once.records);
    });
  });

  describe('valid and expired around now', () => {
    const LOCATION = 5;
    const at = (offsetSeconds: number) => new Date((NOW_SECONDS + offsetSeconds) * 1000).toISOString();
    const boundaries = {
      '9000001': 0, // expires exactly now: expired
      '9000002': 1, // a second from now: valid
      '9000003': 3600,
      '9000004': -PURGE_AFTER_SECONDS, // exactly 21 days ago: gone
      '9000005': -PURGE_AFTER_SECONDS + 1, // a second younger: still served
      '9000006': -30 * 24 * 3600,
    };

    beforeAll(async () => {
      for (const [id, offset] of Object.entries(boundaries)) {
        await context.database.db.query(
          `INSERT INTO transactions (transaction_id, location_id, license_plate, expiry_date_time, payment_time,
             payment_amount, phone_number, updated_at) VALUES ($1, $2, 'EDGE1', $3, $4, 5, NULL, $5)`,
          [Number(id), LOCATION, at(offset), at(offset - 3600), NOW_SECONDS - 7200],
        );
      }
    });

    const ids = async (type: SyncType) =>
      (await sync(ADMIN, { type, locationId: [LOCATION], limit: 100 })).records.map(
        (record) => (record as TransactionRecord).transaction_id,
      );

    it('splits at now and cuts expired at 21 days', async () => {
      expect(await ids('valid')).toEqual([9000002, 9000003]);
      expect(await ids('expired')).toEqual([9000001, 9000005]);
    });

    it('moves a transaction from valid to expired as the clock passes its expiry', async () => {
      api().clock.now = new Date(NOW.getTime() + 2000);
      expect(await ids('valid')).toEqual([9000003]);
      expect(await ids('expired')).toEqual([9000001, 9000002]);
    });

    it('agrees with the generated split for the seeded data', async () => {
      const { records: valid } = await sync(SUPERUSER, { type: 'valid', locationId: DATA_LOCATIONS, limit: 2000 });
      expect(valid).toHaveLength(COUNTS.valid);
      expect(valid.every((record) => (record as TransactionRecord).expiry_date_time_unix > NOW_SECONDS)).toBe(true);
      const generatedExpired = dataset.expired.filter(
        (record) => record.expiry_date_time_unix > NOW_SECONDS - PURGE_AFTER_SECONDS,
      );
      expect(generatedExpired.length).toBeLessThan(COUNTS.expired); // some are past the window
      const { records: expired } = await sync(SUPERUSER, { type: 'expired', locationId: DATA_LOCATIONS, limit: 2000 });
      expect(expired).toHaveLength(generatedExpired.length);
    });

    it('serves bookings only while their expiry is within 21 days', async () => {
      const { records } = await sync(SUPERUSER, { type: 'spothero', locationId: DATA_LOCATIONS, limit: 2000 });
      expect(records.length).toBeLessThan(COUNTS.spothero);
      const cutoff = NOW.getTime() - PURGE_AFTER_SECONDS * 1000;
      expect(records.every((record) => Date.parse((record as BookingRecord).expiry_date_time) > cutoff)).toBe(true);
    });
  });

  describe('permissions', () => {
    it.each([[[1]], [[2]], [[1, 2]]])('lets the officer sync %j', async (locationId) => {
      for (const type of SYNC_TYPES) {
        const result = await sync(OFFICER, { type, locationId, limit: 2000 });
        expect(result.status).toBe(200);
        expect(result.records.length).toBeGreaterThan(0);
        expect(result.records.every((record) => locationId.includes(record.location_id))).toBe(true);
      }
    });

    it.each([
      [[3], 'location 3.'],
      [[1, 3], 'location 3.'],
      [[4, 2, 3, 3], 'locations 3, 4.'],
    ])('refuses the officer %j, naming what is refused', async (locationId, named) => {
      const result = await sync(OFFICER, { type: 'valid', locationId, limit: 10 });
      expect(result.status).toBe(403);
      expect(result.message).toBe(`You do not have enforcement permission for ${named}`);
    });

    it.each([
      ['promo@example.com', [3]],
      ['noaccess@example.com', [1]],
      ['finance@example.com', [1]],
    ])('refuses %s', async (email, locationId) => {
      const result = await sync(email, { type: 'valid', locationId, limit: 10 });
      expect(result.status).toBe(403);
      expect(result.message).toMatch(/enforcement permission/);
    });

    it('lets the superuser and the admin sync any location', async () => {
      for (const email of [SUPERUSER, ADMIN]) {
        const result = await sync(email, { type: 'monthly_parkers', locationId: [1, 2, 3, 4, 5, 6], limit: 2000 });
        expect(result.status, email).toBe(200);
        expect(new Set(result.records.map((record) => record.location_id))).toEqual(new Set(DATA_LOCATIONS));
      }
    });

    it('answers the superuser with nothing for locations that do not exist', async () => {
      const result = await sync(SUPERUSER, { type: 'valid', locationId: [999, 3_000_000_000], limit: 10 });
      expect(result).toMatchObject({ status: 200, records: [] });
    });
  });

  describe('session', () => {
    const body = { type: 'valid', locationId: [1], limit: 10 };

    it('answers the session codes of spec §8', async () => {
      const { token } = await api().signIn(OFFICER);
      const post = (options: { idToken?: string; session?: string }) =>
        api().call('POST', ENFORCEMENT_TRANSACTIONS_PATH, { ...options, json: body });
      expect((await post({})).body.error).toBe('NoTokenProvided');
      expect((await post({ idToken: idTokenFor(OFFICER) })).body.error).toBe('NoTokenProvided');
      expect((await post({ idToken: 'junk', session: token })).body.error).toBe('InvalidToken');
      expect((await post({ idToken: `expired:${OFFICER}`, session: token })).body.error).toBe('TokenExpired');
      expect((await post({ idToken: idTokenFor(ADMIN), session: token })).body.error).toBe('InvalidToken');
      const result = await post({ idToken: idTokenFor(OFFICER), session: `${token}x` });
      expect(result.status).toBe(401);
    });

    it('checks the session before the body', async () => {
      const result = await api().call('POST', ENFORCEMENT_TRANSACTIONS_PATH, { json: { type: 'nope' } });
      expect(result.status).toBe(401);
    });
  });

  describe('bad requests', () => {
    const good = { type: 'valid', locationId: [1], limit: 10 };

    it.each([
      ['an unknown type', { ...good, type: 'nope' }, /type/],
      ['no type', { locationId: [1], limit: 10 }, /body: type/],
      ['an empty locationId', { ...good, locationId: [] }, /locationId/],
      ['a locationId that is not a list', { ...good, locationId: 1 }, /locationId/],
      ['string ids', { ...good, locationId: ['1'] }, /locationId\[0\]/],
      ['a zero id', { ...good, locationId: [0] }, /locationId\[0\]/],
      ['limit 0', { ...good, limit: 0 }, /limit/],
      ['limit 2001', { ...good, limit: 2001 }, /limit/],
      ['no limit', { type: 'valid', locationId: [1] }, /limit is required/],
      ['a fractional limit', { ...good, limit: 1.5 }, /limit/],
      ['a negative offset', { ...good, offset: -1 }, /offset/],
      ['a negative updated_at', { ...good, updated_at: -1000 }, /updated_at/],
      ['a string updated_at', { ...good, updated_at: '1772463600000' }, /updated_at/],
      ['a list as body', [good], /request body/],
    ])('answers 400 for %s', async (_case, body, message) => {
      const result = await sync(OFFICER, body);
      expect(result.status).toBe(400);
      expect(result.message).toMatch(message);
    });

    it('names every offending field in one message, worded as zod does', async () => {
      const result = await sync(OFFICER, { ...good, locationId: [0], limit: 0, offset: -1 });
      expect(result.message).toBe(
        'Invalid request body: locationId[0]: Too small: expected number to be >0; ' +
          'limit: Too small: expected number to be >=1; offset: Too small: expected number to be >=0',
      );
      const noType = await sync(OFFICER, { locationId: [1], limit: 10 });
      const options = SYNC_TYPES.map((type) => `"${type}"`).join('|');
      expect(noType.message).toBe(`Invalid request body: type: Invalid option: expected one of ${options}`);
    });

    it('answers 400 when ?type= and the body disagree, or ?type= is unknown', async () => {
      const mismatch = await sync(OFFICER, good, '?type=expired');
      expect(mismatch.status).toBe(400);
      expect(mismatch.message).toMatch(/expired.*valid/);
      const unknown = await sync(OFFICER, good, '?type=everything');
      expect(unknown.status).toBe(400);
      expect(unknown.message).toMatch(/query: type/);
      expect((await sync(OFFICER, good, '?type=valid')).status).toBe(200);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const { token } = await api().signIn(OFFICER);
      const result = await api().call('POST', ENFORCEMENT_TRANSACTIONS_PATH, {
        idToken: idTokenFor(OFFICER),
        session: token,
        rawBody: '{"type": "valid", ',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(result.status).toBe(400);
      expect(result.body.success).toBe(false);
    });
  });
});

