import { describe, expect, it, vi } from 'vitest';
import type { LocationRef } from '../permissions/permissions-object';
import { verdictFor } from '../routes/_authenticated/(enforcement)/-components/verdict';
import { PLATE_SYMBOLS, firstPaintLimits, firstPaintSlice, symbolsByLikelihood } from './first-paint';
import { SEARCH_CATEGORIES, type PlateRow, type PlateSearchResult } from './enforcement-worker-api';
import { searchFirstPaint, searchStore } from './search-store';
import { STORE_NAME } from './store';
import { LocalStore } from './store-local';
import { prng, pick } from '../../test/fixtures/fake-enforcement-server';
import { NOW, NOW_S, setup } from '../../test/fixtures/worker-test-kit';

const LOCATIONS = new Map<number, LocationRef>([[1, { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' }]]);

/** A random answer: a few plates sharing characters, exact and similar rows, totals at least the rows shown. */
function randomResult(random: () => number): { query: string; result: PlateSearchResult } {
  const query = pick(random, ['AB', 'AB1', 'AB12', 'X7']);
  const plates = [query, `${query}9`, `Q${query}`, 'ZZZ1'];
  const result = {} as PlateSearchResult;
  let id = 0;
  for (const category of SEARCH_CATEGORIES) {
    const rows: PlateRow[] = [];
    const count = Math.floor(random() * 11);
    for (let i = 0; i < count; i++) {
      const plate = pick(random, plates);
      const match = plate === 'ZZZ1' || random() < 0.1 ? 'similar' : 'exact';
      const expiry = NOW_S + Math.floor((random() - 0.5) * 20_000);
      const base = { match, location_id: 1, license_plate: plate } as const;
      rows.push(
        category === 'valid' || category === 'expired'
          ? { ...base, category, transaction_id: ++id, expiry_date_time: new Date(expiry * 1000).toISOString(), expiry_date_time_unix: expiry, phone_number: null, payment_time: '2025-06-18T10:00:00Z', payment_amount: 300, refunded: random() < 0.2 }
          : category === 'monthly_parkers'
            ? { ...base, category, id: ++id, vehicleStatus: 'Active', parkerid: 1, fname: 'A', lname: 'B', homephone: null, mobilephone: null, workphone: null, parkerStatus: random() < 0.5 ? 'Active' : 'Suspended' }
            : { ...base, category, id: ++id, expiry_date_time: new Date(expiry * 1000).toISOString(), created_at: '2025-06-18T10:00:00Z', payment_amount: 900, payment_time: '2025-06-18T10:00:00Z' },
      );
    }
    // Exact rows first, as the worker ranks them.
    rows.sort((a, b) => Number(a.match === 'similar') - Number(b.match === 'similar'));
    const exact = rows.filter((row) => row.match === 'exact').length;
    const extra = random() < 0.5 ? 0 : Math.floor(random() * 30);
    result[category] = { total: rows.length + extra, exactTotal: exact + (random() < 0.5 ? 0 : extra), page: 0, rows };
  }
  return { query, result };
}

const verdictOf = (query: string, result: PlateSearchResult) =>
  verdictFor({ query, result, now: NOW, similar: true, locations: LOCATIONS, dataAge: 'Data synced just now.' });

describe('an answer cut to its first paint', () => {
  it('keeps the verdict and the first paint of the whole answer, and fewer rows', () => {
    const random = prng(7);
    let cut = 0;
    for (let run = 0; run < 2000; run++) {
      const { query, result } = randomResult(random);
      const budget = Math.floor(random() * 6);
      const slice = firstPaintSlice(query, result, budget);
      expect(verdictOf(query, slice)).toEqual(verdictOf(query, result));
      const limits = firstPaintLimits(result, budget);
      expect(firstPaintLimits(slice, budget)).toEqual(limits);
      for (const category of SEARCH_CATEGORIES) {
        expect(slice[category].rows.slice(0, limits[category])).toEqual(result[category].rows.slice(0, limits[category]));
        expect(slice[category]).toMatchObject({ total: result[category].total, exactTotal: result[category].exactTotal, page: 0 });
        cut += result[category].rows.length - slice[category].rows.length;
      }
    }
    expect(cut).toBeGreaterThan(10_000);
  });
});

describe('the characters read ahead', () => {
  it('puts first those that follow the text in exact matches, most frequent first, then the rest in order', () => {
    const { result } = randomResult(prng(3));
    for (const category of SEARCH_CATEGORIES) result[category].rows = [];
    const row = (plate: string, match: 'exact' | 'similar') => ({ ...(randomResult(prng(4)).result.valid.rows[0] ?? {}), category: 'valid', license_plate: plate, match }) as PlateRow;
    result.valid.rows = [row('XAB7', 'exact'), row('AB7AB9', 'exact'), row('zab9', 'exact'), row('ABQ', 'similar'), row('KAB', 'exact')];
    const order = symbolsByLikelihood('AB', result);
    // 9 twice (AB7AB9, ZAB9), 7 twice (XAB7, AB7AB9): equal counts keep PLATE_SYMBOLS' order; Q only matched similarly.
    expect(order.slice(0, 2)).toBe('79');
    expect([...order].sort()).toEqual([...PLATE_SYMBOLS].sort());
    expect(order.slice(2)).toBe(PLATE_SYMBOLS.replace('7', '').replace('9', ''));
  });
});

describe('the worker reading ahead', () => {
  async function synced() {
    const kit = setup();
    kit.server.transaction({ license_plate: 'AB1', expiry_date_time_unix: NOW_S + 600 });
    kit.server.transaction({ license_plate: 'AB7XY', expiry_date_time_unix: NOW_S - 600 });
    for (let i = 0; i < 12; i++) kit.server.transaction({ license_plate: `KAB${i}`, expiry_date_time_unix: NOW_S + 60 * (i + 1) });
    kit.server.booking('spothero', { license_plate: 'ABQ2' });
    await kit.sync('valid');
    await kit.sync('expired');
    await kit.sync('spothero');
    return kit;
  }

  it('answers every next character with the first paint of its search', async () => {
    const { api } = await synced();
    const answers = await api.searchAhead({ text: 'AB', now: NOW, similar: true, firstPaintRows: 3, symbols: PLATE_SYMBOLS, budgetMs: 60_000 });
    expect(Object.keys(answers!).sort()).toEqual([...PLATE_SYMBOLS].sort());
    for (const symbol of PLATE_SYMBOLS) {
      const whole = await api.search({ text: `AB${symbol}`, now: NOW, similar: true });
      expect(answers![symbol]).toEqual(firstPaintSlice(`AB${symbol}`, whole, 3));
    }
    // AB1 and KAB1, KAB10, KAB11 contain "AB1": the first paint's 3 rows (soonest expiry first), the total of 4.
    expect(answers!['1']!.valid.rows.map((row) => row.license_plate)).toEqual(['KAB1', 'AB1', 'KAB10']);
    expect(answers!['1']!.valid.total).toBe(4);
    expect(answers!.Q!.spothero.total).toBe(1);
  });

  it('reads ahead only the characters asked for, once each', async () => {
    const { api } = await synced();
    const answers = await api.searchAhead({ text: 'AB', now: NOW, firstPaintRows: 3, symbols: '1Q1a-', budgetMs: 60_000 });
    expect(Object.keys(answers!).sort()).toEqual(['1', 'Q']);
  });

  it('stops when its time budget is spent, answering the characters done by then', async () => {
    const { api } = await synced();
    expect(await api.searchAhead({ text: 'AB', now: NOW, firstPaintRows: 3, symbols: PLATE_SYMBOLS, budgetMs: 0 })).toEqual({});
    const all = await api.searchAhead({ text: 'AB', now: NOW, firstPaintRows: 3, symbols: '71Q9', budgetMs: 60_000 });
    expect(Object.keys(all!).sort()).toEqual(['1', '7', '9', 'Q']);
  });

  it('stops, answering null, when a search comes in while it reads ahead', async () => {
    const { api } = await synced();
    const ahead = api.searchAhead({ text: 'AB', now: NOW, firstPaintRows: 3, symbols: PLATE_SYMBOLS, budgetMs: 60_000 });
    const search = api.search({ text: 'AB7', now: NOW });
    expect(await ahead).toBeNull();
    expect((await search).expired.rows.map((row) => row.license_plate)).toEqual(['AB7XY']);
    // A newer read-ahead makes an older one stale too.
    const first = api.searchAhead({ text: 'K', now: NOW, firstPaintRows: 3, symbols: PLATE_SYMBOLS, budgetMs: 60_000 });
    const second = api.searchAhead({ text: 'KA', now: NOW, firstPaintRows: 3, symbols: PLATE_SYMBOLS, budgetMs: 60_000 });
    expect(await first).toBeNull();
    expect((await second)!.B!.valid.total).toBe(12);
  });

  it('answers a text nothing contains with nothing for every next character', async () => {
    const { api } = await synced();
    const answers = await api.searchAhead({ text: 'AB7XYW', now: NOW, similar: true, firstPaintRows: 3, symbols: PLATE_SYMBOLS, budgetMs: 60_000 });
    for (const symbol of PLATE_SYMBOLS) {
      expect(answers![symbol]).toEqual(await api.search({ text: `AB7XYW${symbol}`, now: NOW, similar: true }));
    }
    expect(answers!.Q!.valid.total + answers!.Q!.expired.total).toBe(0);
  });
});

describe('the read-ahead reading only the rows its first paint keeps', () => {
  const ALPHABET = ['A', 'B', '0', 'O', '8'];
  const plateOf = (random: () => number) => {
    let plate = '';
    for (let length = 2 + Math.floor(random() * 4); plate.length < length; ) plate += pick(random, ALPHABET);
    return plate;
  };

  /** A store of plates from five characters (so typed plates, one-plate answers and look-alikes all occur). */
  async function randomStore(seed: number) {
    const random = prng(seed);
    const kit = setup({}, seed);
    const count = () => Math.floor(random() * 14);
    for (let i = count(); i > 0; i--) kit.server.transaction({ license_plate: plateOf(random), expiry_date_time_unix: NOW_S + Math.floor((random() - 0.4) * 20_000) });
    for (const source of ['spothero', 'parkwhiz'] as const) {
      for (let i = count(); i > 0; i--) kit.server.booking(source, { license_plate: plateOf(random), expiry: NOW_S + Math.floor((random() - 0.3) * 20_000) });
    }
    for (let i = count(); i > 0; i--) kit.server.monthlyParker({ license_plate: plateOf(random), parkerStatus: random() < 0.5 ? 'Active' : 'Suspended' });
    for (const type of ['valid', 'expired', 'spothero', 'parkwhiz', 'monthly_parkers'] as const) await kit.sync(type);
    // Half the stores answer from their tables, half from pages still staged.
    if (random() < 0.5) await kit.api.flush();
    return { kit, random };
  }

  it('answers every character as the whole search cut to its first paint would (40 random stores)', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { kit, random } = await randomStore(seed);
      const text = plateOf(random).slice(0, 1 + Math.floor(random() * 2));
      const similar = random() < 0.5;
      const firstPaintRows = 1 + Math.floor(random() * 4);
      const answers = await kit.api.searchAhead({ text, now: NOW, similar, firstPaintRows, symbols: ALPHABET.join(''), budgetMs: 60_000 });
      for (const symbol of ALPHABET) {
        const whole = await kit.api.search({ text: text + symbol, now: NOW, similar });
        expect(answers![symbol], `seed ${seed}, ${text}+${symbol}`).toEqual(firstPaintSlice(text + symbol, whole, firstPaintRows));
      }
    }
  });

  it('reads the first paint, the verdict and the monthly parkers\u2019 page, not every row of the pages', async () => {
    const kit = setup();
    for (let i = 0; i < 10; i++) kit.server.transaction({ license_plate: `ZQ${i}`, expiry_date_time_unix: NOW_S + 600 + i });
    for (let i = 0; i < 10; i++) kit.server.booking('spothero', { license_plate: `ZQ${i}X` });
    kit.server.monthlyParker({ license_plate: 'ZQ1', parkerStatus: 'Suspended' });
    for (const type of ['valid', 'spothero', 'monthly_parkers'] as const) await kit.sync(type);
    await kit.api.flush();
    const { local } = await LocalStore.open(kit.factory, STORE_NAME, () => undefined);
    try {
      const readRows = vi.spyOn(local, 'readRows');
      const request = { text: 'ZQ1', now: NOW, similar: false };
      const slice = await searchFirstPaint(local, request, 3);
      // "ZQ1" is in three rows (valid ZQ1, SpotHero ZQ1X, the parker): all three are the first paint and the verdict's.
      expect(slice).toEqual(firstPaintSlice('ZQ1', await searchStore(local, request), 3));
      const firstPaint = readRows.mock.calls[0]![0].length;
      const whole = readRows.mock.calls[1]![0].length;
      expect(whole).toBe(3);
      expect(firstPaint).toBeLessThanOrEqual(whole);
      readRows.mockClear();
      const wide = { text: 'ZQ', now: NOW, similar: false };
      expect(await searchFirstPaint(local, wide, 3)).toEqual(firstPaintSlice('ZQ', await searchStore(local, wide), 3));
      // 10 valid + 10 SpotHero + 1 parker on the pages; the first paint needs 3, plus the parkers' page.
      expect(readRows.mock.calls.map((call) => call[0].length)).toEqual([4, 21]);
    } finally {
      local.close();
    }
  });
});
