import { describe, expect, it } from 'vitest';
import { SYNC_TYPES, type TransactionRecord } from '../contract/enforcement';
import { createEnforcementApi, type EnforcementApi } from './enforcement-api';
import type { SyncTypeResult } from './enforcement-worker-api';
import type { StoredRecord } from './store';
import { fullyRefunded } from './store-records';
import {
  API_BASE,
  auth,
  FakeEnforcementServer,
  freshIndexedDb,
  pick,
  prng,
  randomPlate,
  type Fault,
} from '../../test/fixtures/fake-enforcement-server';
import {
  abortLiveTransactions,
  expectedSource,
  NOW,
  NOW_S,
  readStore,
  setTransactionHook,
  storedSource,
} from '../../test/fixtures/worker-test-kit';

/**
 * Fault schedules: a seeded random mix of failing pages (HTTP 500, malformed records, hangs past the timeout, bodies
 * cut off, network errors) and workers dying at random points (their uncommitted transactions aborted, a new API
 * opened on the same IndexedDB), with the server changing between rounds. Sync goes on, round after round, until
 * a round of all five types finishes cleanly; then the store must hold exactly the server's records for the
 * officer's locations, and the plate index must agree with the store.
 */

const SCHEDULES = 120;
const DAY = 86_400;
const FAULTS: readonly Fault[] = ['http500', 'malformed', 'hang', 'truncate', 'networkError'];
const PLATE_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

function populate(server: FakeEnforcementServer, random: () => number): void {
  // Few distinct seconds, so that runs of equal updated_at cross page boundaries; some of them today.
  const seconds = [NOW_S - 3 * DAY, NOW_S - 2 * DAY, NOW_S - DAY - 5, NOW_S - 7200, NOW_S - 3600, NOW_S - 600];
  const location = () => 1 + Math.floor(random() * 3);
  for (let i = Math.floor(random() * 80); i > 0; i--) {
    const expiry = random() < 0.1 ? NOW_S - 25 * DAY : NOW_S + Math.floor((random() - 0.5) * 4 * DAY);
    server.transaction({ location_id: location(), expiry_date_time_unix: expiry, updated_at: pick(random, seconds) });
  }
  for (const source of ['spothero', 'parkwhiz'] as const) {
    for (let i = Math.floor(random() * 40); i > 0; i--) server.booking(source, { location_id: location(), updated_at: pick(random, seconds) });
  }
  for (let i = Math.floor(random() * 40); i > 0; i--) {
    const sibling = server.data.monthly_parkers.at(-1);
    // Sometimes a second vehicle of the same parker.
    const parkerid = sibling !== undefined && random() < 0.2 ? sibling.parkerid : 1 + Math.floor(random() * 1e6);
    server.monthlyParker({ location_id: location(), parkerid, updated_at: pick(random, seconds) });
  }
}

/** Changes between rounds: records updated (they move to a later second) and added. Parkers stay (skip rule). */
function mutate(server: FakeEnforcementServer, random: () => number, clock: () => number): void {
  for (let i = Math.floor(random() * 5); i > 0; i--) {
    const records = random() < 0.5 ? server.data.transactions : pick(random, [server.data.spothero, server.data.parkwhiz]);
    const record = records[Math.floor(random() * records.length)];
    if (record === undefined) continue;
    record.license_plate = randomPlate(random);
    record.updated_at = clock();
  }
  for (let i = Math.floor(random() * 4); i > 0; i--) {
    if (random() < 0.5) server.transaction({ location_id: 2, updated_at: clock() });
    else server.booking(pick(random, ['spothero', 'parkwhiz'] as const), { location_id: 2, updated_at: clock() });
  }
}

interface Incarnation {
  api: EnforcementApi;
  dead: boolean;
  killed: Promise<null>;
  kill(): void;
}

function hang(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
  });
}

