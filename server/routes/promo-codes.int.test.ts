import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { PromoCode, PromoCodeInput, Redemption } from '../../src/contract/promo-codes';
import type { Db } from '../db/db';
import { IDEMPOTENCY_KEY_TTL_MS, purgeIdempotencyKeys } from '../db/idempotency-keys';
import { openPostgresDatabase } from '../db/postgres';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { createTestApi, idTokenFor, type CallResult } from '../testing/test-api';
import { BACKENDS, sameSchemaOptions } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/** Promo-code edit (so add and view too) at Union Station (1) and Navy Pier (2). */
const MARKETING = 'marketing@example.com';
/** Promo-code view at 1 only. */
const PC_VIEWER = 'pc.viewer@example.com';
/** The demo account promo@example.com: view and add at Pike Place (3) only. */
const PROMO = 'promo@example.com';

/** The test clock stands at 2026-03-02T15:00:00Z. */
const CODE: PromoCodeInput = {
  code: 'Spring25',
  discount_type: 'percent',
  discount_value: 25,
  multi_use: true,
  total_cap: 500,
  per_plate_cap: 2,
  valid_from: '2026-03-01T00:00:00Z',
  valid_to: '2026-06-01T00:00:00Z',
  location_ids: [1, 2],
  active: true,
};

