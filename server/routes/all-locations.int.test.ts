import { beforeAll, describe, expect, it } from 'vitest';
import type { LocationInput, Location } from '../../src/contract/locations';
import type { PromoCode } from '../../src/contract/promo-codes';
import type { RateLocation } from '../../src/contract/rates';
import type { MyAllLocations, Role } from '../../src/contract/roles';
import type { Paged } from '../../src/contract/lists';
import type { AssignableRole, StaffUser } from '../../src/contract/users';
import type { RateSet } from '../../src/rates/rate-set';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { findStaffByEmail } from '../db/staff';
import { useSeededApi } from '../testing/seeded-api';
import { BACKENDS } from '../testing/test-database';

/**
 * Locations join their creators' access (issue 34, docs/users-and-roles.md "All locations, now and later"): the demo
 * Administrator holds every feature at all locations, now and later, so a location they add is theirs at once; only
 * a holder of such a grant gives or takes it away, and holding every location of today is not enough.
 */
const ADMIN = 'admin@example.com';
const SUPERUSER = 'superuser@example.com';
/** Holds every feature at delete at every location that exists, listed one by one: not "at all locations". */
const LISTED = 'listed.everywhere@example.com';
/** User roles and users at every level, promo codes at Pike Place (3) only. */
const PIKE = 'pike.roles@example.com';

const NEW_LOCATION: LocationInput = {
  name: 'Harbor Point Garage',
  address: '1 Harbor Point Blvd, Baltimore, MD 21231',
  time_zone: 'America/New_York',
  capacity: 320,
  status: 'active',
  enforcement_enabled: false,
  grace_period_minutes: 0,
};
const allDay = (priceCents: number): RateSet => ({
  bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment' as const, priceCents })),
  dailyMaxCents: 5_000,
  maxStayMinutes: null,
  events: [],
});
const FEATURES = ['pc', 'ur', 'u', 'rs', 'e', 'rp', 'rd', 'sd', 'lo'] as const;