async function runSchedule(seed: number): Promise<{ rounds: number; kills: number; faults: number }> {
  const random = prng(seed);
  const factory = freshIndexedDb();
  const server = new FakeEnforcementServer({ nowSeconds: NOW_S, seed: seed * 7919 + 1 });
  const officer = random() < 0.6 ? [1, 2] : [2];
  const pageSize = 2 + Math.floor(random() * 9);
  const maxPages = random() < 0.3 ? 1 + Math.floor(random() * 4) : 50;
  populate(server, random);
  let clockValue = NOW_S - 100;
  const clock = () => ++clockValue;

  const faultyCalls = Math.floor(random() * 40);
  const faultRate = 0.1 + random() * 0.4;
  let faults = 0;
  server.fault = (call) => {
    if (call.n > faultyCalls || random() >= faultRate) return null;
    faults++;
    return pick(random, FAULTS);
  };

  let killsLeft = Math.floor(random() * 4);
  let kills = 0;
  let events = 0;
  let killAt = 1 + Math.floor(random() * 80);
  let finished = false;
  let current: Incarnation;

  const incarnate = (): Incarnation => {
    let markKilled!: (value: null) => void;
    const incarnation: Incarnation = {
      dead: false,
      killed: new Promise((resolve) => (markKilled = resolve)),
      api: undefined as unknown as EnforcementApi,
      kill() {
        if (incarnation.dead || finished) return;
        incarnation.dead = true;
        kills++;
        // Termination: nothing uncommitted survives, and the old instance never writes again.
        abortLiveTransactions();
        void incarnation.api.close();
        markKilled(null);
      },
    };
    incarnation.api = createEnforcementApi({
      indexedDB: factory,
      fetch: (input, init) => {
        if (incarnation.dead) return hang(init?.signal);
        tick();
        return server.fetch(input, init);
      },
      storage: null,
      locks: null,
      pageSize,
      maxPages,
      pageTimeoutMs: 15,
      log: () => undefined,
    });
    return incarnation;
  };
  const tick = () => {
    events++;
    if (finished || killsLeft === 0 || events < killAt) return;
    killsLeft--;
    killAt = events + 1 + Math.floor(random() * 80);
    const victim = current;
    setTimeout(() => victim.kill(), Math.floor(random() * 3));
  };
  setTransactionHook(tick);

  try {
    current = incarnate();
    let rounds = 0;
    let clean = false;
    while (!clean) {
      rounds++;
      if (rounds > 80) throw new Error(`seed ${seed}: no clean round after 80`);
      if (rounds > 1 && random() < 0.3) mutate(server, random, clock);
      clean = true;
      for (const type of SYNC_TYPES) {
        if (current.dead) current = incarnate();
        const faultsBefore = faults;
        const result: SyncTypeResult | null = await Promise.race([
          current.api.syncType({ type, apiBase: API_BASE, locationIds: officer, now: NOW }, auth(), () => undefined),
          current.killed,
        ]);
        if (result === null || current.dead || faults !== faultsBefore) clean = false;
        else if (result.outcome === 'failed' || (result.outcome === 'done' && result.stoppedBy === 'pageCap')) clean = false;
      }
    }
    finished = true;
    if (current.dead) current = incarnate();
    const { api } = current;
    await api.flush();

    const tables = await readStore(factory);
    for (const source of ['transactions', 'spothero', 'parkwhiz', 'monthly_parkers'] as const) {
      expect(storedSource(tables, source), `seed ${seed}: ${source}`).toEqual(expectedSource(server, source, officer));
    }
    expect(tables.staged_pages, `seed ${seed}: staged pages left`).toEqual([]);
    // Monthly parkers are unique by (location, parker, plate) and their ids unique.
    const parkers = tables.monthly_parkers as (StoredRecord & { id: number; parkerid: number })[];
    expect(new Set(parkers.map((p) => p.id)).size).toBe(parkers.length);

    // The plate index answers as the store does: per character, counts per category and the rows shown.
    const transactions = tables.transactions as (StoredRecord & { transaction_id: number; expiry_date_time_unix: number })[];
    for (const char of PLATE_CHARS) {
      const found = await api.search({ text: char.toLowerCase(), now: NOW });
      const has = (row: StoredRecord) => row.license_plate.toUpperCase().includes(char);
      const expected = {
        valid: transactions.filter((t) => has(t) && t.expiry_date_time_unix > NOW_S),
        expired: transactions.filter((t) => has(t) && t.expiry_date_time_unix <= NOW_S),
        spothero: (tables.spothero as StoredRecord[]).filter(has),
        parkwhiz: (tables.parkwhiz as StoredRecord[]).filter(has),
        monthly_parkers: parkers.filter(has),
      };
      for (const category of Object.keys(expected) as (keyof typeof expected)[]) {
        const rows = expected[category];
        expect(found[category].total, `seed ${seed}: '${char}' ${category}`).toBe(rows.length);
        expect(found[category].rows).toHaveLength(Math.min(rows.length, 10));
        for (const row of found[category].rows) {
          const key = 'transaction_id' in row ? row.transaction_id : row.id;
          const stored = rows.find((r) => ('transaction_id' in r ? r.transaction_id : (r as { id: number }).id) === key);
          // A payment's row says whether it was refunded in full, which the stored record says by its amounts.
          const { category: _category, match, refunded, ...fields } = row as typeof row & { refunded?: boolean };
          expect(match, `seed ${seed}: row ${key} without similar search`).toBe('exact');
          expect(stored, `seed ${seed}: row ${key}`).toMatchObject(fields);
          if (refunded !== undefined) expect(refunded).toBe(fullyRefunded(stored as TransactionRecord));
        }
      }
    }
    return { rounds, kills, faults };
  } finally {
    finished = true;
    setTransactionHook(null);
    await current!.api.close();
  }
}

describe('sync under faults and worker deaths', () => {
  const seeds = Array.from({ length: SCHEDULES }, (_, i) => i + 1);
  const totals = { rounds: 0, kills: 0, faults: 0 };
  it.each(seeds)('schedule %i ends with the store equal to the server', async (seed) => {
    const outcome = await runSchedule(seed);
    totals.rounds += outcome.rounds;
    totals.kills += outcome.kills;
    totals.faults += outcome.faults;
    if (seed === SCHEDULES) {
      // The schedules as a whole must have exercised what they are for.
      expect(totals.kills).toBeGreaterThan(SCHEDULES / 2);
      expect(totals.faults).toBeGreaterThan(SCHEDULES);
    }
  }, 20_000);
});