describe.each(BACKENDS)('promo codes on %s', (backend) => {
  const context = useSeededApi(backend);
  const db = () => context.database.db;
  const sessions = new Map<string, string>();
  let wide: { api: ReturnType<typeof createTestApi>; close: () => Promise<void> };
  let serial = 0;

  beforeAll(async () => {
    await applyUserSeed(db(), [
      { email: MARKETING, password: 'secret1', permissions: { pc: { e: [1, 2] } } },
      { email: PC_VIEWER, password: 'secret1', permissions: { pc: { v: [1] } } },
    ]);
    // On PostgreSQL a pool of its own, so concurrent redemptions really run side by side (the suite's has 3).
    if (backend === 'postgres') {
      const schemaOptions = await sameSchemaOptions(db());
      const pool: Db = openPostgresDatabase({ connectionString: inject('databaseUrl'), options: schemaOptions, max: 16 });
      wide = { api: createTestApi(pool), close: () => pool.close() };
    } else {
      wide = { api: context.api, close: async () => undefined };
    }
  });
  afterAll(async () => {
    expect(wide.api.serverErrors).toEqual([]);
    await wide.close();
  });

  async function call<T>(
    email: string,
    method: 'GET' | 'POST',
    path: string,
    json?: unknown,
    api = context.api,
    headers: Record<string, string> = {},
  ): Promise<CallResult<T>> {
    let token = sessions.get(email);
    if (!token) {
      token = (await context.api.signIn(email)).token;
      sessions.set(email, token);
    }
    return api.call<T>(method, path, { idToken: idTokenFor(email), session: token, headers, ...(json === undefined ? {} : { json }) });
  }
  const create = (email: string, input: Partial<PromoCodeInput> & Record<string, unknown>) =>
    call<PromoCode>(email, 'POST', '/promo-codes', { ...CODE, code: `Code${++serial}X`, ...input });
  /** A redemption with a key of its own unless `key` is given (a retry sends the first one's key again). */
  const redeem = (email: string, body: Record<string, unknown>, api = context.api, key: string | null = `k-${++serial}`) =>
    call<Redemption>(email, 'POST', '/promo-codes/redeem', body, api, key === null ? {} : { 'Idempotency-Key': key });
  const tally = async () => {
    const { rows } = await db().query<{ codes: number; audits: number; redemptions: number }>(
      `SELECT (SELECT count(*)::int FROM promo_codes) AS codes,
              (SELECT count(*)::int FROM audit_log WHERE entity IN ('promo_code', 'promo_redemption')) AS audits,
              (SELECT count(*)::int FROM promo_redemptions) AS redemptions`,
    );
    return rows[0]!;
  };

  describe('adding, listing and editing', () => {
    it('adds a code, audits it, lists it with its usage and shows it to viewers of all its locations only', async () => {
      const created = await create(MARKETING, { code: 'Spring25' });
      expect(created.status).toBe(200);
      const code = created.body.data!;
      expect(code).toMatchObject({ code: 'Spring25', uses: 0, remaining: 500, location_ids: [1, 2], version: 1, active: true });
      expect(code.valid_from).toBe('2026-03-01T00:00:00.000Z');

      const history = await call<AuditEntry[]>(MARKETING, 'GET', `/promo-codes/${code.promo_code_id}/history`);
      expect(history.body.data?.map((entry) => [entry.action, entry.actor?.email])).toEqual([['create', MARKETING]]);

      const listed = await call<Paged<PromoCode>>(MARKETING, 'GET', '/promo-codes?q=spring');
      expect(listed.body.data?.rows.map((row) => row.code)).toEqual(['Spring25']);
      // Spec §5 (issue 34): a code of locations 1 and 2 needs promo codes at both; PC_VIEWER holds them at 1 only.
      expect((await call<Paged<PromoCode>>(PC_VIEWER, 'GET', '/promo-codes?q=spring')).body.data?.rows).toEqual([]);
      expect((await call(PC_VIEWER, 'GET', `/promo-codes/${code.promo_code_id}`)).status).toBe(404);
      // promo@example.com works at Pike Place (3): the code is not theirs to see.
      expect((await call<Paged<PromoCode>>(PROMO, 'GET', '/promo-codes?q=spring')).body.data?.rows).toEqual([]);
      expect((await call(PROMO, 'GET', `/promo-codes/${code.promo_code_id}`)).status).toBe(404);
      expect((await call(PROMO, 'GET', `/promo-codes/${code.promo_code_id}/history`)).status).toBe(404);
    });

    it('lists the locations of the user’s promo-code permission for the form', async () => {
      const mine = await call<{ location_id: number }[]>(MARKETING, 'GET', '/promo-codes/locations');
      expect(mine.body.data?.map((location) => location.location_id).sort()).toEqual([1, 2]);
      expect((await call<{ location_id: number }[]>(PROMO, 'GET', '/promo-codes/locations')).body.data?.map((l) => l.location_id)).toEqual([3]);
      expect((await call('finance@example.com', 'GET', '/promo-codes/locations')).status).toBe(403);
    });

    it('generates a code when none is typed', async () => {
      const created = await create(MARKETING, { code: '' });
      expect(created.status).toBe(200);
      expect(created.body.data?.code).toMatch(/^[A-Z2-9]{8}$/);
    });

    it('makes a single-use code usable once in all', async () => {
      const created = await create(MARKETING, { multi_use: false, total_cap: null });
      expect(created.body.data).toMatchObject({ multi_use: false, total_cap: 1, remaining: 1 });
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['the same code in another case', { code: 'SPRING25' }, 'code'],
      ['a 3-character code', { code: 'AB1' }, 'code'],
      ['a 21-character code', { code: 'A'.repeat(21) }, 'code'],
      ['a code with a dash', { code: 'SPRING-25' }, 'code'],
      ['a total cap of 0', { total_cap: 0 }, 'total_cap'],
      ['a per-plate cap of 0', { per_plate_cap: 0 }, 'per_plate_cap'],
      ['a fractional cap', { total_cap: 2.5 }, 'total_cap'],
      ['a window over a year', { valid_from: '2026-03-01T00:00:00Z', valid_to: '2027-03-01T00:00:01Z' }, 'valid_to'],
      ['an end before the start', { valid_from: '2026-03-01T00:00:00Z', valid_to: '2026-02-01T00:00:00Z' }, 'valid_to'],
      ['a date without a time', { valid_from: '2026-03-01' }, 'valid_from'],
      ['101 percent', { discount_value: 101 }, 'discount_value'],
      ['a zero discount', { discount_value: 0 }, 'discount_value'],
      ['a negative amount off', { discount_type: 'amount', discount_value: -500 }, 'discount_value'],
      ['a fractional-cent amount off', { discount_type: 'amount', discount_value: 250.5 }, 'discount_value'],
      ['an unknown discount type', { discount_type: 'bogo' }, 'discount_type'],
      ['a single-use code with a cap of 5', { multi_use: false, total_cap: 5 }, 'total_cap'],
      ['no locations', { location_ids: [] }, 'location_ids'],
      ['a location twice', { location_ids: [1, 1] }, 'location_ids'],
      ['a location that does not exist', { location_ids: [1, 999] }, 'location_ids'],
      ['an unknown field', { owner: 'me' }, 'owner'],
      ['no active flag', { active: undefined }, 'active'],
    ];
    it.each(bad)('answers 400 naming the field for %s, and writes nothing', async (_case, change, field) => {
      const before = await tally();
      const result = await call('superuser@example.com', 'POST', '/promo-codes', {
        ...CODE,
        code: 'Fresh1',
        ...change,
      });
      expect(result.status).toBe(400);
      expect(result.body.message).toContain(field);
      expect(Object.keys((result.body.data as { fieldErrors: object }).fieldErrors)).toContain(field);
      expect(await tally()).toEqual(before);
    });

    it.each([
      [PC_VIEWER, [1], 403],
      [PROMO, [1], 403],
      [PROMO, [3, 1], 403],
      ['finance@example.com', [1], 403],
      ['noaccess@example.com', [1], 403],
    ])('refuses %s adding at %j (%i), and writes nothing', async (email, locations, status) => {
      const before = await tally();
      expect((await create(email, { location_ids: locations })).status).toBe(status);
      expect(await tally()).toEqual(before);
    });

    it('lets promo@example.com add at Pike Place, but not edit there', async () => {
      const created = await create(PROMO, { location_ids: [3] });
      expect(created.status).toBe(200);
      const { promo_code_id: id, version } = created.body.data!;
      expect((await call(PROMO, 'POST', `/promo-codes/${id}`, { ...CODE, location_ids: [3], version })).status).toBe(403);
      expect((await call(PROMO, 'POST', `/promo-codes/${id}/status`, { active: false, version })).status).toBe(403);
      // MARKETING edits at 1 and 2 only: a code of Pike Place is hidden from them.
      expect((await call(MARKETING, 'POST', `/promo-codes/${id}/status`, { active: false, version })).status).toBe(404);
    });

    it('saves an edit from the current version and refuses a stale one with who and when', async () => {
      const created = (await create(MARKETING, {})).body.data!;
      const { promo_code_id: id } = created;
      const saved = await call<PromoCode>(MARKETING, 'POST', `/promo-codes/${id}`, { ...CODE, code: created.code, discount_value: 30, location_ids: [1], version: 1 });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ discount_value: 30, location_ids: [1], version: 2 });
      const stale = await call(MARKETING, 'POST', `/promo-codes/${id}`, { ...CODE, code: created.code, discount_value: 40, version: 1 });
      expect(stale.status).toBe(409);
      expect(stale.body.data).toMatchObject({ currentVersion: 2, changedBy: { email: MARKETING } });
      // Moving a code to a location outside one's edit locations is refused.
      expect((await call(MARKETING, 'POST', `/promo-codes/${id}`, { ...CODE, code: created.code, location_ids: [1, 3], version: 2 })).status).toBe(403);
      const history = (await call<AuditEntry[]>(MARKETING, 'GET', `/promo-codes/${id}/history`)).body.data!;
      expect(history[0]?.changes).toEqual(
        expect.arrayContaining([
          { field: 'discount_value', before: 25, after: 30 },
          { field: 'location_ids', before: [1, 2], after: [1] },
        ]),
      );
    });

    it('deactivates with a version, filters by state and exports what the list shows', async () => {
      const created = (await create(MARKETING, { code: 'Gone2026' })).body.data!;
      const off = await call<PromoCode>(MARKETING, 'POST', `/promo-codes/${created.promo_code_id}/status`, { active: false, version: 1 });
      expect(off.body.data).toMatchObject({ active: false, version: 2 });
      const inactive = await call<Paged<PromoCode>>(MARKETING, 'GET', '/promo-codes?state=inactive');
      expect(inactive.body.data?.rows.map((row) => row.code)).toContain('Gone2026');
      const active = await call<Paged<PromoCode>>(MARKETING, 'GET', '/promo-codes?state=active&pageSize=100');
      expect(active.body.data?.rows.map((row) => row.code)).not.toContain('Gone2026');
      expect(active.body.data?.rows.map((row) => row.code)).toContain('Spring25');
      for (const state of ['scheduled', 'expired', 'used_up']) {
        const other = await call<Paged<PromoCode>>(MARKETING, 'GET', `/promo-codes?state=${state}&pageSize=100`);
        expect(other.status, state).toBe(200);
        expect(other.body.data?.rows.map((row) => row.code)).not.toContain('Spring25');
      }

      const { token } = await context.api.signIn(MARKETING);
      const response = await context.api.app.request('/promo-codes/export?q=gone', {
        headers: { Authorization: `Bearer ${idTokenFor(MARKETING)}`, JwtToken: token },
      });
      const records = parse((await response.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
      expect(records).toEqual([expect.objectContaining({ Code: 'Gone2026', Discount: '25%', Active: 'no', Locations: '1 2' })]);
    });
  });

  describe('POST /promo-codes/redeem', () => {
    it('applies a percentage to the quote, counts the use and audits it', async () => {
      const code = (await create(MARKETING, { code: 'Quarter1' })).body.data!;
      const result = await redeem(MARKETING, { code: 'quarter1', location_id: 2, license_plate: 'abc-123', quote_cents: 1250 });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ code: 'Quarter1', discount_cents: 313, total_cents: 937, uses: 1, remaining: 499 });
      const stored = await db().query<{ license_plate: string }>('SELECT license_plate FROM promo_redemptions WHERE promo_code_id = $1', [code.promo_code_id]);
      expect(stored.rows).toEqual([{ license_plate: 'ABC123' }]);
      const audits = await db().query("SELECT 1 FROM audit_log WHERE entity = 'promo_redemption' AND entity_id = $1", [String(result.body.data!.redemption_id)]);
      expect(audits.rows).toHaveLength(1);
    });

    it('never discounts more than the quote, and gives free minutes as minutes', async () => {
      await create(MARKETING, { code: 'TenOff', discount_type: 'amount', discount_value: 1000 });
      await create(MARKETING, { code: 'FreeHour', discount_type: 'minutes', discount_value: 60 });
      const off = await redeem(MARKETING, { code: 'TENOFF', location_id: 1, license_plate: 'P1', quote_cents: 600 });
      expect(off.body.data).toMatchObject({ discount_cents: 600, total_cents: 0, free_minutes: 0 });
      const free = await redeem(MARKETING, { code: 'freehour', location_id: 1, license_plate: 'P1', quote_cents: 600 });
      expect(free.body.data).toMatchObject({ discount_cents: 0, total_cents: 600, free_minutes: 60 });
    });

    it('refuses past the per-plate cap, outside the window, at another location and when inactive (409), writing nothing', async () => {
      await create(MARKETING, { code: 'PlateTwo', per_plate_cap: 2 });
      await create(MARKETING, { code: 'Later1', valid_from: '2026-04-01T00:00:00Z', valid_to: '2026-05-01T00:00:00Z' });
      await create(MARKETING, { code: 'Over1', valid_from: '2026-01-01T00:00:00Z', valid_to: '2026-03-02T15:00:00Z' });
      await create(MARKETING, { code: 'Off1', active: false });
      const base = { location_id: 1, license_plate: 'CAP1', quote_cents: 1000 };
      expect((await redeem(MARKETING, { ...base, code: 'PlateTwo' })).status).toBe(200);
      expect((await redeem(MARKETING, { ...base, code: 'PlateTwo' })).status).toBe(200);
      const before = await tally();
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ ...base, code: 'PlateTwo' }, 'plateCap', /Plate CAP1 has used code PlateTwo 2 times/],
        [{ ...base, code: 'Later1' }, 'notYetValid', /valid from 2026-04-01/],
        [{ ...base, code: 'Over1' }, 'expired', /expired at 2026-03-02T15:00/],
        [{ ...base, code: 'Spring25', location_id: 2, license_plate: 'ELSE1' }, 'ok', /./],
        [{ ...base, code: 'Quarter1', location_id: 1 }, 'ok', /./],
        [{ ...base, code: 'Off1' }, 'inactive', /deactivated/],
      ];
      for (const [body, reason, message] of cases.filter(([, reason]) => reason !== 'ok')) {
        const result = await redeem(MARKETING, body);
        expect(result.status, reason).toBe(409);
        expect(result.body.data).toEqual({ reason });
        expect(result.body.message).toMatch(message);
      }
      expect(await tally()).toEqual(before);
      // Another plate may still use it.
      expect((await redeem(MARKETING, { ...base, code: 'PlateTwo', license_plate: 'CAP2' })).status).toBe(200);
    });

    it('refuses a code at a location it does not cover', async () => {
      await create('superuser@example.com', { code: 'OnlyPike', location_ids: [3] });
      const result = await redeem('superuser@example.com', { code: 'OnlyPike', location_id: 1, license_plate: 'X1', quote_cents: 100 });
      expect(result.status).toBe(409);
      expect(result.body.data).toEqual({ reason: 'otherLocation' });
    });

    it.each([
      ['a negative quote', { quote_cents: -1 }, 'quote_cents'],
      ['a fractional-cent quote', { quote_cents: 10.5 }, 'quote_cents'],
      ['a short code', { code: 'AB' }, 'code'],
      ['a blank plate', { license_plate: ' - ' }, 'license_plate'],
      ['no location', { location_id: undefined }, 'location_id'],
    ])('answers 400 naming the field for %s', async (_case, change, field) => {
      const before = await tally();
      const result = await redeem(MARKETING, { code: 'Spring25', location_id: 1, license_plate: 'B1', quote_cents: 100, ...change });
      expect(result.status).toBe(400);
      expect(result.body.message).toContain(field);
      expect(await tally()).toEqual(before);
    });

    it('answers 404 for an unknown code and 403 at a location the caller cannot see', async () => {
      expect((await redeem(MARKETING, { code: 'NoSuch1', location_id: 1, license_plate: 'B1', quote_cents: 100 })).status).toBe(404);
      expect((await redeem(MARKETING, { code: 'Spring25', location_id: 3, license_plate: 'B1', quote_cents: 100 })).status).toBe(403);
      expect((await redeem('noaccess@example.com', { code: 'Spring25', location_id: 1, license_plate: 'B1', quote_cents: 100 })).status).toBe(403);
    });

    it('200 concurrent redemptions of a code capped at 100 succeed exactly 100 times, each audited', async () => {
      const code = (await create(MARKETING, { code: 'Hot100', total_cap: 100, per_plate_cap: null })).body.data!;
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          redeem(MARKETING, { code: 'HOT100', location_id: 1, license_plate: `HOT${index}`, quote_cents: 1000 }, wide.api),
        ),
      );
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(100);
      expect(statuses.filter((status) => status === 409)).toHaveLength(100);
      expect(new Set(results.flatMap((result) => (result.status === 200 ? [result.body.data!.uses] : []))).size).toBe(100);
      const { rows } = await db().query<{ uses: number; redemptions: number; audits: number }>(
        `SELECT p.uses,
                (SELECT count(*)::int FROM promo_redemptions r WHERE r.promo_code_id = p.promo_code_id) AS redemptions,
                (SELECT count(*)::int FROM audit_log a JOIN promo_redemptions r ON a.entity = 'promo_redemption'
                   AND a.entity_id = r.redemption_id::text WHERE r.promo_code_id = p.promo_code_id) AS audits
           FROM promo_codes p WHERE p.promo_code_id = $1`,
        [code.promo_code_id],
      );
      expect(rows[0]).toEqual({ uses: 100, redemptions: 100, audits: 100 });
    });

    it('answers a retry with the same key the first redemption again, counting one use', async () => {
      await create(MARKETING, { code: 'Retry1', total_cap: 5, per_plate_cap: null });
      const body = { code: 'RETRY1', location_id: 1, license_plate: 'RT1', quote_cents: 2000 };
      const first = await redeem(MARKETING, body, context.api, 'checkout-42');
      const before = await tally();
      const again = await redeem(MARKETING, { ...body, code: 'retry1' }, context.api, 'checkout-42');
      expect(again.status).toBe(200);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.body.data).toEqual(first.body.data);
      expect(await tally()).toEqual(before);
      // Another request under that key is refused, and counts nothing.
      const other = await redeem(MARKETING, { ...body, license_plate: 'RT2' }, context.api, 'checkout-42');
      expect(other.status).toBe(409);
      expect(other.body.message).toMatch(/already used for a different redemption/);
      expect(await tally()).toEqual(before);
    });

    it('keeps no key for a refused redemption, and needs a key', async () => {
      const before = await tally();
      expect((await redeem(MARKETING, { code: 'NoSuch2', location_id: 1, license_plate: 'K1', quote_cents: 100 }, context.api, 'k-fix')).status).toBe(404);
      const missing = await redeem(MARKETING, { code: 'Spring25', location_id: 1, license_plate: 'K1', quote_cents: 100 }, context.api, null);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toContain('idempotency-key');
      expect(await tally()).toEqual(before);
      // The refused key was not kept: fixed, the same key redeems.
      expect((await redeem(MARKETING, { code: 'Spring25', location_id: 1, license_plate: 'K1', quote_cents: 100 }, context.api, 'k-fix')).status).toBe(200);
    });

    it('forgets keys after a day: the purge drops old keys only, and keeps the redemptions', async () => {
      await create(MARKETING, { code: 'Aged1', total_cap: null, per_plate_cap: null });
      const body = { code: 'AGED1', location_id: 1, license_plate: 'OLD1', quote_cents: 1000 };
      expect((await redeem(MARKETING, body, context.api, 'aged-key')).status).toBe(200);
      expect((await redeem(MARKETING, { ...body, license_plate: 'NEW1' }, context.api, 'fresh-key')).status).toBe(200);
      await db().query("UPDATE promo_redemption_keys SET created_at = now() - interval '25 hours' WHERE key = 'aged-key'");
      const redemptions = async () => (await tally()).redemptions;
      const before = await redemptions();
      const purged = await purgeIdempotencyKeys(db(), new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS));
      expect(purged.redemptions).toBeGreaterThanOrEqual(1);
      const { rows } = await db().query<{ key: string }>("SELECT key FROM promo_redemption_keys WHERE key IN ('aged-key', 'fresh-key')");
      expect(rows.map((row) => row.key)).toEqual(['fresh-key']);
      expect(await redemptions()).toBe(before);
      // The fresh key still replays; the forgotten one is a new request.
      expect((await redeem(MARKETING, { ...body, license_plate: 'NEW1' }, context.api, 'fresh-key')).headers.get('Idempotent-Replayed')).toBe('true');
      expect((await redeem(MARKETING, body, context.api, 'aged-key')).headers.get('Idempotent-Replayed')).toBeNull();
      expect(await redemptions()).toBe(before + 1);
    });

    it('counts a double submit with one key once, however the two requests interleave', async () => {
      const code = (await create(MARKETING, { code: 'Twice1', total_cap: null, per_plate_cap: null })).body.data!;
      const body = { code: 'TWICE1', location_id: 1, license_plate: 'DBL1', quote_cents: 1000 };
      const results = await Promise.all(Array.from({ length: 8 }, () => redeem(MARKETING, body, wide.api, 'double-tap')));
      expect(results.map((result) => result.status)).toEqual(Array(8).fill(200));
      expect(new Set(results.map((result) => result.body.data!.redemption_id)).size).toBe(1);
      const { rows } = await db().query<{ uses: number; redemptions: number }>(
        `SELECT uses, (SELECT count(*)::int FROM promo_redemptions r WHERE r.promo_code_id = p.promo_code_id) AS redemptions
           FROM promo_codes p WHERE promo_code_id = $1`,
        [code.promo_code_id],
      );
      expect(rows[0]).toEqual({ uses: 1, redemptions: 1 });
    });
  });
});
