import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { RateChange, RateChangeDetail, RateLocation } from '../../src/contract/rates';
import type { RateSet } from '../../src/rates/rate-set';
import { validate } from '../../src/rates/validate';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { seedDemoRates } from '../db/seed/demo-rates';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { addNamedLocations } from '../testing/named-locations';
import { useSeededApi } from '../testing/seeded-api';

/** Rate settings edit at 1, view at 2. */
const EDITOR = 'rates.editor@example.com';
/** Rate settings view at 1 only. */
const VIEWER = 'rates.viewer@example.com';
const SUPERUSER = 'superuser@example.com';
const NO_ACCESS = 'noaccess@example.com';

const START = new Date('2026-03-02T15:00:00Z');
const allDay = (priceCents: number): RateSet => ({
  bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment' as const, priceCents })),
  dailyMaxCents: 5_000,
  maxStayMinutes: null,
  events: [],
});
const withGap: RateSet = {
  ...allDay(300),
  bands: [
    ...allDay(300).bands.filter((band) => band.day !== 1),
    { day: 1, startMinute: 0, endMinute: 720, pricing: 'per_increment', priceCents: 300 },
    { day: 1, startMinute: 780, endMinute: 1440, pricing: 'per_increment', priceCents: -1 },
  ],
};

