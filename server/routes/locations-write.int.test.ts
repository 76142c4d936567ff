import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { Location, LocationInput } from '../../src/contract/locations';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/** View at 2 and edit at 4 (edit implies add, spec §5, so this user may add locations too). */
const SCOPED = 'scoped.manager@example.com';
/** View at 2 only. */
const VIEWER = 'viewer@example.com';
/** May add locations (add at 5) and edit 5. */
const ADDER = 'adder@example.com';

const NEW_LOCATION: LocationInput = {
  name: 'Harbor Point Garage',
  address: '1 Harbor Point Blvd, Baltimore, MD 21231',
  time_zone: 'America/New_York',
  capacity: 320,
  status: 'active',
  enforcement_enabled: true,
  grace_period_minutes: 10,
};

describe.each(BACKENDS)('location changes on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  const db = () => context.database.db;
  const auditCount = async () =>
    Number((await db().query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE entity = 'location'")).rows[0]?.n);
  const locationCount = async () =>
    Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM locations')).rows[0]?.n);

  beforeAll(async () => {
    await applyUserSeed(db(), [
      { email: SCOPED, password: 'secret1', permissions: { lo: { v: [2], e: [4] } } },
      { email: ADDER, password: 'secret1', permissions: { lo: { a: [5], e: [5] } } },
      { email: VIEWER, password: 'secret1', permissions: { lo: { v: [2] } } },
    ]);
  });

  const location = async (id: number) => (await api().getAs<Location>('superuser@example.com', `/locations/${id}`)).body.data!;

  describe('POST /locations', () => {
    it('adds a location, audits it, and lets its creator see and edit it', async () => {
      const created = await api().postAs<Location>(ADDER, '/locations', { ...NEW_LOCATION, name: '  Harbor Point Garage ' });
      expect(created.status).toBe(200);
      expect(created.body.data).toMatchObject({ ...NEW_LOCATION, version: 1 });
      const id = created.body.data!.location_id;

      const history = await api().getAs<AuditEntry[]>(ADDER, `/locations/${id}/history`);
      expect(history.body.data).toHaveLength(1);
      expect(history.body.data?.[0]).toMatchObject({ action: 'create', actor: { email: ADDER } });
      expect(history.body.data?.[0]?.changes).toContainEqual({ field: 'name', before: null, after: 'Harbor Point Garage' });

      const listed = await api().getAs<Paged<Location>>(ADDER, '/locations?q=harbor');
      expect(listed.body.data?.rows.map((row) => row.location_id)).toEqual([id]);
      const edited = await api().postAs<Location>(ADDER, `/locations/${id}`, { ...NEW_LOCATION, capacity: 321, version: 1 });
      expect(edited.status).toBe(200);
    });

    it('refuses a second location with the same name (any case), naming the field', async () => {
      const before = await auditCount();
      const result = await api().postAs('admin@example.com', '/locations', { ...NEW_LOCATION, name: 'union station GARAGE' });
      expect(result.status).toBe(400);
      expect(result.body.data).toEqual({ fieldErrors: { name: expect.stringMatching(/already exists/) } });
      expect(await auditCount()).toBe(before);
    });

    it.each([VIEWER, 'finance@example.com', 'officer@example.com'])('refuses %s, who may not add', async (email) => {
      const before = await locationCount();
      const result = await api().postAs(email, '/locations', { ...NEW_LOCATION, name: `By ${email}` });
      expect(result.status).toBe(403);
      expect(await locationCount()).toBe(before);
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['a number for the name', { name: 42 }, 'name'],
      ['an empty name', { name: '   ' }, 'name'],
      ['a 1 MB name', { name: 'x'.repeat(1_000_000) }, 'name'],
      ['an unknown field', { owner: 'me' }, 'owner'],
      ['an invalid time zone', { time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
      ['a time zone with SQL in it', { time_zone: "UTC'; DROP TABLE locations; --" }, 'time_zone'],
      ['no time zone', { time_zone: undefined }, 'time_zone'],
      ['an empty time zone', { time_zone: '' }, 'time_zone'],
      ['a time zone in the wrong case', { time_zone: 'america/chicago' }, 'time_zone'],
      ['an abbreviation for a time zone', { time_zone: 'CST' }, 'time_zone'],
      ['negative spaces', { capacity: -1 }, 'capacity'],
      ['fractional spaces', { capacity: 1.5 }, 'capacity'],
      ['a grace period of two days', { grace_period_minutes: 2880 }, 'grace_period_minutes'],
      ['a string for enforcement', { enforcement_enabled: 'yes' }, 'enforcement_enabled'],
      ['an unknown status', { status: 'archived' }, 'status'],
      ['a missing address', { address: undefined }, 'address'],
    ];
    it.each(bad)('answers 400 naming the field for %s, and writes nothing', async (_case, change, field) => {
      const [locations, audits] = [await locationCount(), await auditCount()];
      const result = await api().postAs('superuser@example.com', '/locations', { ...NEW_LOCATION, name: 'Bad input', ...change });
      expect(result.status).toBe(400);
      expect(result.body.message).toContain(field);
      expect(Object.keys((result.body.data as { fieldErrors: object }).fieldErrors)).toContain(field);
      expect([await locationCount(), await auditCount()]).toEqual([locations, audits]);
    });

    // Issue 33: a new location has no default zone; the person chooses one, and a request without it is refused.
    it.each([
      ['a missing', undefined],
      ['an empty', ''],
    ])('refuses %s time zone, saying to choose one', async (_case, timeZone) => {
      const result = await api().postAs('superuser@example.com', '/locations', { ...NEW_LOCATION, name: 'No zone', time_zone: timeZone });
      expect(result.status).toBe(400);
      expect(result.body.data).toEqual({ fieldErrors: { time_zone: 'Choose the time zone of this location.' } });
    });

    it('keeps SQL in a name as text', async () => {
      const name = "Robert'); DROP TABLE locations; --";
      const result = await api().postAs<Location>('superuser@example.com', '/locations', { ...NEW_LOCATION, name });
      expect(result.status).toBe(200);
      expect((await location(result.body.data!.location_id)).name).toBe(name);
    });
  });

  describe('POST /locations/{id} (edit with a version)', () => {
    it('saves from the current version, moves the version on, and records the change', async () => {
      const current = await location(4);
      const { location_id: _id, version, updated_at: _at, ...fields } = current;
      const saved = await api().postAs<Location>(SCOPED, '/locations/4', { ...fields, grace_period_minutes: 12, version });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ grace_period_minutes: 12, version: version + 1 });
      const history = (await api().getAs<AuditEntry[]>(SCOPED, '/locations/4/history')).body.data!;
      expect(history[0]).toMatchObject({
        action: 'update',
        actor: { email: SCOPED },
        changes: [{ field: 'grace_period_minutes', before: current.grace_period_minutes, after: 12 }],
      });
    });

    it('refuses an edit from an old version with who changed it and when, and changes nothing', async () => {
      const current = await location(4);
      const { location_id: _id, version, updated_at: _at, ...fields } = current;
      await api().postAs(SCOPED, '/locations/4', { ...fields, capacity: 700, version });
      const audits = await auditCount();
      const stale = await api().postAs(SCOPED, '/locations/4', { ...fields, capacity: 1, version });
      expect(stale.status).toBe(409);
      expect(stale.body.message).toMatch(/changed by .* at \d{4}-\d{2}-\d{2}T/);
      expect(stale.body.data).toEqual({
        currentVersion: version + 1,
        changedAt: expect.any(String),
        changedBy: { email: SCOPED, name: null },
      });
      expect((await location(4)).capacity).toBe(700);
      expect(await auditCount()).toBe(audits);
    });

    it('refuses a user with view only there, even with a forged request', async () => {
      const current = await location(2);
      const { location_id: _id, updated_at: _at, ...fields } = current;
      const result = await api().postAs(SCOPED, '/locations/2', { ...fields, name: 'Mine now' });
      expect(result.status).toBe(403);
      expect((await location(2)).name).toBe(current.name);
    });

    it('answers 404 for a location that does not exist', async () => {
      const { location_id: _id, updated_at: _at, ...fields } = await location(1);
      expect((await api().postAs('superuser@example.com', '/locations/4242', fields)).status).toBe(404);
    });

    it('needs the version', async () => {
      const { location_id: _id, updated_at: _at, version: _version, ...fields } = await location(1);
      const result = await api().postAs('superuser@example.com', '/locations/1', fields);
      expect(result.status).toBe(400);
      expect(result.body.message).toContain('version');
    });
  });

  describe('deactivate and delete', () => {
    it('deactivates and activates with confirmation of the version, each audited', async () => {
      const { version } = await location(5);
      const off = await api().postAs<Location>(ADDER, '/locations/5/status', { status: 'inactive', version });
      expect(off.body.data).toMatchObject({ status: 'inactive', version: version + 1 });
      const on = await api().postAs<Location>(ADDER, '/locations/5/status', { status: 'active', version: version + 1 });
      expect(on.body.data?.status).toBe('active');
      const actions = (await api().getAs<AuditEntry[]>(ADDER, '/locations/5/history')).body.data!.map((entry) => entry.action);
      expect(actions.slice(0, 2)).toEqual(['activate', 'deactivate']);
    });

    it('refuses to delete a location with records, and deletes one without', async () => {
      await db().query(
        `INSERT INTO transactions (location_id, license_plate, expiry_date_time, payment_time, payment_amount)
         VALUES (6, 'DEL123', now(), now(), 5)`,
      );
      const six = await location(6);
      const refused = await api().postAs('superuser@example.com', '/locations/6/delete', { version: six.version });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/deactivate it instead/);

      const created = await api().postAs<Location>('superuser@example.com', '/locations', { ...NEW_LOCATION, name: 'Short-lived Lot' });
      const id = created.body.data!.location_id;
      expect((await api().postAs(ADDER, `/locations/${id}/delete`, { version: 1 })).status).toBe(403);
      const deleted = await api().postAs('superuser@example.com', `/locations/${id}/delete`, { version: 1 });
      expect(deleted.body).toEqual({ success: true, data: { deleted: true } });
      expect((await api().getAs('superuser@example.com', `/locations/${id}`)).status).toBe(404);
      const history = (await api().getAs<AuditEntry[]>('superuser@example.com', `/locations/${id}/history`)).body.data!;
      expect(history[0]?.action).toBe('delete');
    });
  });

  describe('GET /locations: filters, sort, paging, CSV', () => {
    it('filters by status and text, sorts and pages on the server', async () => {
      const inactive = await api().getAs<Paged<Location>>('admin@example.com', '/locations?status=inactive');
      expect(inactive.body.data?.rows.every((row) => row.status === 'inactive')).toBe(true);
      const chicago = await api().getAs<Paged<Location>>('admin@example.com', '/locations?q=chicago&sort=capacity&dir=desc');
      expect(chicago.body.data?.rows.map((row) => row.location_id)).toEqual([1, 2]);
      const page2 = await api().getAs<Paged<Location>>('admin@example.com', '/locations?sort=capacity&pageSize=10&page=2');
      expect(page2.body.data).toMatchObject({ page: 2, pageSize: 10 });
      const all = await api().getAs<Paged<Location>>('admin@example.com', '/locations?sort=capacity&pageSize=100');
      expect(page2.body.data?.rows).toEqual(all.body.data?.rows.slice(10, 20));
      const capacities = all.body.data!.rows.map((row) => row.capacity);
      expect(capacities).toEqual([...capacities].sort((a, b) => a - b));
    });

    it.each(['pageSize=7', 'page=0', 'page=abc', 'sort=password', 'dir=up', 'status=deleted', `q=${'x'.repeat(101)}`, 'page=401'])(
      'answers 400 for %s',
      async (query) => {
        const result = await api().getAs('admin@example.com', `/locations?${query}`);
        expect(result.status).toBe(400);
        expect(result.body.message).toMatch(/page|sort|dir|status|q/);
      },
    );

    it('treats % and _ in the search as text', async () => {
      const result = await api().getAs<Paged<Location>>('admin@example.com', '/locations?q=%25');
      expect(result.body.data?.total).toBe(0);
    });

    it('exports exactly the filtered rows as CSV, only of the user’s locations', async () => {
      const { token } = await api().signIn(SCOPED);
      const response = await api().app.request('/locations/export?sort=name', {
        headers: { Authorization: `Bearer ${idTokenFor(SCOPED)}`, JwtToken: token },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="locations-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = (await response.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      expect(lines[0]).toBe('Location ID,Name,Address,Time zone,Spaces,Status,Enforcement,Grace period (min)');
      // Back Bay Center Garage (4) sorts before Navy Pier East Lot (2).
      expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['4', '2']);
    });
  });
});
