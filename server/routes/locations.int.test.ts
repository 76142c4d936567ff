import { beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../src/contract/lists';
import type { Location, LocationSeed } from '../../src/contract/locations';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { DEMO_LOCATIONS } from '../db/seed/demo-locations';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

const withoutBookkeeping = ({ version: _version, updated_at: _updatedAt, ...seed }: Location): LocationSeed => seed;
const sortedByName = (locations: readonly LocationSeed[]) =>
  [...locations].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));

/** Not a demo persona: location view at 2 and edit at 4, to show per-location filtering. */
const SCOPED = 'scoped.manager@example.com';

describe.each(BACKENDS)('location endpoints on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  beforeAll(async () => {
    await applyUserSeed(context.database.db, [
      { email: SCOPED, password: 'secret1', permissions: { lo: { v: [2], e: [4] } } },
    ]);
  });

  describe('GET /locations', () => {
    it.each(['superuser@example.com', 'admin@example.com'])('lists all six locations for %s', async (email) => {
      const result = await api().getAs<Paged<Location>>(email, '/locations');
      expect(result.status).toBe(200);
      expect(result.body.data?.rows.map(withoutBookkeeping)).toEqual(sortedByName(DEMO_LOCATIONS));
      expect(result.body.data).toMatchObject({ total: 6, totalIsLowerBound: false, page: 1, pageSize: 25 });
    });

    it('lists only the locations a scoped user may view (edit implies view)', async () => {
      const result = await api().getAs<Paged<Location>>(SCOPED, '/locations?sort=capacity');
      expect(result.status).toBe(200);
      expect(result.body.data?.rows.map((location) => location.location_id)).toEqual([2, 4]);
      expect(result.body.data?.total).toBe(2);
    });

    it.each(['officer@example.com', 'promo@example.com', 'finance@example.com', 'noaccess@example.com'])(
      'refuses %s, who has no location permission',
      async (email) => {
        const result = await api().getAs(email, '/locations');
        expect(result.status).toBe(403);
        expect(result.body).toEqual({ success: false, message: expect.stringMatching(/permission/) });
      },
    );

    it('needs both tokens', async () => {
      const { token } = await api().signIn('admin@example.com');
      expect((await api().call('GET', '/locations')).body.error).toBe('NoTokenProvided');
      expect((await api().call('GET', '/locations', { idToken: idTokenFor('admin@example.com') })).body.error).toBe(
        'NoTokenProvided',
      );
      expect((await api().call('GET', '/locations', { idToken: 'junk', session: token })).body.error).toBe(
        'InvalidToken',
      );
      expect(
        (await api().call('GET', '/locations', { idToken: idTokenFor('admin@example.com'), session: `${token}x` }))
          .status,
      ).toBe(401);
    });

    it('refuses a valid session for an e-mail that is no longer staff', async () => {
      const stranger = 'gone@example.com';
      const session = await api().sessions().issue(stranger);
      const result = await api().call('GET', '/locations', { idToken: idTokenFor(stranger), session: session.token });
      expect(result.status).toBe(403);
      expect(result.body.message).toBe('No staff account for this e-mail.');
    });
  });

  describe('GET /locations/{locationId}', () => {
    it('returns a location the user may view', async () => {
      const result = await api().getAs(SCOPED, '/locations/4');
      expect(result.status).toBe(200);
      expect(withoutBookkeeping(result.body.data as Location)).toEqual(DEMO_LOCATIONS[3]);
      expect(result.body.data).toMatchObject({ version: 1, updated_at: expect.stringMatching(/Z$/) });
    });

    it("refuses a location outside the user's list", async () => {
      const result = await api().getAs(SCOPED, '/locations/3');
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/location 3/);
    });

    // Promo's only grant is promo codes at 3: no location permission, so location 3 is as closed as location 1.
    it.each([1, 3])('refuses promo on /locations/%i', async (locationId) => {
      expect((await api().getAs('promo@example.com', `/locations/${locationId}`)).status).toBe(403);
    });

    it('refuses the officer even at the enforcement locations', async () => {
      expect((await api().getAs('officer@example.com', '/locations/1')).status).toBe(403);
    });

    it('lets the admin and the superuser open every location', async () => {
      for (const email of ['admin@example.com', 'superuser@example.com']) {
        for (const { location_id } of DEMO_LOCATIONS) {
          const result = await api().getAs(email, `/locations/${location_id}`);
          expect(result.status, `${email} ${location_id}`).toBe(200);
        }
      }
    });

    it('answers 404 for an unknown location to the superuser, 403 to others', async () => {
      expect((await api().getAs('superuser@example.com', '/locations/999')).status).toBe(404);
      expect((await api().getAs('admin@example.com', '/locations/999')).status).toBe(403);
    });

    it.each(['abc', '0', '-1', '1.5', '1e400', '0x1', '1e0', '+1', '1.0', '%201', '01', '99999999999'])(
      'answers 400 naming locationId for /locations/%s',
      async (locationId) => {
        const result = await api().getAs('superuser@example.com', `/locations/${locationId}`);
        expect(result.status).toBe(400);
        expect(result.body).toEqual({ success: false, message: expect.stringMatching(/locationId/) });
      },
    );

    it('says which form an id must take', async () => {
      const result = await api().getAs('superuser@example.com', '/locations/0');
      expect(result.body.message).toBe(
        'Invalid path parameter: locationId: must be a positive whole number written in decimal digits',
      );
    });

    it('checks the session before the parameter', async () => {
      const result = await api().call('GET', '/locations/abc');
      expect(result.status).toBe(401);
      expect(result.body.error).toBe('NoTokenProvided');
    });
  });
});
