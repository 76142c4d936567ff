import { describe, expect, it, vi } from 'vitest';
import type { Paged } from '../../src/contract/lists';
import type { RateChange, RateLocation } from '../../src/contract/rates';
import type { RateSet } from '../../src/rates/rate-set';
import { seedDemoRates } from '../db/seed/demo-rates';
import type { DevSeedReport } from '../db/seed/dev-seed';
import { createTestApi, idTokenFor } from '../testing/test-api';
import { useSeededApi } from '../testing/seeded-api';

const NO_SEED: DevSeedReport = { demoAccounts: 0, files: [], failures: [], identities: { status: 'skipped' } };

const SUPERUSER = 'superuser@example.com';
const socketFrom = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress, remotePort: 50_000 } } });
const allDay = (priceCents: number): RateSet => ({
  bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment' as const, priceCents })),
  dailyMaxCents: null,
  maxStayMinutes: null,
  events: [],
});

// A development route: PGlite is enough (it touches no SQL of its own; the rates' SQL is tested on both backends).
describe('POST /dev/rates-clock', () => {
  const context = useSeededApi('pglite');
  const devApi = () => createTestApi(context.database.db, { devReseed: vi.fn(async () => NO_SEED) });
  const local = socketFrom('127.0.0.1');

  it('exists only when the dev seed is on, and only for local tools', async () => {
    expect((await context.api.call('POST', '/dev/rates-clock', { env: local, json: { offsetMs: 1 } })).status).toBe(404);
    const dev = devApi();
    expect((await dev.call('POST', '/dev/rates-clock', { env: socketFrom('192.168.1.20'), json: { offsetMs: 1 } })).status).toBe(403);
    expect((await dev.call('POST', '/dev/rates-clock', { env: local, headers: { Origin: 'https://evil.example' }, json: { offsetMs: 1 } })).status).toBe(403);
    expect((await dev.call('POST', '/dev/rates-clock', { env: local, json: { offsetMs: 1.5 } })).status).toBe(400);
  });

  it('moves only the rates’ clock: a scheduled change is applied when it has passed, and sessions still work', async () => {
    await seedDemoRates(context.database.db);
    const dev = devApi();
    const location = (await dev.getAs<RateLocation>(SUPERUSER, '/rates/locations/4')).body.data!;
    const scheduled = await dev.postAs<RateChange>(SUPERUSER, '/rates/locations/4/changes', {
      rate_set: allDay(777),
      effective_at: '2026-03-03T15:00:00Z',
      reason: 'Clock test',
      schedule_version: location.schedule_version,
    });
    expect(scheduled.status).toBe(200);
    const statusOf = async () =>
      (await dev.getAs<Paged<RateChange>>(SUPERUSER, '/rates/changes?locationId=4&status=scheduled')).body.data!.rows.map((row) => row.rate_set_id);
    expect(await statusOf()).toContain(scheduled.body.data!.rate_set_id);

    const moved = await dev.call<{ offsetMs: number; now: string }>('POST', '/dev/rates-clock', { env: local, json: { offsetMs: 2 * 86_400_000 } });
    expect(moved.body.data).toEqual({ offsetMs: 2 * 86_400_000, now: '2026-03-04T15:00:00.000Z' });
    expect(await statusOf()).not.toContain(scheduled.body.data!.rate_set_id);
    const now = (await dev.getAs<RateLocation>(SUPERUSER, '/rates/locations/4')).body.data!;
    expect(now.current?.rate_set_id).toBe(scheduled.body.data!.rate_set_id);
    // The session issued on the real clock is still good for the other sections.
    const { token } = await dev.signIn(SUPERUSER);
    expect((await dev.call('GET', '/locations', { idToken: idTokenFor(SUPERUSER), session: token })).status).toBe(200);

    await dev.call('POST', '/dev/rates-clock', { env: local, json: { offsetMs: 0 } });
    expect(await statusOf()).toContain(scheduled.body.data!.rate_set_id);
  });
});
