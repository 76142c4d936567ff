import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Citation } from '../../src/contract/citations';
import type { AuditEntry } from '../../src/contract/lists';
import type { Location } from '../../src/contract/locations';
import { DEFAULT_VIOLATIONS, type CitationViolations, type LocationViolation } from '../../src/contract/violations';
import { loadMigrations, migrate } from '../db/migrate';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { idTokenFor, type CallResult } from '../testing/test-api';
import { BACKENDS, openTestDatabase } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Violations per location (issue 38; decision 0097) on both engines: the office's list and its changes × who may and
 * may not × bad input, the lists the officer's device downloads, and the check a citation's violation passes. No
 * answer is a 5xx (useSeededApi fails the block on any) and every refusal leaves the tables as they were.
 */
const OFFICER = 'officer@example.com';
/** Location edit at Union Station (1) only. */
const MANAGER = 'locations.manager@example.com';
/** Location view at 1 only. */
const LOOKER = 'locations.viewer@example.com';
const FINANCE = 'finance@example.com';
const SUPERUSER = 'superuser@example.com';

describe.each(BACKENDS)('violations per location on %s', (backend) => {
  const context = useSeededApi(backend);
  const db = () => context.database.db;
  const sessions = new Map<string, string>();

  beforeAll(async () => {
    await applyUserSeed(db(), [
      { email: MANAGER, password: 'secret1', permissions: { lo: { e: [1] } } },
      { email: LOOKER, password: 'secret1', permissions: { lo: { v: [1] } } },
    ]);
  });

  async function call<T>(email: string | null, method: 'GET' | 'POST', path: string, json?: unknown): Promise<CallResult<T>> {
    if (email === null) return context.api.call<T>(method, path, json === undefined ? {} : { json });
    let token = sessions.get(email);
    if (!token) {
      token = (await context.api.signIn(email)).token;
      sessions.set(email, token);
    }
    return context.api.call<T>(method, path, { idToken: idTokenFor(email), session: token, ...(json === undefined ? {} : { json }) });
  }
  const list = async (locationId: number) => (await call<LocationViolation[]>(SUPERUSER, 'GET', `/locations/${locationId}/violations`)).body.data!;
  const tally = async () => {
    const { rows } = await db().query<{ violations: string; audits: number; citations: number }>(
      `SELECT (SELECT json_agg(v ORDER BY location_id, code)::text FROM location_violations v) AS violations,
              (SELECT count(*)::int FROM audit_log WHERE entity = 'location') AS audits,
              (SELECT count(*)::int FROM citations) AS citations`,
    );
    return rows[0]!;
  };
  async function unchanged<T>(refusal: () => Promise<T>): Promise<T> {
    const before = await tally();
    const result = await refusal();
    expect(await tally()).toEqual(before);
    return result;
  }
  const citation = (overrides: Record<string, unknown> = {}) => ({
    citation_id: randomUUID(),
    location_id: 2,
    license_plate: 'VIO123',
    issued_at: '2026-03-02T14:55:00Z',
    violation: 'no_payment',
    fine_cents: 5000,
    notes: '',
    verdict: { headline: 'NO RECORD', detail: '' },
    ...overrides,
  });

  it('gives every location the defaults, the same as the console ships', async () => {
    const { rows } = await db().query('SELECT code, label, fine_cents FROM default_violations ORDER BY position');
    expect(rows).toEqual(DEFAULT_VIOLATIONS);
    const union = await list(1);
    expect(union.map(({ code, label, fine_cents }) => ({ code, label, fine_cents }))).toEqual(DEFAULT_VIOLATIONS);
    expect(union.every((violation) => violation.active && !violation.in_use && violation.version === 1)).toBe(true);
    // A location added later starts with them too.
    const added = await call<Location>(SUPERUSER, 'POST', '/locations', {
      name: 'Violations Test Garage',
      address: '1 Test St',
      time_zone: 'America/Chicago',
      capacity: 10,
      status: 'active',
      enforcement_enabled: true,
      grace_period_minutes: 5,
    });
    expect(added.status).toBe(200);
    expect((await list(added.body.data!.location_id)).map((violation) => violation.code)).toEqual(DEFAULT_VIOLATIONS.map((violation) => violation.code));
  });

  it.each([
    ['someone without Locations', FINANCE, 1, 403],
    ['a location viewer elsewhere', LOOKER, 2, 403],
    ['without a sign-in', null, 1, 401],
  ])('refuses the list to %s', async (_who, email, locationId, status) => {
    expect((await call(email, 'GET', `/locations/${locationId}/violations`)).status).toBe(status);
  });

  it('shows the list to a location viewer; 404 for a location that does not exist, 400 for a bad id', async () => {
    expect((await call<LocationViolation[]>(LOOKER, 'GET', '/locations/1/violations')).body.data).toHaveLength(DEFAULT_VIOLATIONS.length);
    expect((await call(SUPERUSER, 'GET', '/locations/999/violations')).status).toBe(404);
    expect((await call(SUPERUSER, 'GET', '/locations/01/violations')).status).toBe(400);
  });

  it('adds, relabels, changes the fine and deactivates, each on the location’s History', async () => {
    const added = await call<LocationViolation>(MANAGER, 'POST', '/locations/1/violations', { label: '  Blocking a  driveway ', fine_cents: 6000 });
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ code: 'blocking_a_driveway', label: 'Blocking a driveway', fine_cents: 6000, position: 8, active: true, in_use: false, version: 1 });
    const changed = await call<LocationViolation>(MANAGER, 'POST', '/locations/1/violations/blocking_a_driveway', {
      label: 'Blocking a driveway or gate',
      fine_cents: 6500,
      active: true,
      version: 1,
    });
    expect(changed.body.data).toMatchObject({ label: 'Blocking a driveway or gate', fine_cents: 6500, version: 2 });
    const off = await call<LocationViolation>(MANAGER, 'POST', '/locations/1/violations/blocking_a_driveway', {
      label: 'Blocking a driveway or gate',
      fine_cents: 6500,
      active: false,
      version: 2,
    });
    expect(off.body.data).toMatchObject({ active: false, version: 3 });
    // Saving what it is already changes nothing, and writes no History.
    await unchanged(async () =>
      expect((await call(MANAGER, 'POST', '/locations/1/violations/blocking_a_driveway', { label: 'Blocking a driveway or gate', fine_cents: 6500, active: false, version: 3 })).status).toBe(200),
    );
    // The same name again is a new violation with a code of its own: old citations keep meaning what they meant.
    const again = await call<LocationViolation>(MANAGER, 'POST', '/locations/1/violations', { label: 'Blocking a driveway', fine_cents: 6000 });
    expect(again.body.data).toMatchObject({ code: 'blocking_a_driveway_2', position: 9 });
    const history = (await call<AuditEntry[]>(MANAGER, 'GET', '/locations/1/history')).body.data!;
    expect(history.slice(0, 4).map((entry) => [entry.action, entry.changes])).toEqual([
      ['violation added', [{ field: 'violation', before: null, after: 'Blocking a driveway · $60.00' }]],
      ['violation changed', [{ field: 'violation', before: 'Blocking a driveway or gate · $65.00', after: 'Blocking a driveway or gate · $65.00 (inactive)' }]],
      ['violation changed', [{ field: 'violation', before: 'Blocking a driveway · $60.00', after: 'Blocking a driveway or gate · $65.00' }]],
      ['violation added', [{ field: 'violation', before: null, after: 'Blocking a driveway · $60.00' }]],
    ]);
    // Only at location 1: location 2's list is as it was.
    expect(await list(2)).toHaveLength(DEFAULT_VIOLATIONS.length);
  });

  it.each([
    ['a location viewer', LOOKER, 1, 403],
    ['a manager of another location', MANAGER, 2, 403],
    ['an officer', OFFICER, 1, 403],
    ['without a sign-in', null, 1, 401],
  ])('refuses changes by %s, writing nothing', async (_who, email, locationId, status) => {
    await unchanged(async () => {
      expect((await call(email, 'POST', `/locations/${locationId}/violations`, { label: 'Towing zone', fine_cents: 1000 })).status).toBe(status);
      expect((await call(email, 'POST', `/locations/${locationId}/violations/expired`, { label: 'Expired', fine_cents: 1, active: true, version: 1 })).status).toBe(status);
    });
  });

  const badNew: [string, unknown, string][] = [
    ['no label', { label: '  ', fine_cents: 100 }, 'label'],
    ['a label too long', { label: 'x'.repeat(81), fine_cents: 100 }, 'label'],
    ['a negative fine', { label: 'Towing zone', fine_cents: -1 }, 'fine_cents'],
    ['a fine with a fraction of a cent', { label: 'Towing zone', fine_cents: 10.5 }, 'fine_cents'],
    ['a fine over $1,000', { label: 'Towing zone', fine_cents: 100_001 }, 'fine_cents'],
    ['a fine as text', { label: 'Towing zone', fine_cents: '10' }, 'fine_cents'],
    ['an unknown field', { label: 'Towing zone', fine_cents: 100, code: 'mine' }, 'code'],
    ['the label of an active violation', { label: 'no PAYMENT', fine_cents: 100 }, 'label'],
    ['not an object', [], ''],
  ];
  it.each(badNew)('refuses a new violation with %s: 400, nothing written', async (_case, body, field) => {
    const answer = await unchanged(() => call(MANAGER, 'POST', '/locations/1/violations', body));
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(field);
  });

  it('refuses bad changes: 400, 404 or 409, nothing written', async () => {
    const change = { label: 'Payment expired', fine_cents: 3500, active: true, version: 1 };
    await unchanged(async () => {
      expect((await call(MANAGER, 'POST', '/locations/1/violations/Expired', change)).status).toBe(400);
      expect((await call(MANAGER, 'POST', '/locations/1/violations/speeding', change)).status).toBe(404);
      expect((await call(SUPERUSER, 'POST', '/locations/999/violations/expired', change)).status).toBe(404);
      expect((await call(SUPERUSER, 'POST', '/locations/999/violations', { label: 'Towing zone', fine_cents: 100 })).status).toBe(404);
      expect((await call(MANAGER, 'POST', '/locations/1/violations/expired', { ...change, version: 7 })).status).toBe(409);
      expect((await call(MANAGER, 'POST', '/locations/1/violations/expired', { ...change, active: 'yes' })).status).toBe(400);
      expect((await call(MANAGER, 'POST', '/locations/1/violations/expired', { ...change, label: 'No payment' })).status).toBe(400);
    });
  });

  it('gives the officer’s device the active lists of the locations where they write citations', async () => {
    await db().query("UPDATE location_violations SET active = false WHERE location_id = 2 AND code = 'two_spaces'");
    const answer = await call<CitationViolations>(OFFICER, 'GET', '/citation-violations');
    expect(answer.status).toBe(200);
    const lists = answer.body.data!.locations;
    expect(lists.map((location) => location.location_id)).toEqual([1, 2]);
    expect(lists[1]!.violations.map((violation) => violation.code)).not.toContain('two_spaces');
    expect(lists[0]!.violations.at(-1)).toEqual({ code: 'blocking_a_driveway_2', label: 'Blocking a driveway', fine_cents: 6000 });
    expect((await call(FINANCE, 'GET', '/citation-violations')).status).toBe(403);
    expect((await call(null, 'GET', '/citation-violations')).status).toBe(401);
  });

  it('accepts a citation’s violation only from its location’s list, and keeps the label it had when it arrived', async () => {
    // Location 1's own violation is not on location 2's list.
    const elsewhere = await unchanged(() => call(OFFICER, 'POST', '/citations', citation({ violation: 'blocking_a_driveway_2' })));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message ?? JSON.stringify(elsewhere.body)).toContain('not on the list of violations of location 2');
    // A deactivated one is still accepted: the device may have downloaded the list before the change.
    expect((await call(OFFICER, 'POST', '/citations', citation({ violation: 'two_spaces' }))).status).toBe(200);
    const written = await call<Citation>(OFFICER, 'POST', '/citations', citation({ location_id: 1, violation: 'blocking_a_driveway_2' }));
    expect(written.body.data).toMatchObject({ violation: 'blocking_a_driveway_2', violation_label: 'Blocking a driveway' });
    const relabel = { label: 'Driveway blocked', fine_cents: 6000, active: true, version: 1 };
    expect((await call(MANAGER, 'POST', '/locations/1/violations/blocking_a_driveway_2', relabel)).status).toBe(200);
    const id = written.body.data!.citation_id;
    expect((await call<Citation>(SUPERUSER, 'GET', `/citations/${id}`)).body.data!.violation_label).toBe('Blocking a driveway');
    const token = (await context.api.signIn(SUPERUSER)).token;
    const csv = await context.api.app.request('/citations/export?locationId=1', { headers: { Authorization: `Bearer ${idTokenFor(SUPERUSER)}`, JwtToken: token } });
    const rows = parse((await csv.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(rows.find((row) => row['Citation ID'] === id)?.Violation).toBe('Blocking a driveway');
    // Used now: it says so, and it stays on the list.
    expect((await list(1)).find((violation) => violation.code === 'blocking_a_driveway_2')).toMatchObject({ in_use: true, label: 'Driveway blocked' });
  });
});

