import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../src/contract/lists';
import type { PromoCode, PromoCodeInput } from '../../src/contract/promo-codes';
import { SESSION_HEADER } from '../../src/contract/envelope';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Issue 34, spec §5 ("when location ids are given, the user must hold permission for all of them") for records of
 * several locations and for lists filtered by location (docs/api.md "Several locations"). Per persona, with the
 * locations each one holds written out here rather than computed by the rule under test.
 */
const SUPERUSER = 'superuser@example.com';
/** The demo admin: every feature at every location (1–6), not a superuser. */
const ADMIN = 'admin@example.com';
/** The demo account: promo codes (view and add) at Pike Place (3) only. */
const PROMO = 'promo@example.com';
/** Promo codes (edit) at 1 and 3; rates and refund portal (view) at 1 and 2. */
const WIDE = 'several.wide@example.com';
/** Promo codes (view) at 3; rates and refund portal (view) at 1. */
const NARROW = 'several.narrow@example.com';
/** Promo codes (edit) at 3 only. */
const PIKE_EDITOR = 'several.pike-editor@example.com';

/** The locations each persona holds a feature at (view or higher), as seeded. */
const HELD: Record<string, { pc: number[]; rs: number[]; rp: number[] }> = {
  [SUPERUSER]: { pc: [1, 2, 3, 4, 5, 6], rs: [1, 2, 3, 4, 5, 6], rp: [1, 2, 3, 4, 5, 6] },
  [ADMIN]: { pc: [1, 2, 3, 4, 5, 6], rs: [1, 2, 3, 4, 5, 6], rp: [1, 2, 3, 4, 5, 6] },
  [PROMO]: { pc: [3], rs: [], rp: [] },
  [WIDE]: { pc: [1, 3], rs: [1, 2], rp: [1, 2] },
  [NARROW]: { pc: [3], rs: [1], rp: [1] },
  [PIKE_EDITOR]: { pc: [3], rs: [], rp: [] },
};
const PERSONAS = Object.keys(HELD);

const CODE: PromoCodeInput = {
  code: '',
  discount_type: 'amount',
  discount_value: 500,
  multi_use: true,
  total_cap: null,
  per_plate_cap: null,
  valid_from: '2026-03-01T00:00:00Z',
  valid_to: '2026-09-01T00:00:00Z',
  location_ids: [1, 3],
  active: true,
};

/** The lists with a `locationId` filter, by the feature they need there. */
const FILTERED_LISTS = [
  ['pc', '/promo-codes'],
  ['pc', '/promo-codes/export'],
  ['rs', '/rates/changes'],
  ['rs', '/rates/changes/export'],
  ['rp', '/refund-tickets'],
  ['rp', '/refund-tickets/export'],
  ['rp', '/transactions'],
  ['rp', '/transactions/export'],
] as const;

describe.each(BACKENDS)('records and filters of several locations on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  let spanning: PromoCode;
  let pikeOnly: PromoCode;

  beforeAll(async () => {
    await applyUserSeed(context.database.db, [
      { email: WIDE, password: 'secret1', permissions: { pc: { e: [1, 3] }, rs: { v: [1, 2] }, rp: { v: [1, 2] } } },
      { email: NARROW, password: 'secret1', permissions: { pc: { v: [3] }, rs: { v: [1] }, rp: { v: [1] } } },
      { email: PIKE_EDITOR, password: 'secret1', permissions: { pc: { e: [3] } } },
    ]);
    spanning = (await api().postAs<PromoCode>(SUPERUSER, '/promo-codes', { ...CODE, code: 'Spans13' })).body.data!;
    pikeOnly = (await api().postAs<PromoCode>(SUPERUSER, '/promo-codes', { ...CODE, code: 'Pike3', location_ids: [3] })).body.data!;
  });

  const mayView = (email: string, code: PromoCode) => code.location_ids.every((id) => HELD[email]!.pc.includes(id));

  describe('a promo code on locations 1 and 3 needs promo codes at both', () => {
    it.each(PERSONAS)('%s: the list, the CSV, the code and its history agree', async (email) => {
      for (const code of [spanning, pikeOnly]) {
        const visible = mayView(email, code);
        const listed = await api().getAs<Paged<PromoCode>>(email, `/promo-codes?q=${code.code}`);
        expect(listed.status).toBe(200);
        expect(listed.body.data!.rows.map((row) => row.code), code.code).toEqual(visible ? [code.code] : []);
        expect(listed.body.data!.total).toBe(visible ? 1 : 0);

        const csv = await getText(email, `/promo-codes/export?q=${code.code}`);
        expect(csv.status).toBe(200);
        const rows: string[][] = parse(csv.text.replace(/^\uFEFF/, ''));
        expect(rows.slice(1).map((row) => row[1]), `${code.code} CSV`).toEqual(visible ? [code.code] : []);

        expect((await api().getAs(email, `/promo-codes/${code.promo_code_id}`)).status).toBe(visible ? 200 : 404);
        expect((await api().getAs(email, `/promo-codes/${code.promo_code_id}/history`)).status).toBe(visible ? 200 : 404);
      }
    });

    it('refuses an edit and a status change to someone holding promo codes at one of the two (404: not theirs to see)', async () => {
      const before = (await api().getAs<PromoCode>(SUPERUSER, `/promo-codes/${spanning.promo_code_id}`)).body.data!;
      const edit = { ...CODE, code: before.code, location_ids: [3], version: before.version };
      expect((await api().postAs(PIKE_EDITOR, `/promo-codes/${spanning.promo_code_id}`, edit)).status).toBe(404);
      expect((await api().postAs(PIKE_EDITOR, `/promo-codes/${spanning.promo_code_id}/status`, { active: false, version: before.version })).status).toBe(404);
      // The same edit of the code at Pike Place alone saves: the refusal was location 1's.
      const pike = { ...CODE, code: pikeOnly.code, location_ids: [3], discount_value: 600, version: pikeOnly.version };
      expect((await api().postAs(PIKE_EDITOR, `/promo-codes/${pikeOnly.promo_code_id}`, pike)).status).toBe(200);
      const after = (await api().getAs<PromoCode>(SUPERUSER, `/promo-codes/${spanning.promo_code_id}`)).body.data!;
      expect(after).toEqual(before);
    });
  });

  describe('a locationId filter outside the user’s locations is refused (403) before anything is read', () => {
    it.each(PERSONAS)('%s', async (email) => {
      for (const [feature, path] of FILTERED_LISTS) {
        for (const locationId of [1, 2, 3]) {
          const held = HELD[email]![feature];
          const result = await getText(email, `${path}?locationId=${locationId}`);
          const expected = held.includes(locationId) ? 200 : 403;
          expect(result.status, `${path}?locationId=${locationId}`).toBe(expected);
          // Refused at the location it names (someone without the feature anywhere may be told that instead).
          if (expected === 403 && held.length > 0) expect(JSON.parse(result.text).message).toContain(`location ${locationId}`);
        }
      }
    });

    it('a filter that is no location id stays a 400 from the query’s validation', async () => {
      for (const [, path] of FILTERED_LISTS) {
        expect((await getText(NARROW, `${path}?locationId=01`)).status, path).toBe(400);
      }
    });
  });

  /** A GET as `email`, its body as text: the lists answer JSON, their exports CSV. */
  async function getText(email: string, path: string) {
    const { token } = await api().signIn(email);
    const response = await api().app.request(path, { headers: { Authorization: `Bearer ${idTokenFor(email)}`, [SESSION_HEADER]: token } });
    return { status: response.status, text: await response.text() };
  }
});
