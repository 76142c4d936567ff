import type { Db } from '../db/db';

/** What the rollup triggers announce on commit (006_dashboard_rollups.sql, dashboard_announce). */
export interface DashboardChange {
  id: number;
  locations: number[];
}

export const DASHBOARD_CHANNEL = 'dashboard_changes';

function parseChange(payload: string): DashboardChange | undefined {
  try {
    const value = JSON.parse(payload) as { id?: unknown; locations?: unknown };
    if (typeof value.id !== 'number' || !Array.isArray(value.locations)) return undefined;
    return { id: value.id, locations: value.locations.filter((id): id is number => typeof id === 'number') };
  } catch {
    return undefined;
  }
}

/**
 * One LISTEN per API process, shared by every open dashboard stream: LISTEN/NOTIFY on PostgreSQL (a dedicated
 * connection), PGlite's own notifications in-process. It listens only while a stream is open, so a server without
 * dashboards open holds no extra connection.
 */
export function createChangeFeed(db: Db) {
  const subscribers = new Set<(change: DashboardChange) => void>();
  let listening: Promise<() => Promise<void>> | undefined;

  const deliver = (payload: string) => {
    const change = parseChange(payload);
    if (change) for (const subscriber of subscribers) subscriber(change);
  };

  return {
    /** Resolves once listening, so that a change committed after it is heard. */
    async subscribe(onChange: (change: DashboardChange) => void): Promise<() => void> {
      subscribers.add(onChange);
      listening ??= db.listen(DASHBOARD_CHANNEL, deliver);
      try {
        await listening;
      } catch (error) {
        subscribers.delete(onChange);
        listening = undefined;
        throw error;
      }
      return () => {
        subscribers.delete(onChange);
        if (subscribers.size === 0 && listening) {
          const stop = listening;
          listening = undefined;
          void stop.then((unlisten) => unlisten()).catch(() => undefined);
        }
      };
    },
  };
}
export type ChangeFeed = ReturnType<typeof createChangeFeed>;
