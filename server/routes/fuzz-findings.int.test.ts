import { describe, expect, it } from 'vitest';
import { MAX_INT_ID } from '../../src/contract/ids';
import type { PromoCodeInput } from '../../src/contract/promo-codes';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * What the write fuzz (write-fuzz.int.test.ts) found, kept as plain cases. Location and role ids are PostgreSQL
 * integers: an id above 2^31 - 1 passed the contract (which allowed up to 2^53) and PostgreSQL refused it as a
 * parameter, a 500. And a 409 on the rates of a location never configured still saved its default configuration.
 */
const SUPERUSER = 'superuser@example.com';
const ADMIN = 'admin@example.com';
const TOO_BIG = MAX_INT_ID + 1;

const CODE: PromoCodeInput = {
  code: '',
  discount_type: 'percent',
  discount_value: 10,
  multi_use: true,
  total_cap: null,
  per_plate_cap: null,
  valid_from: '2026-06-01T00:00:00-05:00',
  valid_to: '2026-12-01T00:00:00-06:00',
  location_ids: [1],
  active: true,
};

describe.each(BACKENDS)('fuzz findings on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  const count = async (sql: string) => Number((await context.database.db.query<{ n: number }>(sql)).rows[0]?.n);

  function expectRefusedAt(result: { status: number; body: { message?: string } }, field: string) {
    expect(result.status).toBe(400);
    expect(result.body.message).toContain(field);
  }

  it('a mailing segment naming a location or role id past 2^31 - 1 is a 400', async () => {
    const content = { subject: 'Hello', body: 'Dear parker' };
    const parkers = { ...content, segment: { kind: 'parkers', locationIds: [1, TOO_BIG], parkerStatus: 'active' } };
    const staff = { ...content, segment: { kind: 'staff', roleIds: [TOO_BIG] } };
    expectRefusedAt(await api().postAs(SUPERUSER, '/mailings/preview', parkers), 'segment.locationIds');
    expectRefusedAt(await api().postAs(SUPERUSER, '/mailings', staff), 'segment.roleIds');
    expect(await count('SELECT count(*) AS n FROM mailings')).toBe(0);
    // At the bound it is read as an id (and there is no such role).
    expectRefusedAt(await api().postAs(SUPERUSER, '/mailings/preview', { ...staff, segment: { kind: 'staff', roleIds: [MAX_INT_ID] } }), 'segment.roleIds');
  });

  it('a promo code at a location id past 2^31 - 1 is a 400, to create and to redeem', async () => {
    expectRefusedAt(await api().postAs(ADMIN, '/promo-codes', { ...CODE, location_ids: [1, TOO_BIG] }), 'location_ids');
    expect(await count('SELECT count(*) AS n FROM promo_codes')).toBe(0);
    const { token } = await api().signIn(SUPERUSER);
    const redeem = await api().call('POST', '/promo-codes/redeem', {
      idToken: idTokenFor(SUPERUSER),
      session: token,
      headers: { 'Idempotency-Key': 'fuzz-finding-1' },
      json: { code: 'SPRING10', location_id: TOO_BIG, license_plate: 'ABC123', quote_cents: 500 },
    });
    expectRefusedAt(redeem, 'location_id');
  });

  it('a stale edit of rates never configured is a 409 that saves nothing', async () => {
    const configs = () => count('SELECT count(*) AS n FROM rate_configs WHERE location_id = 6');
    const audits = () => count("SELECT count(*) AS n FROM audit_log WHERE entity = 'rates'");
    const before = { configs: await configs(), audits: await audits() };
    expect(before.configs).toBe(0);
    const edit = { currency: 'USD', incrementMinutes: 15, rounding: 'up', graceMinutes: 5, taxBasisPoints: 0, dailyMaximum: 'calendar_day' };
    const stale = await api().postAs(ADMIN, '/rates/locations/6/config', { ...edit, version: 3 });
    expect(stale.status).toBe(409);
    expect(await configs()).toBe(0);
    // From version 0 (the defaults) it saves, once.
    expect((await api().postAs(ADMIN, '/rates/locations/6/config', { ...edit, version: 0 })).status).toBe(200);
    expect((await api().postAs(ADMIN, '/rates/locations/6/config', { ...edit, version: 0 })).status).toBe(409);
    expect({ configs: await configs(), audits: await audits() }).toEqual({ configs: 1, audits: before.audits + 1 });
  });
});