describe.each(BACKENDS)('grants at all locations, now and later, on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  const db = () => context.database.db;
  const fullIds = async () =>
    (await db().query<{ location_id: number }>("SELECT location_id FROM locations WHERE offering = 'full' ORDER BY 1")).rows.map(
      (row) => row.location_id,
    );
  const roleIdOf = async (email: string) =>
    (await db().query<{ role_id: number }>('SELECT role_id FROM users WHERE email = $1', [email])).rows[0]!.role_id;
  const role = async (roleId: number) => (await api().getAs<Role>(SUPERUSER, `/roles/${roleId}`)).body.data!;
  const message = (result: { body: unknown }) => JSON.stringify(result.body);

  /** The locations that existed when LISTED was seeded: every one of them, at the time. */
  let everywhere: number[] = [];
  beforeAll(async () => {
    everywhere = await fullIds();
    await applyUserSeed(db(), [
      {
        email: LISTED,
        password: 'secret1',
        role: 'Every location, one by one',
        permissions: Object.fromEntries(FEATURES.map((feature) => [feature, { d: everywhere }])),
      },
      { email: PIKE, password: 'secret1', role: 'Pike roles desk', permissions: { ur: { d: [3] }, u: { d: [3] }, pc: { e: [3] } } },
    ]);
  });

  it('lets the admin use a location they just added: rates, a promo code, transactions, the role editor', async () => {
    const created = await api().postAs<Location>(ADMIN, '/locations', NEW_LOCATION);
    expect(created.status).toBe(200);
    const id = created.body.data!.location_id;

    // Configure Rates offers it, and a rate change there is accepted.
    const choices = await api().getAs<{ location_id: number }[]>(ADMIN, '/rates/locations');
    expect(choices.body.data!.map((row) => row.location_id)).toContain(id);
    const rates = await api().getAs<RateLocation>(ADMIN, `/rates/locations/${id}`);
    expect(rates.status).toBe(200);
    const change = await api().postAs(ADMIN, `/rates/locations/${id}/changes`, {
      rate_set: allDay(250),
      effective_at: '2026-03-03T06:00:00Z',
      reason: 'Opening prices',
      schedule_version: rates.body.data!.schedule_version,
    });
    expect(change.status, message(change)).toBe(200);

    // A promo code there, and the promo codes' and transactions' location choices name it.
    const code = await api().postAs<PromoCode>(ADMIN, '/promo-codes', {
      code: 'HARBOR10',
      discount_type: 'percent',
      discount_value: 10,
      multi_use: true,
      total_cap: null,
      per_plate_cap: null,
      valid_from: '2026-03-01T00:00:00Z',
      valid_to: '2026-06-01T00:00:00Z',
      location_ids: [id],
      active: true,
    });
    expect(code.status, message(code)).toBe(200);
    for (const path of ['/promo-codes/locations', '/transactions/locations']) {
      const listed = await api().getAs<{ location_id: number }[]>(ADMIN, path);
      expect(listed.body.data!.map((row) => row.location_id), path).toContain(id);
    }
    expect((await api().getAs(ADMIN, `/transactions?locationId=${id}`)).status).toBe(200);

    // The admin's role reads as holding it (spec §3 lists), and says the grant in its own field.
    const admin = await role(await roleIdOf(ADMIN));
    expect(admin.permissions.rs?.d).toContain(id);
    expect(admin.all_locations).toEqual(Object.fromEntries(FEATURES.map((feature) => [feature, 'delete'])));
    const mine = await api().getAs<MyAllLocations>(ADMIN, '/roles/mine/all-locations');
    expect(mine.body.data).toEqual({ su: false, all_locations: admin.all_locations });

    // The staff list names it among the admin's locations.
    const staff = await api().getAs<Paged<StaffUser>>(SUPERUSER, `/users?q=${encodeURIComponent(ADMIN)}`);
    expect(staff.body.data!.rows[0]!.location_ids).toContain(id);

    // Someone who listed every location one by one does not reach the new one.
    expect((await api().getAs(LISTED, `/rates/locations/${id}`)).status).toBe(403);
  });

  it('does not reach Enforcement Lite locations, which are another product', async () => {
    const { rows } = await db().query<{ location_id: number }>(
      `INSERT INTO locations (name, address, time_zone, offering, operator_name, enforcement_enabled)
       VALUES ('Lite Lot For Reach', '2 Lite St', 'America/Chicago', 'lite', 'Lite Operator', true) RETURNING location_id`,
    );
    const lite = rows[0]!.location_id;
    const admin = (await findStaffByEmail(db(), ADMIN))!;
    expect(admin.record.e?.d).not.toContain(lite);
    expect(admin.record.e?.d).toEqual(expect.arrayContaining(await fullIds()));
  });

  it('lets only a holder of the grant give it: holding every location of today is not enough', async () => {
    const grantWide = (name: string) => ({ name, permissions: {}, all_locations: { pc: 'view' } });
    const byListed = await api().postAs(LISTED, '/roles', grantWide('Promo viewers everywhere'));
    expect(byListed.status).toBe(403);
    expect(message(byListed)).toContain('Promo codes: view at all locations, now and later');
    const byPike = await api().postAs(PIKE, '/roles', grantWide('Promo viewers from Pike'));
    expect(byPike.status).toBe(403);
    // The same access at each location of today is the listed editor's to give.
    const listedOnly = await api().postAs<Role>(LISTED, '/roles', {
      name: 'Promo viewers, listed',
      permissions: { pc: { v: everywhere } },
    });
    expect(listedOnly.status).toBe(200);
    expect(listedOnly.body.data!.all_locations).toEqual({});

    const byAdmin = await api().postAs<Role>(ADMIN, '/roles', grantWide('Promo viewers everywhere'));
    expect(byAdmin.status, message(byAdmin)).toBe(200);
    const wide = byAdmin.body.data!;
    expect(wide.all_locations).toEqual({ pc: 'view' });
    expect(wide.permissions.pc?.v).toEqual(await fullIds());

    // A location added later is in the role at once.
    const added = await api().postAs<Location>(ADMIN, '/locations', { ...NEW_LOCATION, name: 'Later Lot' });
    expect((await role(wide.role_id)).permissions.pc?.v).toContain(added.body.data!.location_id);

    // Taking it away is the holder's too: the listed editor may not, even keeping every location listed.
    const current = await role(wide.role_id);
    const takeAway = { name: current.name, permissions: current.permissions, all_locations: {}, version: current.version };
    const refused = await api().postAs(LISTED, `/roles/${wide.role_id}`, takeAway);
    expect(refused.status).toBe(403);
    expect((await role(wide.role_id)).all_locations).toEqual({ pc: 'view' });
    expect((await api().postAs(ADMIN, `/roles/${wide.role_id}`, takeAway)).status).toBe(200);
    const after = await role(wide.role_id);
    expect(after.all_locations).toEqual({});
    // What it held today stays listed; only locations added later no longer join.
    expect(after.permissions.pc?.v).toEqual(await fullIds());
  });

  it('does not let a non-holder give a role with the grant to anyone', async () => {
    const adminRole = await roleIdOf(ADMIN);
    const offered = await api().getAs<AssignableRole[]>(LISTED, '/users/assignable-roles');
    expect(offered.body.data!.map((row) => row.role_id)).not.toContain(adminRole);
    expect((await api().getAs<AssignableRole[]>(ADMIN, '/users/assignable-roles')).body.data!.map((row) => row.role_id)).toContain(
      adminRole,
    );
    const { rows } = await db().query<{ user_id: number; version: number; display_name: string | null }>(
      'SELECT user_id, version, display_name FROM users WHERE email = $1',
      [PIKE],
    );
    const pike = rows[0]!;
    const promoted = await api().postAs(LISTED, `/users/${pike.user_id}`, {
      display_name: pike.display_name ?? 'Pike desk',
      role_id: adminRole,
      version: pike.version,
    });
    expect(promoted.status).toBe(403);
    expect(await roleIdOf(PIKE)).not.toBe(adminRole);
  });
});
