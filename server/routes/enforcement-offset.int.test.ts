import { describe, expect, it } from 'vitest';
import { SYNC_MAX_OFFSET } from '../../src/contract/enforcement';
import { demoAccount } from '../db/seed/demo-accounts';
import { useSeededApi } from '../testing/seeded-api';
import { BACKENDS } from '../testing/test-database';

const OFFICER = demoAccount('officer').email;

/**
 * A page reads up to offset + limit records per listed location, so the offset is what an officer could use to make
 * one call read a whole table (docs/api.md "Limits of the cursor"). It is bounded by what one sync can fetch.
 */
describe.each(BACKENDS)('enforcement offset bound on %s', (backend) => {
  const context = useSeededApi(backend);
  const page = (offset: number) =>
    context.api.postAs(OFFICER, '/enforcement/transactions', {
      type: 'valid',
      locationId: [1, 2],
      limit: 2000,
      offset,
    });

  it('is one sync: 50 pages of 2000', () => {
    expect(SYNC_MAX_OFFSET).toBe(100_000);
  });

  it.each([SYNC_MAX_OFFSET + 1, 100_000_000])('refuses an offset of %i with 400 naming the field', async (offset) => {
    const result = await page(offset);
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/^Invalid request body: offset: /);
  });

  it('accepts offsets up to the bound', async () => {
    expect((await page(SYNC_MAX_OFFSET)).status).toBe(200);
    expect((await page(0)).status).toBe(200);
  });
});
