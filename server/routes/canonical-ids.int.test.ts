import { describe, expect, it } from 'vitest';
import { demoAccount } from '../db/seed/demo-accounts';
import { useSeededApi } from '../testing/seeded-api';
import { BACKENDS } from '../testing/test-database';

const ADMIN = demoAccount('admin').email;

/**
 * Ids are accepted in canonical decimal form only (docs/api.md): Number() would read every one of these as 1, so one
 * record would answer to many addresses (and caches, logs and permission checks keyed by the text would disagree).
 */
describe.each(BACKENDS)('canonical ids on %s', (backend) => {
  const context = useSeededApi(backend);

  it.each(['0x1', '1e0', '+1', '1.0', '%201', '01', '1%20', '-1', '0', '1_000', '٣', '2147483648'])(
    'answers /locations/%s with 400 and a message, never as a location',
    async (id) => {
      const result = await context.api.getAs(ADMIN, `/locations/${id}`);
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ success: false, message: expect.stringContaining('locationId') });
    },
  );

  it('still answers the canonical form', async () => {
    const result = await context.api.getAs<{ location_id: number }>(ADMIN, '/locations/1');
    expect(result.status).toBe(200);
    expect(result.body.data?.location_id).toBe(1);
  });
});
