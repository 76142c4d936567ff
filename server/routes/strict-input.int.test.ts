import { describe, expect, it } from 'vitest';
import type { PromoCode, PromoCodeInput } from '../../src/contract/promo-codes';
import type { RateLocation } from '../../src/contract/rates';
import type { RateSet } from '../../src/rates/rate-set';
import type { StaffAccounts } from '../auth/staff-accounts';
import { fakeUid, idTokenFor, type CallResult } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Issue 34 "Input": dates that are not on the calendar and e-mail addresses longer than RFC 5321 allows are refused
 * by the contract with a 400 naming the field, and nothing is written. Before, the dates passed the pattern check and
 * PostgreSQL refused them ("date/time field value out of range", a 500); the addresses were accepted.
 */
const SUPERUSER = 'superuser@example.com';
/** The demo admin: every level of every feature at every location. */
const ADMIN = 'admin@example.com';
const IMPOSSIBLE_DAYS = ['2026-02-30', '2026-11-31', '2027-04-31'];

const CODE: PromoCodeInput = {
  code: '',
  discount_type: 'percent',
  discount_value: 10,
  multi_use: true,
  total_cap: null,
  per_plate_cap: null,
  valid_from: '2026-06-01T00:00:00-05:00',
  valid_to: '2026-12-01T00:00:00-06:00',
  location_ids: [1, 2],
  active: true,
};
const allDay: RateSet = {
  bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment' as const, priceCents: 200 })),
  dailyMaxCents: 4_000,
  maxStayMinutes: null,
  events: [],
};

type FieldErrors = { fieldErrors: Record<string, string> };
function expectRefusedAt(result: CallResult<unknown>, field: string) {
  expect(result.status).toBe(400);
  expect(result.body.message).toContain(field);
  expect(Object.keys((result.body.data as FieldErrors).fieldErrors)).toEqual([field]);
}

describe.each(BACKENDS)('strict input on %s', (backend) => {
  const context = useSeededApi(backend, { staffAccounts: invitingAccounts() });
  const api = () => context.api;
  const count = async (sql: string) => Number((await context.database.db.query<{ n: number }>(sql)).rows[0]?.n);
  const promoWrites = () => count("SELECT (SELECT count(*) FROM promo_codes) + (SELECT count(*) FROM audit_log WHERE entity = 'promo_code') AS n");

  describe('impossible dates are a 400 naming the field, never a 500', () => {
    it.each(IMPOSSIBLE_DAYS)('POST /promo-codes with valid_from or valid_to on %s', async (day) => {
      const before = await promoWrites();
      expectRefusedAt(await api().postAs(ADMIN, '/promo-codes', { ...CODE, valid_from: `${day}T00:00:00-06:00` }), 'valid_from');
      expectRefusedAt(await api().postAs(ADMIN, '/promo-codes', { ...CODE, valid_from: '2026-06-01T00:00:00Z', valid_to: `${day}T23:59:00Z` }), 'valid_to');
      expect(await promoWrites()).toBe(before);
    });

    it.each(IMPOSSIBLE_DAYS)('POST /promo-codes/{id} with valid_from or valid_to on %s', async (day) => {
      const created = await api().postAs<PromoCode>(ADMIN, '/promo-codes', CODE);
      expect(created.status).toBe(200);
      const { promo_code_id: id, version } = created.body.data!;
      const before = await promoWrites();
      const edit = { ...CODE, code: created.body.data!.code, version };
      expectRefusedAt(await api().postAs(ADMIN, `/promo-codes/${id}`, { ...edit, valid_from: `${day}T08:00:00Z` }), 'valid_from');
      expectRefusedAt(await api().postAs(ADMIN, `/promo-codes/${id}`, { ...edit, valid_to: `${day}T08:00:00.000+01:00` }), 'valid_to');
      expect(await promoWrites()).toBe(before);
      // The same edit on a real date saves: the refusal was the date's.
      expect((await api().postAs(ADMIN, `/promo-codes/${id}`, { ...edit, valid_to: '2026-11-30T08:00:00Z' })).status).toBe(200);
    });

    it.each(IMPOSSIBLE_DAYS)('POST /rates/locations/{id}/changes effective on %s', async (day) => {
      // Early enough that every one of these days, read as the day after, is ahead (not refused as past).
      api().clock.now = new Date('2026-01-15T15:00:00Z');
      const rateWrites = () => count("SELECT (SELECT count(*) FROM rate_sets) + (SELECT count(*) FROM audit_log WHERE entity = 'rates') AS n");
      const before = await rateWrites();
      const location = (await api().getAs<RateLocation>(ADMIN, '/rates/locations/1')).body.data!;
      const change = { rate_set: allDay, reason: 'Winter prices', schedule_version: location.schedule_version };
      expectRefusedAt(await api().postAs(ADMIN, '/rates/locations/1/changes', { ...change, effective_at: `${day}T06:00:00-06:00` }), 'effective_at');
      expect(await rateWrites()).toBe(before);
    });

    it('refuses times off the clock and offsets no zone has, and keeps taking real instants', async () => {
      for (const valid_from of ['2026-06-01T24:00:00Z', '2026-06-01T10:00:60Z', '2026-06-01T10:00+15:00', '0000-06-01T10:00Z']) {
        expectRefusedAt(await api().postAs(ADMIN, '/promo-codes', { ...CODE, valid_from }), 'valid_from');
      }
      // 29 February of a leap year is a day.
      const leap = await api().postAs<PromoCode>(ADMIN, '/promo-codes', { ...CODE, valid_from: '2028-02-29T00:00:00-06:00', valid_to: '2028-03-31T00:00:00-05:00' });
      expect(leap.status).toBe(200);
      expect(leap.body.data?.valid_from).toBe('2028-02-29T06:00:00.000Z');
    });
  });

  describe('e-mail addresses within RFC 5321 lengths', () => {
    const users = () => count('SELECT count(*)::int AS n FROM users');
    const roleId = async () => (await context.database.db.query<{ role_id: number }>('SELECT min(role_id) AS role_id FROM roles')).rows[0]!.role_id;
    const invite = async (email: string) => api().postAs(SUPERUSER, '/users', { email, display_name: 'Long Name', role_id: await roleId() });

    it.each([
      ['a 65-character local part', `${'a'.repeat(65)}@example.com`],
      ['a 300-character local part', `${'a'.repeat(300)}@example.com`],
      ['255 characters in all', `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}.com`],
    ])('POST /users refuses %s (400 at email) and writes nothing', async (_what, email) => {
      const before = await users();
      expectRefusedAt(await invite(email), 'email');
      expect(await users()).toBe(before);
    });

    it('POST /users takes an address at the limits (64 before the @, 254 in all)', async () => {
      const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
      expect(email).toHaveLength(254);
      const invited = await invite(email);
      expect(invited.status).toBe(200);
    });

    it('the permissions lookup refuses an over-long address before looking it up', async () => {
      const email = `${'a'.repeat(300)}@example.com`;
      const result = await api().call('POST', '/auth/permissions', { idToken: idTokenFor(email), json: { email } });
      expect(result.status).toBe(400);
      expect(result.body.message).toContain('email');
    });
  });
});

/** An identity provider that takes every invitation (the e-mail rule is what is tested). */
function invitingAccounts(): StaffAccounts {
  return {
    async invite({ email }) {
      return { uid: fakeUid(email), setPasswordLink: `http://auth.test/reset?email=${encodeURIComponent(email)}` };
    },
    async remove() {},
  };
}
