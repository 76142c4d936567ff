import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiteLocation, LiteLocationInput, LiteOfficer } from '../../src/contract/enforcement-lite';
import { ACCOUNT_DISABLED } from '../../src/contract/envelope';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { PermissionRecordInput } from '../../src/permissions/features';
import type { StaffAccounts } from '../auth/staff-accounts';
import { migrate } from '../db/migrate';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { applyDemoSeed } from '../db/seed/demo-seed';
import { createTestApi, fakeUid, idTokenFor } from '../testing/test-api';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../testing/test-database';

const SU = 'superuser@example.com';
/** Every permission at every location, but not a superuser. */
const EVERYTHING = 'everything.but.su@example.com';
/** The demo enforcement officer. */
const OFFICER = 'officer@example.com';
const ALL = [1, 2, 3, 4, 5, 6];
const FULL: PermissionRecordInput = Object.fromEntries(
  ['pc', 'ur', 'u', 'rs', 'e', 'rp', 'rd', 'sd', 'lo'].map((feature) => [feature, { v: ALL, a: ALL, e: ALL, d: ALL }]),
);

const LITE: LiteLocationInput = {
  name: 'Corner Lot Lite',
  address: '5 Corner St, Austin, TX 78701',
  time_zone: 'America/Chicago',
  capacity: 40,
  grace_period_minutes: 5,
  operator_name: 'Corner Parking LLC',
  status: 'active',
};

function fakeStaffAccounts() {
  const invited: string[] = [];
  const accounts: StaffAccounts = {
    async invite({ email }) {
      invited.push(email);
      return { uid: fakeUid(email), setPasswordLink: `http://auth.test/reset?email=${encodeURIComponent(email)}` };
    },
    async remove() {},
  };
  return { accounts, invited };
}

