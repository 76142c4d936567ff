import { createHash, randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Citation, CitationInputValues, CitationPhoto } from '../../src/contract/citations';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { Db } from '../db/db';
import { openPostgresDatabase } from '../db/postgres';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { createTestApi, idTokenFor, type CallResult } from '../testing/test-api';
import { BACKENDS, sameSchemaOptions } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Citations (issue 38) on both engines: every endpoint × the people who may and may not call it × bad input. No
 * answer is a 5xx (useSeededApi fails the block on any), and every refusal leaves the tables as they were.
 */
/** The demo officer: enforcement view and add at 1 and 2. */
const OFFICER = 'officer@example.com';
/** Enforcement edit at 1 and 2: the office, who voids. */
const SUPERVISOR = 'enforcement.supervisor@example.com';
/** Enforcement view at 1 only: reads, never writes. */
const VIEWER = 'enforcement.viewer@example.com';
/** Enforcement add at Pike Place (3) only. */
const SEATTLE = 'seattle.officer@example.com';
/** Dashboards and refunds everywhere, no enforcement. */
const FINANCE = 'finance@example.com';

/** The test clock stands at 2026-03-02T15:00:00Z. */
const input = (overrides: Partial<CitationInputValues> & Record<string, unknown> = {}): Record<string, unknown> => ({
  citation_id: randomUUID(),
  location_id: 1,
  license_plate: 'abc-123',
  issued_at: '2026-03-02T14:55:00-00:00',
  violation: 'no_payment',
  fine_cents: 5000,
  notes: ' Blue sedan, level 2 ',
  verdict: { headline: 'NO RECORD', detail: 'No record matches “ABC123”.' },
  ...overrides,
});

/** A tiny JPEG's worth of bytes: the signature, then anything. */
const jpeg = (seed: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`photo ${seed}`)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const photoBody = (bytes: Buffer, contentType = 'image/jpeg') => ({ content_type: contentType, data_base64: bytes.toString('base64') });

