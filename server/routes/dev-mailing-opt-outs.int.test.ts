import { describe, expect, it, vi } from 'vitest';
import type { MailingPreview } from '../../src/contract/mailing';
import { useSeededApi } from '../testing/seeded-api';
import type { DevSeedReport } from '../db/seed/dev-seed';
import { createTestApi } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';

const NO_SEED: DevSeedReport = { demoAccounts: 0, files: [], failures: [], identities: { status: 'skipped' } };

const SU = 'superuser@example.com';
const STATUS = 'Optouttest';
const socketFrom = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress, remotePort: 50_000 } } });
const local = socketFrom('127.0.0.1');
const segment = { kind: 'parkers', locationIds: [1, 2], parkerStatus: STATUS } as const;
const content = { subject: 'x', body: 'x' };

describe.each(BACKENDS)('POST /dev/mailing-opt-outs on %s', (backend) => {
  const context = useSeededApi(backend);
  const devApi = () => createTestApi(context.database.db, { devReseed: vi.fn(async () => NO_SEED) });

  it('exists only when the dev seed is on, only for local tools, and refuses a bad body', async () => {
    const body = { segment, keep: 1 };
    expect((await context.api.call('POST', '/dev/mailing-opt-outs', { env: local, json: body })).status).toBe(404);
    const dev = devApi();
    expect((await dev.call('POST', '/dev/mailing-opt-outs', { env: socketFrom('10.0.0.7'), json: body })).status).toBe(403);
    expect((await dev.call('POST', '/dev/mailing-opt-outs', { env: local, headers: { Origin: 'https://evil.example' }, json: body })).status).toBe(403);
    for (const bad of [{ segment, keep: -1 }, { segment, keep: 1.5 }, { segment: { kind: 'parkers' }, keep: 1 }, { keep: 1 }]) {
      const refused = await dev.call<unknown>('POST', '/dev/mailing-opt-outs', { env: local, json: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.message).toMatch(/^Invalid request body: /);
    }
  });

  it('leaves the segment exactly `keep` members, the first by address, and adds nothing when called again', async () => {
    // 30 parkers, one of them with a second vehicle (one recipient), one opted out already.
    await context.database.db.query(
      `INSERT INTO monthly_parkers (parkerid, location_id, license_plate, fname, lname, parker_status, vehicle_status, email)
       SELECT 910000 + n, 1 + (n % 2), 'OT' || n, 'F' || n, 'L' || n, $1, 'Active', 'ot' || lpad(n::text, 2, '0') || '@example.test'
         FROM generate_series(1, 30) AS n
       UNION ALL SELECT 910001, 2, 'OT1B', 'F1', 'L1', $1, 'Active', 'OT01@example.test'`,
      [STATUS],
    );
    await context.database.db.query("INSERT INTO mailing_opt_outs (email) VALUES ('ot05@example.test')");
    const dev = devApi();
    const preview = async () => (await dev.postAs<MailingPreview>(SU, '/mailings/preview', { ...content, segment })).body.data!;
    expect(await preview()).toMatchObject({ recipientCount: 29, optedOutCount: 1 });

    const trimmed = await dev.call<{ optedOut: number }>('POST', '/dev/mailing-opt-outs', { env: local, json: { segment, keep: 20 } });
    expect(trimmed.status).toBe(200);
    expect(trimmed.body.data).toEqual({ optedOut: 9 });
    expect(await preview()).toMatchObject({ recipientCount: 20, optedOutCount: 10 });
    const { rows } = await context.database.db.query<{ email: string }>(
      "SELECT email FROM mailing_opt_outs WHERE email LIKE 'ot%@example.test' ORDER BY email",
    );
    // The last nine addresses (22–30) and the one opted out before.
    expect(rows.map((row) => row.email)).toEqual(['ot05@example.test', ...Array.from({ length: 9 }, (_, i) => `ot${22 + i}@example.test`)]);

    const again = await dev.call<{ optedOut: number }>('POST', '/dev/mailing-opt-outs', { env: local, json: { segment, keep: 20 } });
    expect(again.body.data).toEqual({ optedOut: 0 });
    expect(await preview()).toMatchObject({ recipientCount: 20 });
  });
});