describe('migration 025 on a database with locations and citations', () => {
  it('gives the existing locations the defaults and the existing citations their labels', async () => {
    const database = await openTestDatabase('pglite');
    try {
      const migrations = await loadMigrations();
      const before025 = migrations.filter((migration) => migration.name < '025');
      await migrate(database.db, before025);
      await database.db.exec(`
        INSERT INTO locations (location_id, name, address, time_zone) VALUES (41, 'Old Garage', '1 Old St', 'America/Chicago');
        INSERT INTO users (user_id, email) VALUES (41, 'old.officer@example.com');
        INSERT INTO citations (citation_id, location_id, officer_user_id, license_plate, issued_at, violation, fine_cents, verdict_headline, request_hash)
        VALUES ('00000000-0000-4000-8000-000000000041', 41, 41, 'OLD1', now(), 'fire_lane', 15000, 'NO RECORD', 'x');`);
      await migrate(database.db, migrations);
      const { rows } = await database.db.query<{ violation_label: string; n: number }>(
        `SELECT c.violation_label, (SELECT count(*)::int FROM location_violations WHERE location_id = 41) AS n FROM citations c`,
      );
      expect(rows).toEqual([{ violation_label: 'Fire lane or no-parking zone', n: DEFAULT_VIOLATIONS.length }]);
    } finally {
      await database.dispose();
    }
  });
});