describe.each(BACKENDS)('citations on %s', (backend) => {
  const context = useSeededApi(backend);
  const db = () => context.database.db;
  const sessions = new Map<string, string>();

  beforeAll(async () => {
    await applyUserSeed(db(), [
      { email: SUPERVISOR, password: 'secret1', permissions: { e: { e: [1, 2] } } },
      { email: VIEWER, password: 'secret1', permissions: { e: { v: [1] } } },
      { email: SEATTLE, password: 'secret1', permissions: { e: { a: [3] } } },
    ]);
  });

  async function call<T>(email: string | null, method: 'GET' | 'POST', path: string, json?: unknown, api = context.api): Promise<CallResult<T>> {
    if (email === null) return api.call<T>(method, path, json === undefined ? {} : { json });
    let token = sessions.get(email);
    if (!token) {
      token = (await context.api.signIn(email)).token;
      sessions.set(email, token);
    }
    return api.call<T>(method, path, { idToken: idTokenFor(email), session: token, ...(json === undefined ? {} : { json }) });
  }
  const create = (email: string, body: Record<string, unknown> = input(), api = context.api) => call<Citation>(email, 'POST', '/citations', body, api);
  const tally = async () => {
    const { rows } = await db().query<{ citations: number; photos: number; blobs: number; audits: number; voided: number }>(
      `SELECT (SELECT count(*)::int FROM citations) AS citations,
              (SELECT count(*)::int FROM citation_photos) AS photos,
              (SELECT count(*)::int FROM citation_photo_blobs) AS blobs,
              (SELECT count(*)::int FROM audit_log WHERE entity = 'citation') AS audits,
              (SELECT count(*)::int FROM citations WHERE status = 'voided') AS voided`,
    );
    return rows[0]!;
  };
  /** Runs `refusal` and checks that it wrote nothing. */
  async function unchanged<T>(refusal: () => Promise<T>): Promise<T> {
    const before = await tally();
    const result = await refusal();
    expect(await tally()).toEqual(before);
    return result;
  }

  describe('writing', () => {
    it('writes a citation under the device’s id, audits it, and answers a repeat with the same one', async () => {
      const body = input();
      const first = await create(OFFICER, body);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({
        citation_id: body.citation_id,
        location_id: 1,
        location_name: 'Union Station Garage',
        time_zone: 'America/Chicago',
        license_plate: 'ABC123',
        issued_at: '2026-03-02T14:55:00.000Z',
        received_at: expect.any(String),
        officer: { email: OFFICER },
        violation: 'no_payment',
        fine_cents: 5000,
        notes: 'Blue sedan, level 2',
        verdict: { headline: 'NO RECORD' },
        status: 'issued',
        void_reason: null,
        photos: [],
        version: 1,
      });
      expect(first.headers.get('Idempotent-Replayed')).toBeNull();
      // A retry (the answer was lost on the way): the same citation, no second row, no second audit row.
      const again = await unchanged(() => create(OFFICER, { ...body, license_plate: 'ABC 123' }));
      expect(again.status).toBe(200);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.body.data).toEqual(first.body.data);
      const history = await call<AuditEntry[]>(OFFICER, 'GET', `/citations/${body.citation_id}/history`);
      expect(history.body.data?.map((entry) => [entry.action, entry.actor?.email])).toEqual([['create', OFFICER]]);
    });

    it('refuses other content under a used id, and the id from another officer, writing nothing', async () => {
      const body = input();
      expect((await create(OFFICER, body)).status).toBe(200);
      const other = await unchanged(() => create(OFFICER, { ...body, fine_cents: 6000 }));
      expect(other.status).toBe(409);
      expect(other.body.message).toContain('exists with other content');
      await applyUserSeed(db(), [{ email: 'second.officer@example.com', password: 'secret1', permissions: { e: { a: [1] } } }]);
      expect((await unchanged(() => create('second.officer@example.com', body))).status).toBe(409);
    });

    it.each([
      ['someone without enforcement', FINANCE, 1, 403, 'You do not have permission to write citations.'],
      ['a viewer', VIEWER, 1, 403, 'You do not have permission to write citations.'],
      ['an officer at another location', OFFICER, 3, 403, 'You do not have permission to write citations at location 3.'],
      ['an officer of location 3 at 1', SEATTLE, 1, 403, 'You do not have permission to write citations at location 1.'],
    ])('refuses %s', async (_who, email, locationId, status, message) => {
      const answer = await unchanged(() => create(email, input({ location_id: locationId })));
      expect([answer.status, answer.body.message]).toEqual([status, message]);
    });

    it('refuses a call without a sign-in', async () => {
      expect((await unchanged(() => call(null, 'POST', '/citations', input()))).status).toBe(401);
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['an id that is not a UUID', { citation_id: 'citation-1' }, 'citation_id'],
      ['an upper-case UUID', { citation_id: randomUUID().toUpperCase() }, 'citation_id'],
      ['no plate', { license_plate: '' }, 'license_plate'],
      ['a plate with symbols', { license_plate: 'AB*12' }, 'license_plate'],
      ['a 17-character plate', { license_plate: 'A'.repeat(17) }, 'license_plate'],
      ['a time without an offset', { issued_at: '2026-03-02T14:55:00' }, 'issued_at'],
      ['a time in the future', { issued_at: '2026-03-02T15:30:00Z' }, 'issued_at'],
      ['a time 31 days old', { issued_at: '2026-01-30T15:00:00Z' }, 'issued_at'],
      ['a violation not on the list', { violation: 'speeding' }, 'violation'],
      ['a negative fine', { fine_cents: -1 }, 'fine_cents'],
      ['a fine in dollars with cents', { fine_cents: 50.5 }, 'fine_cents'],
      ['a fine over $1,000', { fine_cents: 100_001 }, 'fine_cents'],
      ['a fine as text', { fine_cents: '50' }, 'fine_cents'],
      ['notes too long', { notes: 'x'.repeat(1001) }, 'notes'],
      ['no verdict', { verdict: undefined }, 'verdict'],
      ['an empty verdict', { verdict: { headline: ' ', detail: '' } }, 'verdict.headline'],
      ['a location id of 0', { location_id: 0 }, 'location_id'],
      ['a location that does not exist', { location_id: 999 }, 'location_id'],
      ['an unknown field', { officer: 'someone@example.com' }, 'officer'],
    ];
    it.each(bad)('refuses %s with a 400 naming the field, writing nothing', async (_case, overrides, field) => {
      // The superuser: past every permission check, so only the input decides (location 999 included).
      const answer = await unchanged(() => create('superuser@example.com', input(overrides)));
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain(field.split('.')[0]);
    });

    it('refuses bodies that are not a citation', async () => {
      for (const rawBody of ['', 'not json', '[]', 'null']) {
        const token = (await context.api.signIn(OFFICER)).token;
        const answer = await unchanged(() =>
          context.api.call('POST', '/citations', { idToken: idTokenFor(OFFICER), session: token, rawBody, headers: { 'Content-Type': 'application/json' } }),
        );
        expect(answer.status).toBe(400);
      }
    });
  });

  describe('the office’s list, detail and CSV', () => {
    let seen: Citation[] = [];
    beforeAll(async () => {
      await db().query('DELETE FROM citations');
      const made = [
        input({ license_plate: 'LIST001', location_id: 1, issued_at: '2026-03-02T10:00:00Z', fine_cents: 2500 }),
        input({ license_plate: 'LIST002', location_id: 2, issued_at: '2026-03-02T11:00:00Z', violation: 'expired', notes: '=cmd|calc' }),
        input({ license_plate: 'LIST003', location_id: 1, issued_at: '2026-03-02T12:00:00Z', fine_cents: 7500 }),
      ];
      for (const body of made) expect((await create(OFFICER, body)).status).toBe(200);
      expect((await create(SEATTLE, input({ license_plate: 'LIST004', location_id: 3 }))).status).toBe(200);
      seen = (await call<Paged<Citation>>('superuser@example.com', 'GET', '/citations')).body.data!.rows;
    });

    it('lists newest first, within the user’s enforcement locations only', async () => {
      expect(seen.map((row) => row.license_plate)).toEqual(['LIST004', 'LIST003', 'LIST002', 'LIST001']);
      const plates = async (email: string, query = '') =>
        (await call<Paged<Citation>>(email, 'GET', `/citations${query}`)).body.data?.rows.map((row) => row.license_plate);
      expect(await plates(OFFICER)).toEqual(['LIST003', 'LIST002', 'LIST001']);
      expect(await plates(VIEWER)).toEqual(['LIST003', 'LIST001']);
      expect(await plates(SEATTLE)).toEqual(['LIST004']);
      expect(await plates(OFFICER, '?q=list-00 2')).toEqual(['LIST002']);
      expect(await plates(OFFICER, '?locationId=2')).toEqual(['LIST002']);
      expect(await plates(OFFICER, '?status=voided')).toEqual([]);
      expect(await plates('superuser@example.com', '?officer=seattle')).toEqual(['LIST004']);
      expect(await plates(OFFICER, '?sort=fine_cents&dir=desc')).toEqual(['LIST003', 'LIST002', 'LIST001']);
      const paged = (await call<Paged<Citation>>(OFFICER, 'GET', '/citations?pageSize=10&page=1')).body.data;
      expect([paged?.total, paged?.totalIsLowerBound]).toEqual([3, false]);
    });

    it('refuses people without enforcement, a location filter outside the scope and bad filters', async () => {
      expect((await call(FINANCE, 'GET', '/citations')).status).toBe(403);
      expect((await call(VIEWER, 'GET', '/citations?locationId=2')).status).toBe(403);
      for (const query of ['?sort=officer', '?pageSize=7', '?status=paid', '?locationId=01', `?q=${'A'.repeat(17)}`, '?page=0']) {
        expect((await call(OFFICER, 'GET', `/citations${query}`)).status, query).toBe(400);
      }
    });

    it('shows one citation to those who see its location, and answers 404 alike to the others', async () => {
      const at1 = seen.find((row) => row.license_plate === 'LIST001')!;
      expect((await call<Citation>(VIEWER, 'GET', `/citations/${at1.citation_id}`)).body.data).toEqual(at1);
      expect((await call(SEATTLE, 'GET', `/citations/${at1.citation_id}`)).status).toBe(404);
      expect((await call(SEATTLE, 'GET', `/citations/${at1.citation_id}/history`)).status).toBe(404);
      expect((await call(OFFICER, 'GET', `/citations/${randomUUID()}`)).status).toBe(404);
      expect((await call(FINANCE, 'GET', `/citations/${at1.citation_id}`)).status).toBe(403);
      expect((await call(OFFICER, 'GET', '/citations/not-an-id')).status).toBe(400);
    });

    it('exports the list’s rows as CSV, dollars for the fine and formulas guarded', async () => {
      const token = (await context.api.signIn(OFFICER)).token;
      const response = await context.api.app.request('/citations/export?locationId=2', {
        headers: { Authorization: `Bearer ${idTokenFor(OFFICER)}`, JwtToken: token },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toContain('text/csv');
      const rows = parse((await response.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ Plate: 'LIST002', Violation: 'Payment expired', 'Fine ($)': '50.00', Officer: OFFICER, Status: 'issued' });
      expect(rows[0]!.Notes).not.toMatch(/^=/);
      expect((await call(FINANCE, 'GET', '/citations/export')).status).toBe(403);
    });
  });

  describe('voiding', () => {
    it('voids with a reason for those with enforcement edit, with the change in History', async () => {
      const made = (await create(OFFICER)).body.data!;
      const path = `/citations/${made.citation_id}/void`;
      expect((await unchanged(() => call(VIEWER, 'POST', path, { reason: 'wrong plate', version: 1 }))).status).toBe(403);
      const byOfficer = await unchanged(() => call(OFFICER, 'POST', path, { reason: 'wrong plate', version: 1 }));
      expect([byOfficer.status, byOfficer.body.message]).toEqual([403, 'You do not have permission to void citations.']);
      expect((await unchanged(() => call(SUPERVISOR, 'POST', path, { reason: '  ', version: 1 }))).status).toBe(400);
      expect((await unchanged(() => call(SUPERVISOR, 'POST', path, { reason: 'x', version: 0 }))).status).toBe(400);
      expect((await unchanged(() => call(SUPERVISOR, 'POST', path, { reason: 'x', version: 1, status: 'issued' }))).status).toBe(400);
      expect((await unchanged(() => call(SUPERVISOR, 'POST', `/citations/${randomUUID()}/void`, { reason: 'x', version: 1 }))).status).toBe(404);

      const voided = await call<Citation>(SUPERVISOR, 'POST', path, { reason: ' Paid at the kiosk; receipt shown ', version: 1 });
      expect(voided.status).toBe(200);
      expect(voided.body.data).toMatchObject({ status: 'voided', void_reason: 'Paid at the kiosk; receipt shown', voided_at: '2026-03-02T15:00:00.000Z', version: 2 });
      const stale = await unchanged(() => call<unknown>(SUPERVISOR, 'POST', path, { reason: 'again', version: 1 }));
      expect(stale.status).toBe(409);
      expect(JSON.stringify(stale.body)).toContain(SUPERVISOR);
      expect((await unchanged(() => call(SUPERVISOR, 'POST', path, { reason: 'again', version: 2 }))).status).toBe(409);
      const history = (await call<AuditEntry[]>(VIEWER, 'GET', `/citations/${made.citation_id}/history`)).body.data!;
      expect(history[0]).toMatchObject({ action: 'void', actor: { email: SUPERVISOR } });
      expect(history[0]!.changes).toEqual(
        expect.arrayContaining([
          { field: 'status', before: 'issued', after: 'voided' },
          { field: 'void_reason', before: null, after: 'Paid at the kiosk; receipt shown' },
        ]),
      );
      // A repeat of the upload after the void still answers the citation, void, and writes nothing.
      const repeat = await unchanged(() => create(OFFICER, { ...input(), citation_id: made.citation_id }));
      expect([repeat.status, repeat.body.data?.status]).toEqual([200, 'voided']);
    });

    it('answers 404 to someone with edit elsewhere, 403 to someone who sees it without edit there', async () => {
      const made = (await create(SEATTLE, input({ location_id: 3 }))).body.data!;
      expect((await unchanged(() => call(SUPERVISOR, 'POST', `/citations/${made.citation_id}/void`, { reason: 'x', version: 1 }))).status).toBe(404);
      // Edit at 1, view at 3: sees it, may not void it there.
      await applyUserSeed(db(), [{ email: 'mixed@example.com', password: 'secret1', permissions: { e: { e: [1], v: [3] } } }]);
      const mixed = await unchanged(() => call('mixed@example.com', 'POST', `/citations/${made.citation_id}/void`, { reason: 'x', version: 1 }));
      expect([mixed.status, mixed.body.message]).toEqual([403, 'You do not have permission to void citations at location 3.']);
    });
  });

  describe('photos', () => {
    it('stores a photo by its hash, reads it back byte for byte, and keeps one on a repeat', async () => {
      const made = (await create(OFFICER)).body.data!;
      const bytes = jpeg('one');
      const path = `/citations/${made.citation_id}/photos/${sha256(bytes)}`;
      const first = await call<CitationPhoto>(OFFICER, 'POST', path, photoBody(bytes));
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ sha256: sha256(bytes), content_type: 'image/jpeg', size_bytes: bytes.length });
      const again = await unchanged(() => call(OFFICER, 'POST', path, photoBody(bytes)));
      expect([again.status, again.headers.get('Idempotent-Replayed')]).toEqual([200, 'true']);

      const token = (await context.api.signIn(VIEWER)).token;
      const read = await context.api.app.request(path, { headers: { Authorization: `Bearer ${idTokenFor(VIEWER)}`, JwtToken: token } });
      expect(read.status).toBe(200);
      expect(read.headers.get('Content-Type')).toBe('image/jpeg');
      expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await call<Citation>(VIEWER, 'GET', `/citations/${made.citation_id}`)).body.data?.photos).toEqual([first.body.data]);
      expect((await call(SEATTLE, 'GET', path)).status).toBe(404);
      expect((await call(OFFICER, 'GET', `/citations/${made.citation_id}/photos/${sha256(jpeg('none'))}`)).status).toBe(404);
    });

    it('refuses photos that are not what they say, damaged, too large, the fourth, or from the wrong people', async () => {
      const made = (await create(OFFICER)).body.data!;
      const at = (bytes: Buffer) => `/citations/${made.citation_id}/photos/${sha256(bytes)}`;
      const png = jpeg('png');
      const refusals: [string, string | null, string, unknown, number][] = [
        ['a JPEG sent as PNG', OFFICER, at(png), photoBody(png, 'image/png'), 400],
        ['a GIF', OFFICER, at(png), photoBody(png, 'image/gif'), 400],
        ['text that is not a photo', OFFICER, at(Buffer.from('hello')), photoBody(Buffer.from('hello')), 400],
        ['bytes that do not match the hash', OFFICER, at(jpeg('a')), photoBody(jpeg('b')), 400],
        ['a name that is not a hash', OFFICER, `/citations/${made.citation_id}/photos/abc`, photoBody(jpeg('a')), 400],
        ['base64 that is not', OFFICER, at(jpeg('a')), { content_type: 'image/jpeg', data_base64: '@@@@' }, 400],
        ['an empty photo', OFFICER, at(Buffer.alloc(0)), { content_type: 'image/jpeg', data_base64: '' }, 400],
        ['a photo over 1 MB', OFFICER, at(Buffer.alloc(1_000_001, 0xff)), photoBody(Buffer.alloc(1_000_001, 0xff)), 400],
        ['a viewer', VIEWER, at(jpeg('a')), photoBody(jpeg('a')), 403],
        ['someone of another location', SEATTLE, at(jpeg('a')), photoBody(jpeg('a')), 404],
        ['a citation that does not exist', OFFICER, `/citations/${randomUUID()}/photos/${sha256(jpeg('a'))}`, photoBody(jpeg('a')), 404],
        ['no sign-in', null, at(jpeg('a')), photoBody(jpeg('a')), 401],
      ];
      for (const [name, email, path, body, status] of refusals) {
        expect((await unchanged(() => call(email, 'POST', path, body))).status, name).toBe(status);
      }
      for (const name of ['1', '2', '3']) expect((await call(OFFICER, 'POST', at(jpeg(name)), photoBody(jpeg(name)))).status).toBe(200);
      expect((await unchanged(() => call(OFFICER, 'POST', at(jpeg('4')), photoBody(jpeg('4'))))).status).toBe(409);
    });
  });

  describe.runIf(backend === 'postgres')('at the same time (PostgreSQL, a pool of 16)', () => {
    let wide: { api: ReturnType<typeof createTestApi>; pool: Db };
    beforeAll(async () => {
      const pool = openPostgresDatabase({ connectionString: inject('databaseUrl'), options: await sameSchemaOptions(db()), max: 16 });
      wide = { api: createTestApi(pool), pool };
    });
    afterAll(async () => {
      expect(wide.api.serverErrors).toEqual([]);
      await wide.pool.close();
    });

    it('makes one citation of concurrent uploads with one id', async () => {
      for (let round = 0; round < 5; round++) {
        const body = input();
        const answers = await Promise.all(Array.from({ length: 8 }, () => create(OFFICER, body, wide.api)));
        expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
        expect(answers.filter((answer) => answer.headers.get('Idempotent-Replayed') === null)).toHaveLength(1);
        const { rows } = await db().query<{ n: number; audits: number }>(
          `SELECT (SELECT count(*)::int FROM citations WHERE citation_id = $1::uuid) AS n,
                  (SELECT count(*)::int FROM audit_log WHERE entity = 'citation' AND entity_id = $2) AS audits`,
          [body.citation_id, body.citation_id],
        );
        expect(rows[0]).toEqual({ n: 1, audits: 1 });
      }
    });

    it('keeps at most 3 photos of concurrent uploads, and one of the same photo sent twice at once', async () => {
      const made = (await create(OFFICER)).body.data!;
      const photos = ['a', 'b', 'c', 'd', 'e'].map((name) => jpeg(name));
      const upload = (bytes: Buffer) => call(OFFICER, 'POST', `/citations/${made.citation_id}/photos/${sha256(bytes)}`, photoBody(bytes), wide.api);
      const answers = await Promise.all([...photos, photos[0]!].map(upload));
      expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(3);
      const { rows } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM citation_photos WHERE citation_id = $1::uuid', [made.citation_id]);
      expect(rows[0]!.n).toBe(3);
    });
  });
});
