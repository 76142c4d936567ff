import type { Db } from '../db/db';

/** The last change id taken by a write that moved money (migration 020: dashboard_change_seq). */
export interface DashboardChange {
  id: number;
}

/** How often the feed reads the change sequence while a live stream is open: a payment paints within about this long. */
export const CHANGE_POLL_MS = 250;

export interface ChangeReading {
  id: number;
  /** Every transaction with a lower id than this (xid8) has ended: the reading's snapshot xmin. */
  xmin: bigint;
}

/** The last change id taken, and the xmin of the snapshot it was read in. */
export async function readChanges(db: Db): Promise<ChangeReading> {
  const { rows } = await db.query<{ id: number; xmin: string }>(
    `SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS id,
            pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
       FROM dashboard_change_seq`,
  );
  return { id: rows[0]!.id, xmin: BigInt(rows[0]!.xmin) };
}

/**
 * A transaction id above that of every transaction begun so far: one taken now (a snapshot's xmax is not, it leaves
 * out transactions that began after the last one ended). Costs an id and a commit record, once per change seen.
 */
async function mark(db: Db): Promise<bigint> {
  const { rows } = await db.query<{ mark: string }>('SELECT pg_current_xact_id()::text AS mark');
  return BigInt(rows[0]!.mark);
}

/**
 * One reader per API process, shared by every open dashboard stream, running only while one is open.
 *
 * Writes that move money take the next id of dashboard_change_seq in their rollup trigger, before they commit (a
 * sequence is not transactional). So a new id says "something changed, or is about to": the feed tells the streams
 * at once (most writes have committed by the next read), and takes a transaction id as a mark, above every
 * transaction that could have taken it. Once a later snapshot's xmin passes that mark, all of those transactions have
 * committed or rolled back, and the feed tells the streams once more, so a write that committed late is never missed.
 * (Why not LISTEN/NOTIFY, as before: migration 020.) The feed cannot say which locations changed; each stream reads
 * its summary again and sends it only when its figures differ (server/routes/dashboards.ts).
 */
export function createChangeFeed(db: Db, pollMs = CHANGE_POLL_MS) {
  const subscribers = new Set<(change: DashboardChange) => void>();
  /** The first reading of the current run of the loop; undefined while no stream is open. */
  let started: Promise<void> | undefined;
  let last: ChangeReading | undefined;
  /** The mark taken when the newest id was seen, while writes that took ids before it may still be open. */
  let settlesAt: bigint | undefined;

  const deliver = (id: number) => {
    for (const subscriber of subscribers) subscriber({ id });
  };

  const poll = async () => {
    try {
      const now = await readChanges(db);
      if (now.id !== last?.id) {
        deliver(now.id);
        settlesAt = await mark(db);
      } else if (settlesAt !== undefined && now.xmin > settlesAt) {
        settlesAt = undefined;
        deliver(now.id);
      }
      last = now;
    } catch (error) {
      // A lost connection or a busy database: the next read tries again; streams keep their last figures meanwhile.
      console.error('[dashboards] reading the change sequence failed:', (error as Error).message);
    }
  };

  const loop = async () => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      if (subscribers.size === 0) break;
      await poll();
    }
    // In the same turn as the check above, so a stream opening now starts a new loop.
    started = undefined;
  };

  const start = async () => {
    last = await readChanges(db);
    // Writes open at this moment may have taken ids already and commit later: tell the streams once they have ended.
    settlesAt = await mark(db);
    void loop();
  };

  return {
    /** Resolves once the feed has its first reading, so that a change taken after it is heard. */
    async subscribe(onChange: (change: DashboardChange) => void): Promise<() => void> {
      subscribers.add(onChange);
      started ??= start();
      try {
        await started;
      } catch (error) {
        subscribers.delete(onChange);
        started = undefined;
        throw error;
      }
      return () => {
        subscribers.delete(onChange);
      };
    },
  };
}
export type ChangeFeed = ReturnType<typeof createChangeFeed>;
