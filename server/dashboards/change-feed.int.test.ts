import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate';
import { postgresConfigOf } from '../db/postgres';
import { seedDemoLocations } from '../db/seed/demo-seed';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../testing/test-database';
import { createChangeFeed, readChanges, type DashboardChange } from './change-feed';

const POLL_MS = 20;
/**
 * The wait for the feed's settling notice. It comes once every transaction begun before the feed's mark has ended, in
 * the whole cluster: on the shared PostgreSQL that includes other suites' transactions, which can outlast a few polls.
 */
const SETTLE_MS = 10_000;
const PAYMENT = `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount)
                 VALUES (1, 'FEED1', now(), now() + interval '1 hour', 5.00)`;

/** Records what the feed delivers; `next()` resolves with the next change not yet taken, or undefined after `waitMs`. */
function listenTo(feed: ReturnType<typeof createChangeFeed>) {
  const changes: DashboardChange[] = [];
  let taken = 0;
  let waiter: (() => void) | undefined;
  const subscribed = feed.subscribe((change) => {
    changes.push(change);
    waiter?.();
  });
  return {
    subscribed,
    changes,
    // A change that must come may wait long on a loaded machine (the full suite runs files in parallel); the waits
    // for silence pass their own short time.
    async next(waitMs = 10_000): Promise<DashboardChange | undefined> {
      if (changes.length === taken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          waiter = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        waiter = undefined;
      }
      const change = changes[taken];
      if (change) taken += 1;
      return change;
    },
  };
}

const lastChangeId = async (database: TestDatabase) => (await readChanges(database.db)).id;

describe.each(BACKENDS)('the dashboards change feed on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    await migrate(database.db);
    await seedDemoLocations(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('tells every open stream of a write that moved money, with a newer change id, and stops when none is open', async () => {
    const feed = createChangeFeed(database.db, POLL_MS);
    const first = listenTo(feed);
    const second = listenTo(feed);
    const [stopFirst, stopSecond] = await Promise.all([first.subscribed, second.subscribed]);
    // Once the writes open when the feed started have ended, it says so (once); then nothing until a write.
    await Promise.all([first.next(SETTLE_MS), second.next(SETTLE_MS)]);
    const delivered = second.changes.length;
    expect(await first.next(5 * POLL_MS)).toBeUndefined();

    const before = await lastChangeId(database);
    await database.db.query(PAYMENT);
    const [change] = await Promise.all([first.next(), second.next()]);
    expect(change?.id).toBeGreaterThan(before);
    expect(second.changes.at(-1)).toEqual(change);
    // The write committed before the mark was taken: the feed tells once more when its mark is passed, then stops.
    await Promise.all([first.next(SETTLE_MS), second.next(SETTLE_MS)]);

    stopFirst();
    stopSecond();
    await database.db.query(PAYMENT);
    expect(await first.next(5 * POLL_MS)).toBeUndefined();
    expect(second.changes.length).toBeLessThanOrEqual(delivered + 2);
  });

  it.runIf(backend === 'postgres')('tells the streams again once a write that took its id before committing has committed', async () => {
    const feed = createChangeFeed(database.db, POLL_MS);
    const stream = listenTo(feed);
    const stop = await stream.subscribed;
    await stream.next(SETTLE_MS); // the feed's first mark passed
    const writer = new pg.Client(postgresConfigOf(database.db));
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(PAYMENT); // takes the next change id now, commits below
      expect(await stream.next()).toBeDefined();
      // While the write is open the feed waits: a stream reading now would not see it yet.
      expect(await stream.next(10 * POLL_MS)).toBeUndefined();
      await writer.query('COMMIT');
      const settled = await stream.next();
      expect(settled).toBeDefined();
      const { rows } = await database.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE license_plate = 'FEED1'`);
      expect(Number(rows[0]!.n)).toBeGreaterThan(0);
    } finally {
      stop();
      await writer.end();
    }
  });
});