describe.each(BACKENDS)('Enforcement Lite on %s', (backend) => {
  const provider = fakeStaffAccounts();
  const context = {} as { database: TestDatabase; api: ReturnType<typeof createTestApi> };
  beforeAll(async () => {
    context.database = await openTestDatabase(backend);
    await migrate(context.database.db);
    await applyDemoSeed(context.database.db);
    context.api = createTestApi(context.database.db, { staffAccounts: provider.accounts });
    await applyUserSeed(context.database.db, [{ email: EVERYTHING, password: 'secret1', permissions: FULL }]);
  });
  afterAll(async () => {
    expect(context.api?.serverErrors ?? []).toEqual([]);
    await context.database?.dispose();
  });
  const api = () => context.api;
  const count = async (sql: string) => Number((await context.database.db.query<{ n: number }>(sql)).rows[0]?.n);
  /** Rows and audit entries of this section: a refused or invalid call changes none of them. */
  const footprint = async () => [
    await count("SELECT count(*)::int AS n FROM locations WHERE offering = 'lite'"),
    await count('SELECT count(*)::int AS n FROM users WHERE lite_officer'),
    await count('SELECT count(*)::int AS n FROM lite_officer_locations'),
    await count("SELECT count(*)::int AS n FROM audit_log WHERE action <> 'claim-identity'"),
  ];
  const addLocation = async (input: Partial<LiteLocationInput> = {}) => {
    const created = await api().postAs<LiteLocation>(SU, '/enforcement-lite/locations', { ...LITE, ...input });
    expect(created.status).toBe(200);
    return created.body.data!;
  };
  const addOfficer = async (email: string, locationIds: number[]) => {
    const created = await api().postAs<{ officer: LiteOfficer; setPasswordLink: string }>(SU, '/enforcement-lite/officers', {
      email,
      display_name: 'Lite Officer',
      location_ids: locationIds,
    });
    expect(created.status).toBe(200);
    return created.body.data!;
  };

  it('refuses every endpoint to non-superusers (everything else held, or an officer) and writes nothing', async () => {
    const location = await addLocation({ name: 'Refusal Lot' });
    const { officer } = await addOfficer('refusal.officer@example.com', [location.location_id]);
    const before = await footprint();
    const calls: [string, string, unknown?][] = [
      ['GET', '/enforcement-lite/locations'],
      ['GET', '/enforcement-lite/location-choices'],
      ['GET', `/enforcement-lite/locations/${location.location_id}`],
      ['GET', `/enforcement-lite/locations/${location.location_id}/history`],
      ['POST', '/enforcement-lite/locations', { ...LITE, name: 'Forged Lot' }],
      ['POST', `/enforcement-lite/locations/${location.location_id}`, { ...LITE, name: 'Forged', version: 1 }],
      ['GET', '/enforcement-lite/officers'],
      ['GET', `/enforcement-lite/officers/${officer.user_id}`],
      ['GET', `/enforcement-lite/officers/${officer.user_id}/history`],
      ['POST', '/enforcement-lite/officers', { email: 'forged@example.com', display_name: 'F', location_ids: [location.location_id] }],
      ['POST', `/enforcement-lite/officers/${officer.user_id}`, { display_name: 'F', location_ids: [1], status: 'active', version: 1 }],
    ];
    for (const email of [EVERYTHING, OFFICER, 'refusal.officer@example.com']) {
      for (const [method, path, body] of calls) {
        const result = method === 'GET' ? await api().getAs(email, path) : await api().postAs(email, path, body);
        expect(result.status, `${email} ${method} ${path}`).toBe(403);
      }
    }
    expect(await footprint()).toEqual(before);
    expect(provider.invited).not.toContain('forged@example.com');
    // The same reads succeed for a superuser (the writes' successes are the tests below).
    for (const [, path] of calls.filter(([method]) => method === 'GET')) {
      expect((await api().getAs(SU, path)).status, path).toBe(200);
    }
  });

  it('adds, lists, searches, pages and edits lite locations with History and 409; the full Locations section omits them', async () => {
    const location = await addLocation({ name: '  Alpha Lite Lot ', operator_name: ' Alpha Ops ' });
    expect(location).toMatchObject({ name: 'Alpha Lite Lot', operator_name: 'Alpha Ops', status: 'active', officer_count: 0, version: 1 });
    const row = await context.database.db.query<{ enforcement_enabled: boolean; offering: string }>(
      'SELECT enforcement_enabled, offering FROM locations WHERE location_id = $1',
      [location.location_id],
    );
    expect(row.rows[0]).toEqual({ enforcement_enabled: true, offering: 'lite' });
    await addLocation({ name: 'Beta Lite Lot', operator_name: 'Beta Ops', status: 'inactive' });

    const found = await api().getAs<Paged<LiteLocation>>(SU, '/enforcement-lite/locations?q=alpha%20ops');
    expect(found.body.data?.rows.map((r) => r.name)).toEqual(['Alpha Lite Lot']);
    const inactive = await api().getAs<Paged<LiteLocation>>(SU, '/enforcement-lite/locations?status=inactive');
    expect(inactive.body.data?.rows.map((r) => r.name)).toEqual(['Beta Lite Lot']);
    const paged = await api().getAs<Paged<LiteLocation>>(SU, '/enforcement-lite/locations?sort=name&dir=desc&pageSize=10&page=1');
    const names = paged.body.data!.rows.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    expect(paged.body.data!.total).toBe(await count("SELECT count(*)::int AS n FROM locations WHERE offering = 'lite'"));
    expect((await api().getAs(SU, '/enforcement-lite/locations?sort=colour')).status).toBe(400);

    const full = await api().getAs<Paged<{ location_id: number }>>(SU, '/locations?pageSize=100');
    expect(full.body.data?.rows.map((r) => r.location_id)).not.toContain(location.location_id);
    expect((await api().getAs(SU, `/locations/${location.location_id}`)).status).toBe(404);
    expect((await api().postAs(SU, `/locations/${location.location_id}/status`, { status: 'inactive', version: 1 })).status).toBe(404);
    expect((await api().getAs(SU, '/enforcement-lite/locations/1')).status).toBe(404);

    const saved = await api().postAs<LiteLocation>(SU, `/enforcement-lite/locations/${location.location_id}`, {
      ...LITE,
      name: 'Alpha Lite Lot',
      capacity: 41,
      status: 'inactive',
      version: 1,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ capacity: 41, status: 'inactive', version: 2 });
    const stale = await api().postAs<unknown>(SU, `/enforcement-lite/locations/${location.location_id}`, { ...LITE, version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ data: { currentVersion: 2, changedBy: { email: SU } } });
    const history = await api().getAs<AuditEntry[]>(SU, `/enforcement-lite/locations/${location.location_id}/history`);
    expect(history.body.data?.map((entry) => entry.action)).toEqual(['deactivate', 'create']);
    expect(history.body.data?.[0]?.changes).toContainEqual({ field: 'capacity', before: 40, after: 41 });
  });

  it.each([
    ['name', { name: '  ' }],
    ['operator_name', { operator_name: '' }],
    ['time_zone', { time_zone: 'Mars/Olympus' }],
    ['time_zone', { time_zone: undefined }],
    ['time_zone', { time_zone: '' }],
    ['capacity', { capacity: -1 }],
    ['grace_period_minutes', { grace_period_minutes: 1.5 }],
    ['status', { status: 'closed' }],
    ['enforcement_enabled', { enforcement_enabled: false }],
    ['name', { name: 'Pike Place Market Garage' }],
  ])('refuses a lite location with a bad %s (400 naming it, nothing written)', async (field, change) => {
    const before = await footprint();
    const result = await api().postAs<{ fieldErrors?: Record<string, string> }>(SU, '/enforcement-lite/locations', { ...LITE, name: 'Bad Lot', ...change });
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.body)).toContain(field);
    expect(await footprint()).toEqual(before);
  });

  it.each([
    ['email', { email: 'not-an-address' }],
    ['email', { email: 'admin@example.com' }],
    ['display_name', { display_name: ' ' }],
    ['location_ids', { location_ids: [] }],
    ['location_ids', { location_ids: [1] }],
    ['location_ids', { location_ids: [999999] }],
    ['role_id', { role_id: 1 }],
  ])('refuses an officer with a bad %s (400 naming it, no account, nothing written)', async (field, change) => {
    const valid = [(await addLocationOnce()).location_id];
    const before = await footprint();
    const invitedBefore = provider.invited.length;
    const result = await api().postAs(SU, '/enforcement-lite/officers', {
      email: 'bad.officer@example.com',
      display_name: 'Bad',
      location_ids: valid,
      ...change,
    });
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.body)).toContain(field);
    expect(await footprint()).toEqual(before);
    expect(provider.invited.length).toBe(invitedBefore);
  });
  let shared: LiteLocation | undefined;
  const addLocationOnce = async () => (shared ??= await addLocation({ name: 'Shared Lite Lot' }));

  it('gives an added officer exactly enforcement view at their lite locations, so the sync serves them', async () => {
    const first = await addLocation({ name: 'Officer Lot One' });
    const second = await addLocation({ name: 'Officer Lot Two' });
    const email = 'lite.officer@example.com';
    const added = await addOfficer(' Lite.Officer@Example.com ', [second.location_id, first.location_id, first.location_id]);
    expect(added.setPasswordLink).toContain('reset');
    expect(added.officer).toMatchObject({ email, location_ids: [first.location_id, second.location_id], status: 'active', linked: true });

    const signedIn = await api().signIn(email);
    expect(signedIn.permissions).toEqual({ su: false, e: { v: [first.location_id, second.location_id], a: [], e: [], d: [] } });
    const sync = (locationIds: number[]) =>
      api().postAs(email, '/enforcement/transactions', { type: 'valid', locationId: locationIds, limit: 100 });
    expect((await sync([first.location_id, second.location_id])).status).toBe(200);
    expect((await sync([1])).status).toBe(403);

    // Not in the Users section, which cannot give them a role either.
    const users = await api().getAs<Paged<{ email: string }>>(SU, '/users?pageSize=100');
    expect(users.body.data?.rows.map((row) => row.email)).not.toContain(email);
    const id = added.officer.user_id;
    expect((await api().getAs(SU, `/users/${id}`)).status).toBe(404);
    expect((await api().postAs(SU, `/users/${id}`, { display_name: 'X', role_id: 1, version: 1 })).status).toBe(404);

    // Listed, searched and filtered by location.
    const listed = await api().getAs<Paged<LiteOfficer>>(SU, `/enforcement-lite/officers?locationId=${second.location_id}&q=lite.officer`);
    expect(listed.body.data?.rows.map((row) => row.email)).toEqual([email]);
    expect(listed.body.data?.rows[0]?.location_names).toEqual(['Officer Lot One', 'Officer Lot Two']);

    // A location taken away is gone from the next call.
    const narrowed = await api().postAs<LiteOfficer>(SU, `/enforcement-lite/officers/${id}`, {
      display_name: 'Lite Officer',
      location_ids: [first.location_id],
      status: 'active',
      version: 1,
    });
    expect(narrowed.status).toBe(200);
    expect((await api().signIn(email)).permissions).toEqual({ su: false, e: { v: [first.location_id], a: [], e: [], d: [] } });
    expect((await sync([second.location_id])).status).toBe(403);

    // A deactivated lite location grants nothing.
    await api().postAs(SU, `/enforcement-lite/locations/${first.location_id}`, { ...LITE, name: 'Officer Lot One', status: 'inactive', version: 1 });
    expect((await api().signIn(email)).permissions).toEqual({ su: false });

    const stale = await api().postAs(SU, `/enforcement-lite/officers/${id}`, {
      display_name: 'Stale',
      location_ids: [second.location_id],
      status: 'active',
      version: 1,
    });
    expect(stale.status).toBe(409);

    // Disabled: the next call of a session opened before is refused outright.
    const { token } = await api().signIn(email);
    const disabled = await api().postAs<LiteOfficer>(SU, `/enforcement-lite/officers/${id}`, {
      display_name: 'Lite Officer',
      location_ids: [second.location_id],
      status: 'disabled',
      version: 2,
    });
    expect(disabled.body.data).toMatchObject({ status: 'disabled', version: 3 });
    const refused = await api().call('POST', '/enforcement/transactions', {
      idToken: idTokenFor(email),
      session: token,
      json: { type: 'valid', locationId: [second.location_id], limit: 100 },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(ACCOUNT_DISABLED);
    const history = await api().getAs<AuditEntry[]>(SU, `/enforcement-lite/officers/${id}/history`);
    expect(history.body.data?.filter((entry) => entry.action !== 'claim-identity').map((entry) => entry.action)).toEqual([
      'disable',
      'update',
      'invite',
    ]);
  });
});
