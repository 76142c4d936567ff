import { describe, expect, it } from 'vitest';
import { ENFORCEMENT_TRANSACTIONS_PATH, SYNC_TYPES } from '../../src/contract/enforcement';
import { startApiForBenchmark } from './benchmark-api';

describe('startApiForBenchmark', () => {
  it('serves generated enforcement data over HTTP on PGlite, and stops', async () => {
    const api = await startApiForBenchmark({ records: 1000, seed: 'bench', now: new Date('2026-03-02T15:00:00Z') });
    try {
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(api.seeded.total).toBe(1000);
      const headers = await api.headersFor('officer@example.com');
      for (const type of SYNC_TYPES) {
        const response = await fetch(`${api.url}${ENFORCEMENT_TRANSACTIONS_PATH}?type=${type}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type, locationId: [1, 2], limit: 2000 }),
        });
        const body = (await response.json()) as { success: boolean; data: { location_id: number }[] };
        expect(response.status, type).toBe(200);
        expect(body.data.length, type).toBeGreaterThan(0);
      }
    } finally {
      await api.stop();
    }
    await expect(fetch(`${api.url}/health`)).rejects.toThrow();
  });
});