describe.each(BACKENDS)('rates on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  const db = () => context.database.db;
  const count = async (sql: string) => Number((await db().query<{ n: number }>(sql)).rows[0]?.n);
  const rateRows = () => count('SELECT count(*)::int AS n FROM rate_sets');
  const rateAudits = () => count("SELECT count(*)::int AS n FROM audit_log WHERE entity = 'rates'");
  const rates = async (locationId: number) =>
    (await api().getAs<RateLocation>(SUPERUSER, `/rates/locations/${locationId}`)).body.data!;

  beforeAll(async () => {
    await seedDemoRates(db());
    await applyUserSeed(db(), [
      { email: EDITOR, password: 'secret1', permissions: { rs: { v: [2], e: [1] } } },
      { email: VIEWER, password: 'secret1', permissions: { rs: { v: [1] } } },
    ]);
  });

  it('lists the locations each persona may see rates of', async () => {
    const ids = async (email: string) => (await api().getAs<{ location_id: number }[]>(email, '/rates/locations')).body.data?.map((row) => row.location_id).sort();
    expect(await ids(SUPERUSER)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await ids(EDITOR)).toEqual([1, 2]);
    expect(await ids(VIEWER)).toEqual([1]);
    expect((await api().getAs(NO_ACCESS, '/rates/locations')).status).toBe(403);
  });

  // Issue 33: Enforcement Lite's locations are not priced here, and names sort as people read them.
  it('offers only full-offering locations, "Union …" before "UX …"; a lite one is not found', async () => {
    const added = await addNamedLocations(db(), [
      { name: 'UX Ratetest Lot', offering: 'full' },
      { name: 'Union Ratetest Garage', offering: 'full' },
      { name: 'Alpha Ratetest Lite', offering: 'lite' },
    ]);
    try {
      const choices = (await api().getAs<{ name: string }[]>(SUPERUSER, '/rates/locations')).body.data!.map((row) => row.name);
      expect(choices.filter((name) => name.includes('Ratetest'))).toEqual(['Union Ratetest Garage', 'UX Ratetest Lot']);
      expect((await api().getAs(SUPERUSER, `/rates/locations/${added.ids.get('Alpha Ratetest Lite')}`)).status).toBe(404);
    } finally {
      await added.remove();
    }
  });

  it("shows a location's configuration and the seeded set in force, to those allowed there", async () => {
    api().clock.now = START;
    const seen = await api().getAs<RateLocation>(VIEWER, '/rates/locations/1');
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ location_id: 1, time_zone: 'America/Chicago', config: { incrementMinutes: 15 }, config_version: 1 });
    expect(seen.body.data?.current?.status).toBe('applied');
    expect(validate(seen.body.data!.current!.rate_set)).toEqual([]);
    expect((await api().getAs(VIEWER, '/rates/locations/3')).status).toBe(403);
    expect((await api().getAs(EDITOR, '/rates/locations/2')).status).toBe(200);
    expect((await api().getAs(NO_ACCESS, '/rates/locations/1')).status).toBe(403);
    expect((await api().getAs(SUPERUSER, '/rates/locations/999')).status).toBe(404);
    expect((await api().getAs(SUPERUSER, '/rates/locations/01')).status).toBe(400);
  });

  it('refuses a rate set that fails validate with the same messages, writing nothing', async () => {
    api().clock.now = START;
    const [rows, audits] = [await rateRows(), await rateAudits()];
    const refused = await api().postAs(EDITOR, '/rates/locations/1/changes', {
      rate_set: withGap,
      effective_at: '2026-03-03T06:00:00Z',
      reason: 'New weekday prices',
      schedule_version: (await rates(1)).schedule_version,
    });
    expect(refused.status).toBe(400);
    const fieldErrors = (refused.body.data as { fieldErrors: Record<string, string> }).fieldErrors;
    const messages = validate(withGap).map((problem) => problem.message);
    expect(messages).toContain('Tuesday 12:00–13:00: no band covers this time.');
    expect(Object.values(fieldErrors).join(' ')).toBe(messages.join(' '));
    expect(Object.keys(fieldErrors).every((key) => key.startsWith('rate_set.bands.'))).toBe(true);
    // A shape the contract refuses, a time in the past, and a missing reason are 400s naming the field.
    const bad = [
      [{ rate_set: { ...allDay(1), bands: 'all' } }, 'rate_set'],
      [{ effective_at: '2026-03-01T06:00:00Z' }, 'effective_at'],
      [{ effective_at: 'tomorrow' }, 'effective_at'],
      [{ reason: '  ' }, 'reason'],
      [{ extra: true }, 'extra'],
    ] as const;
    for (const [change, field] of bad) {
      const result = await api().postAs(EDITOR, '/rates/locations/1/changes', {
        rate_set: allDay(100), effective_at: '2026-03-03T06:00:00Z', reason: 'x', schedule_version: 0, ...change,
      });
      expect(result.status, field).toBe(400);
      expect(result.body.message, field).toContain(field);
    }
    expect([await rateRows(), await rateAudits()]).toEqual([rows, audits]);
  });

  it('schedules a change that takes effect at its moment, with no job running', async () => {
    api().clock.now = START;
    const before = await rates(1);
    const effectiveAt = '2026-03-03T12:00:00.000Z';
    const scheduled = await api().postAs<RateChangeDetail>(EDITOR, '/rates/locations/1/changes', {
      rate_set: allDay(400),
      effective_at: effectiveAt,
      reason: 'Spring prices',
      schedule_version: before.schedule_version,
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled', effective_at: effectiveAt, created_by: { email: EDITOR } });
    const id = scheduled.body.data!.rate_set_id;

    const now = await rates(1);
    expect(now.current?.rate_set_id).toBe(before.current?.rate_set_id);
    expect(now.next?.rate_set_id).toBe(id);
    expect(now.schedule_version).toBe(before.schedule_version + 1);
    const listed = await api().getAs<Paged<RateChange>>(VIEWER, '/rates/changes?status=scheduled');
    expect(listed.body.data?.rows.map((row) => row.rate_set_id)).toEqual([id]);

    api().clock.now = new Date('2026-03-03T11:59:59Z');
    expect((await rates(1)).current?.rate_set_id).toBe(before.current?.rate_set_id);
    api().clock.now = new Date(effectiveAt);
    const after = await rates(1);
    expect(after.current).toMatchObject({ rate_set_id: id, status: 'applied', rate_set: allDay(400) });
    expect(after.next).toBeNull();
    // Once applied it can no longer be cancelled.
    const late = await api().postAs(EDITOR, `/rates/changes/${id}/cancel`, { schedule_version: after.schedule_version });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('applied');

    const history = await api().getAs<AuditEntry[]>(VIEWER, '/rates/locations/1/history');
    expect(history.body.data?.[0]).toMatchObject({ action: 'schedule', actor: { email: EDITOR } });
  });

  it('answers 409 with who and when to an editor working from an older schedule', async () => {
    api().clock.now = START;
    const stale = (await rates(1)).schedule_version;
    const first = await api().postAs(SUPERUSER, '/rates/locations/1/changes', {
      rate_set: allDay(500), effective_at: '2026-04-01T06:00:00Z', reason: 'April', schedule_version: stale,
    });
    expect(first.status).toBe(200);
    const rows = await rateRows();
    const second = await api().postAs(EDITOR, '/rates/locations/1/changes', {
      rate_set: allDay(600), effective_at: '2026-04-02T06:00:00Z', reason: 'Also April', schedule_version: stale,
    });
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('changed by');
    expect(second.body.data).toMatchObject({ currentVersion: stale + 1, changedBy: { email: SUPERUSER } });
    expect(await rateRows()).toBe(rows);
  });

  it('lets only an editor at its location cancel a scheduled change, and refuses forged saves', async () => {
    api().clock.now = START;
    const version = (await rates(1)).schedule_version;
    const created = await api().postAs<RateChangeDetail>(EDITOR, '/rates/locations/1/changes', {
      rate_set: allDay(700), effective_at: '2026-05-01T06:00:00Z', reason: 'May', schedule_version: version,
    });
    const id = created.body.data!.rate_set_id;
    const [rows, audits] = [await rateRows(), await rateAudits()];
    const forged = { rate_set: allDay(1), effective_at: '2026-05-01T06:00:00Z', reason: 'forged', schedule_version: version + 1 };
    expect((await api().postAs(VIEWER, '/rates/locations/1/changes', forged)).status).toBe(403);
    expect((await api().postAs(EDITOR, '/rates/locations/2/changes', forged)).status).toBe(403);
    expect((await api().postAs(EDITOR, '/rates/locations/3/changes', forged)).status).toBe(403);
    expect((await api().postAs(NO_ACCESS, '/rates/locations/1/changes', forged)).status).toBe(403);
    expect((await api().postAs(VIEWER, `/rates/changes/${id}/cancel`, { schedule_version: version + 1 })).status).toBe(403);
    expect([await rateRows(), await rateAudits()]).toEqual([rows, audits]);

    const cancelled = await api().postAs<RateChangeDetail>(EDITOR, `/rates/changes/${id}/cancel`, { schedule_version: version + 1 });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelled_by: { email: EDITOR } });
    api().clock.now = new Date('2026-05-02T00:00:00Z');
    expect((await rates(1)).current?.rate_set_id).not.toBe(id);
    expect((await api().getAs<Paged<RateChange>>(VIEWER, `/rates/changes?status=cancelled`)).body.data?.rows.map((row) => row.rate_set_id)).toContain(id);
  });

  it('hides changes outside the user’s locations: list, detail and cancel alike', async () => {
    api().clock.now = START;
    const other = await api().postAs<RateChangeDetail>(SUPERUSER, '/rates/locations/3/changes', {
      rate_set: allDay(800), effective_at: '2026-06-01T06:00:00Z', reason: 'Seattle', schedule_version: (await rates(3)).schedule_version,
    });
    const id = other.body.data!.rate_set_id;
    const viewerRows = (await api().getAs<Paged<RateChange>>(VIEWER, '/rates/changes?pageSize=100')).body.data!.rows;
    expect(viewerRows.length).toBeGreaterThan(0);
    expect(viewerRows.every((row) => row.location_id === 1)).toBe(true);
    expect((await api().getAs(VIEWER, `/rates/changes/${id}`)).status).toBe(404);
    expect((await api().postAs(EDITOR, `/rates/changes/${id}/cancel`, { schedule_version: 1 })).status).toBe(404);
    expect((await api().getAs(SUPERUSER, `/rates/changes/${id}`)).status).toBe(200);
    expect((await api().getAs(NO_ACCESS, '/rates/changes')).status).toBe(403);
    expect((await api().getAs(SUPERUSER, '/rates/changes?status=soon')).status).toBe(400);
    const byLocation = (await api().getAs<Paged<RateChange>>(SUPERUSER, '/rates/changes?locationId=3&sort=effective_at&dir=asc')).body.data!.rows;
    expect(byLocation.map((row) => row.location_id).every((location) => location === 3)).toBe(true);
    expect(byLocation.map((row) => row.effective_at)).toEqual([...byLocation.map((row) => row.effective_at)].sort());
  });

  it('exports the filtered changes as CSV a standard parser reads back', async () => {
    api().clock.now = START;
    const { token } = await api().signIn(VIEWER);
    const response = await api().app.request('/rates/changes/export?sort=effective_at&dir=asc', {
      headers: { Authorization: `Bearer ${idTokenFor(VIEWER)}`, JwtToken: token },
    });
    expect(response.status).toBe(200);
    const records: string[][] = parse((await response.text()).replace(/^\uFEFF/, ''));
    const listed = (await api().getAs<Paged<RateChange>>(VIEWER, '/rates/changes?sort=effective_at&dir=asc&pageSize=100')).body.data!.rows;
    expect(records[0]?.[0]).toBe('Change ID');
    expect(records.slice(1).map((record) => [Number(record[0]), record[5]])).toEqual(listed.map((row) => [row.rate_set_id, row.status]));
  });

  it('saves the configuration with its version check, audited', async () => {
    const current = await rates(1);
    const edit = { ...current.config, incrementMinutes: 30, taxBasisPoints: 1000, version: current.config_version };
    expect((await api().postAs(VIEWER, '/rates/locations/1/config', edit)).status).toBe(403);
    expect((await api().postAs(EDITOR, '/rates/locations/1/config', { ...edit, incrementMinutes: 7 })).body.message).toContain('incrementMinutes');
    const saved = await api().postAs<RateLocation>(EDITOR, '/rates/locations/1/config', edit);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ config: { incrementMinutes: 30, taxBasisPoints: 1000 }, config_version: current.config_version + 1 });
    const stale = await api().postAs(SUPERUSER, '/rates/locations/1/config', edit);
    expect(stale.status).toBe(409);
    expect(stale.body.data).toMatchObject({ changedBy: { email: EDITOR } });
    const history = await api().getAs<AuditEntry[]>(EDITOR, '/rates/locations/1/history');
    expect(history.body.data?.[0]).toMatchObject({ action: 'configure' });
    expect(history.body.data?.[0]?.changes).toContainEqual({ field: 'incrementMinutes', before: 15, after: 30 });
    // A location never configured answers with the defaults at version 0, and its first save starts from 0.
    await db().query('DELETE FROM rate_configs WHERE location_id = 4');
    const fresh = await rates(4);
    expect(fresh.config_version).toBe(0);
    expect((await api().postAs(SUPERUSER, '/rates/locations/4/config', { ...fresh.config, version: 0 })).status).toBe(200);
  });
});
